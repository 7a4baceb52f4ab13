import CZlib
import Foundation
import QuarryModel

/// Models decoded from stores' `Z_MODELCACHE`, kept between runs in the user's cache folder
/// (`$QUARRY_CACHE_DIR`, else `$XDG_CACHE_HOME/quarry`, else `~/.cache/quarry`; an empty
/// `QUARRY_CACHE_DIR` turns it off). Decoding Photos.app's model takes a third of opening its
/// store; reading it back from here takes a few hundredths of that.
///
/// A file is used only when all of this holds, so anything else is a miss (the archive
/// is decoded as before and the file written again):
/// - it was written by this very executable file (device, inode, size, modification and
///   change times are in it): a new build's decoder may read archives differently;
/// - it holds these very bytes of `Z_CONTENT`, compared whole, so no hash collision can
///   hand one store another's model;
/// - its model bytes are of a size the blob can have, pass their CRC, parse, and pass the
///   checks a decoded model passes.
/// Nothing is ever written beside the store; a folder that cannot be written only costs
/// the speed.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

package struct DecodedModelCache {
    /// Where the files are; nil turns the cache off.
    package let folder: String?
    /// Files kept at most: the oldest beyond this are removed when one is written.
    package var limit = 32

    package init(folder: String?) { self.folder = folder }

    /// The folder the environment names, as described above.
    package static let standard = DecodedModelCache(folder: standardFolder())

    private static let magic = Array("QMODEL04".utf8)

    /// The most model bytes a blob may have: Photos.app's 154 KB blob makes 44 KB, so this
    /// bound is generous for real models and keeps a forged file from making a model of
    /// millions of properties (a few bytes each in the file, hundreds in memory).
    private static func largestModel(for blob: [UInt8]) -> Int { 8 * blob.count + (64 << 10) }

    /// No cache file is read past the blob, its model and the header.
    private static func largestFile(for blob: [UInt8]) -> Int { blob.count + largestModel(for: blob) + 256 }

    /// The model decoded earlier from `blob`, if a file holds it.
    package func model(for blob: [UInt8]) -> CoreDataModel? {
        guard let folder, let path = path(for: blob), Self.isTrusted(folder, directory: true), Self.isTrusted(path, directory: false),
            let identity = Self.executableIdentity,
            let bytes = try? ModelFileReader.read(path, limit: Self.largestFile(for: blob))
        else { return nil }
        var r = ModelBytes.Reader(bytes)
        guard let head = try? (0..<Self.magic.count).map({ _ in try r.byte() }), head == Self.magic,
            identity.allSatisfy({ (try? r.unsigned()) == $0 }),
            let length = try? r.count(), length == blob.count,
            let stored = try? r.bytes(length), Self.same(stored, blob),
            let crc = try? r.unsigned(), let modelBytes = try? r.bytes(r.remaining),
            crc == Self.crc(modelBytes), let model = try? CoreDataModel(bytes: Array(modelBytes))
        else { return nil }
        // Checked as a decoded archive is: what maps a model counts on it.
        guard (try? ModelValidation.check(model, path: path)) != nil else { return nil }
        return model
    }

    /// Keeps `model`, decoded from `blob`, for the next run. Failures are silent: the cache
    /// only saves time.
    package func keep(_ model: CoreDataModel, for blob: [UInt8]) {
        guard let folder, let path = path(for: blob), let identity = Self.executableIdentity else { return }
        let modelBytes = model.encodedBytes()
        var w = ModelBytes.Writer()
        guard modelBytes.count <= Self.largestModel(for: blob) else { return }
        w.bytes = Self.magic
        for part in identity { w.unsigned(part) }
        w.count(blob.count)
        w.bytes.append(contentsOf: blob)
        w.unsigned(Self.crc(modelBytes[...]))
        w.bytes.append(contentsOf: modelBytes)
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            // Nothing is kept where another user could change it before the next run reads it.
            guard Self.isTrusted(folder, directory: true) else { return }
            // Atomic: a temporary file renamed over the old, so a second quarry reading it
            // meanwhile sees the old file or the new, never half of one.
            try Data(w.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return
        }
        prune(folder)
    }

    /// Whether `path` is the user's own, as ssh takes its files: a folder (or a regular
    /// file) owned by this user that no one else may write, not a link. A cache file in a
    /// folder another user may write (a world-writable `/tmp/...`) could be forged: a model
    /// whose delete rules all cascade. Such a folder is not used, and a note says so once.
    static func isTrusted(_ path: String, directory: Bool) -> Bool {
        #if canImport(Glibc) || canImport(Darwin)
            var info = stat()
            guard lstat(path, &info) == 0 else { return !directory }
            let kind = info.st_mode & S_IFMT
            let trusted = kind == (directory ? S_IFDIR : S_IFREG) && info.st_uid == geteuid() && info.st_mode & 0o022 == 0
            if !trusted, directory { noteDistrust(path) }
            return trusted
        #else
            return false
        #endif
    }

    /// The note for a cache folder not used, once a process (`takeNote`).
    /// `nonisolated(unsafe)`: stores are opened, and notes taken, on the shell's one thread;
    /// the worst a race could do is say the note twice or not at all.
    private nonisolated(unsafe) static var distrust: String?
    package nonisolated(unsafe) static var distrustSaid = false

    private static func noteDistrust(_ folder: String) {
        guard !distrustSaid else { return }
        distrustSaid = true
        distrust = "the model cache folder \(folder) is not the user's own or others may write it: models are decoded afresh, and none is kept there"
    }

    /// The note about an untrusted cache folder, handed out once.
    package static func takeNote() -> String? {
        defer { distrust = nil }
        return distrust
    }

    /// The file for `blob`: its CRC and length name it (the file holds the blob itself to compare).
    private func path(for blob: [UInt8]) -> String? {
        guard let folder, !blob.isEmpty else { return nil }
        return folder + "/" + String(Self.crc(blob[...]), radix: 16) + "-" + String(blob.count) + ".model"
    }

    /// Removes the oldest of this cache's files past `limit`: only regular files named as
    /// it names them and starting as it starts them; whatever else a user keeps in the
    /// folder is left alone.
    private func prune(_ folder: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder) else { return }
        let dated = names.filter(Self.isCacheFileName).compactMap { name -> (String, Date)? in
            let path = folder + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let date = attributes[.modificationDate] as? Date,
                (try? ModelFileReader.head(path, count: Self.magic.count)) == Self.magic
            else { return nil }
            return (path, date)
        }
        guard dated.count > limit else { return }
        for (path, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(limit) { try? manager.removeItem(atPath: path) }
    }

    /// `<hex>-<decimal>.model`, as `path(for:)` names a file.
    package static func isCacheFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".model") else { return false }
        let parts = name.dropLast(6).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].allSatisfy(\.isHexDigit) && parts[1].allSatisfy(\.isASCII) && parts[1].allSatisfy(\.isNumber)
            && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// Byte for byte, with memcmp: the generic comparison of Photos' 154 KB showed in
    /// profiles of an open (1.3% of it).
    private static func same(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in x.baseAddress.flatMap { p in y.baseAddress.map { memcmp(p, $0, x.count) == 0 } } ?? x.isEmpty }
            }
    }

    private static func crc(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt64(crc32(0, buffer.baseAddress, UInt32(buffer.count)))
        }
    }

    /// This executable's file: device, inode, size, and modification and change times in
    /// nanoseconds. A rebuilt quarry is another, and so is a copy that kept the mtime
    /// (`cp -p`, tar): a copy is a new inode with a new change time.
    private static let executableIdentity: [UInt64]? = {
        #if os(Linux)
            var info = stat()
            guard stat("/proc/self/exe", &info) == 0 else { return nil }
            func nanoseconds(_ t: timespec) -> UInt64 {
                UInt64(bitPattern: Int64(t.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(t.tv_nsec))
            }
            return [
                UInt64(info.st_dev), UInt64(info.st_ino), UInt64(bitPattern: Int64(info.st_size)),
                nanoseconds(info.st_mtim), nanoseconds(info.st_ctim)
            ]
        #else
            return nil
        #endif
    }()

    private static func standardFolder() -> String? {
        // .some(nil): set but not UTF-8, which turns the cache off (repaired, the name
        // would be another folder's).
        func variable(_ name: String) -> String?? { getenv(name).map { String(validatingCString: $0) } }
        switch variable("QUARRY_CACHE_DIR") {
        case .some(nil): return nil
        case .some(let chosen?): return chosen.isEmpty ? nil : chosen + "/models"
        case nil: break
        }
        switch variable("XDG_CACHE_HOME") {
        case .some(nil): return nil
        case .some(let xdg?) where xdg.hasPrefix("/"): return xdg + "/quarry/models"
        default: break
        }
        guard case .some(let home?) = variable("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.cache/quarry/models"
    }
}

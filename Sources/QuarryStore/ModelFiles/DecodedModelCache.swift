/// Models decoded from stores' `Z_MODELCACHE`, kept between runs in the user's cache folder
/// (`$QUARRY_CACHE_DIR`, else `$XDG_CACHE_HOME/quarry`, else `~/.cache/quarry`; an empty
/// `QUARRY_CACHE_DIR` turns it off). Decoding Photos.app's model takes a third of opening its
/// store; reading it back from here takes a few hundredths of that.
///
/// A file is used only when it was written by this very executable (its size and change
/// time are in the file: a new build's decoder may read archives differently) for these
/// very bytes of `Z_CONTENT` (kept in the file and compared whole, so no hash collision can
/// hand one store another's model), and its model bytes pass their CRC and parse. Anything
/// else is a miss: the archive is decoded as before and the file written again. Nothing is
/// ever written beside the store; a folder that cannot be written only costs the speed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib
import Foundation

struct DecodedModelCache {
    /// Where the files are; nil turns the cache off.
    let folder: String?
    /// Files kept at most: the oldest beyond this are removed when one is written.
    var limit = 32

    /// The folder the environment names, as described above.
    static let standard = DecodedModelCache(folder: standardFolder())

    private static let magic = Array("QMODEL01".utf8)
    /// No cache file is read past this size (a real one is the blob plus about as much again).
    private static let largestFile = 256 << 20

    /// The model decoded earlier from `blob`, if a file holds it.
    func model(for blob: [UInt8]) -> CoreDataModel? {
        guard let path = path(for: blob), let identity = Self.executableIdentity,
              let bytes = try? ModelFileReader.read(path, limit: Self.largestFile) else { return nil }
        var r = ModelBytes.Reader(bytes)
        guard let head = try? (0..<Self.magic.count).map({ _ in try r.byte() }), head == Self.magic,
              (try? r.unsigned()) == identity.size, (try? r.unsigned()) == identity.changed,
              let length = try? r.count(), length == blob.count,
              let stored = try? r.bytes(length), stored.elementsEqual(blob),
              let crc = try? r.unsigned(), let modelBytes = try? r.bytes(r.remaining),
              crc == Self.crc(modelBytes) else { return nil }
        return try? CoreDataModel(bytes: Array(modelBytes))
    }

    /// Keeps `model`, decoded from `blob`, for the next run. Failures are silent: the cache
    /// only saves time.
    func keep(_ model: CoreDataModel, for blob: [UInt8]) {
        guard let folder, let path = path(for: blob), let identity = Self.executableIdentity else { return }
        let modelBytes = model.encodedBytes()
        var w = ModelBytes.Writer()
        w.bytes = Self.magic
        w.unsigned(identity.size)
        w.unsigned(identity.changed)
        w.count(blob.count)
        w.bytes.append(contentsOf: blob)
        w.unsigned(Self.crc(modelBytes[...]))
        w.bytes.append(contentsOf: modelBytes)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // Atomic: a temporary file renamed over the old, so a second quarry reading it
            // meanwhile sees the old file or the new, never half of one.
            try Data(w.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return
        }
        prune(folder)
    }

    /// The file for `blob`: its CRC and length name it (the file holds the blob itself to compare).
    private func path(for blob: [UInt8]) -> String? {
        guard let folder, !blob.isEmpty else { return nil }
        return folder + "/" + String(Self.crc(blob[...]), radix: 16) + "-" + String(blob.count) + ".model"
    }

    /// Removes the oldest files past `limit`.
    private func prune(_ folder: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder), names.count > limit else { return }
        let dated = names.filter { $0.hasSuffix(".model") }.compactMap { name -> (String, Date)? in
            let path = folder + "/" + name
            return (try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date).map { (path, $0) }
        }
        for (path, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(limit) { try? manager.removeItem(atPath: path) }
    }

    private static func crc(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt64(crc32(0, buffer.baseAddress, UInt32(buffer.count)))
        }
    }

    /// This executable's size and change time, in nanoseconds: a rebuilt quarry is another.
    private static let executableIdentity: (size: UInt64, changed: UInt64)? = {
        #if os(Linux)
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return nil }
        let changed = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
        return (UInt64(info.st_size), changed)
        #else
        return nil
        #endif
    }()

    private static func standardFolder() -> String? {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let chosen = variable("QUARRY_CACHE_DIR") { return chosen.isEmpty ? nil : chosen + "/models" }
        if let xdg = variable("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/quarry/models" }
        guard let home = variable("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.cache/quarry/models"
    }
}

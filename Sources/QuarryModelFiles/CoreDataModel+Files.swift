import Foundation
import QuarryModel

/// Finding and reading a Core Data model on disk, in each form it ships in: Xcode's
/// `.xcdatamodeld` (versions, `.xccurrentversion` naming the current one) and `.xcdatamodel`
/// (a folder with `contents` XML), the compiled `.momd` (`VersionInfo.plist` naming the
/// current `.mom`) and `.mom` (a keyed archive), or a store holding `Z_MODELCACHE`.
/// A folder without one of those extensions is recognized by what it holds.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CoreDataModel {
    /// Reads the model at `path`: a model file or folder of any kind above, or a Core Data
    /// store, read by `readingStore` (the Core Data layout, which model files cannot name:
    /// a store is refused without it).
    public static func load(contentsOf path: String, readingStore: ((String) throws -> CoreDataModel)? = nil) throws -> CoreDataModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelFileError(.missingFile, path: path, "")
        }
        guard isDirectory.boolValue else { return try loadFile(path, readingStore: readingStore) }
        let url = URL(fileURLWithPath: path)
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld": return try loadFile(currentVersion(in: path, children: children))
        case "momd": return try loadFile(currentCompiledVersion(in: path, children: children))
        case "xcdatamodel":
            if !children.contains("contents"), children.contains("elements") { throw xcode3Model(path) }
            return try loadFile(url.appendingPathComponent("contents").path)
        default:
            if children.contains("contents") { return try loadFile(url.appendingPathComponent("contents").path) }
            if children.contains("VersionInfo.plist") || children.contains(where: { $0.hasSuffix(".mom") }) {
                return try loadFile(currentCompiledVersion(in: path, children: children))
            }
            if children.contains(".xccurrentversion") || children.contains(where: { $0.hasSuffix(".xcdatamodel") }) {
                return try loadFile(currentVersion(in: path, children: children))
            }
            if children.contains("elements") { throw xcode3Model(path) }
            throw ModelFileError(.notAModel, path: path, "a folder with no model contents, .mom or .xcdatamodel")
        }
    }

    /// Xcode 3 kept a model as an archive of its editor's objects (`elements`, `layout`),
    /// not the `contents` XML Xcode has written since 4.
    private static func xcode3Model(_ path: String) -> ModelFileError {
        ModelFileError(
            .notAModel, path: path,
            "a model in Xcode 3's format (an `elements` archive, no `contents`), which Quarry does not read: save it again in a later Xcode, or give the compiled .mom from the app's .momd"
        )
    }

    /// Decodes a compiled model (the bytes of a `.mom`, or an inflated model cache).
    public static func decodeArchive(_ data: Data, path: String) throws -> CoreDataModel {
        try ArchivedModelDecoder.decode(data, path: path)
    }

    /// Decodes Xcode's model XML (the bytes of an `.xcdatamodel`'s `contents`).
    public static func decodeXML(_ data: Data, path: String) throws -> CoreDataModel {
        try XCDataModelParser.parse(data, path: path)
    }

    /// One file, by what its first bytes are: a binary or XML plist (a `.mom`), model XML, or
    /// SQLite. Read through `ModelFileReader` (bounded, regular files only, no trap on a
    /// read error); a store is read by SQLite, so only its first bytes are read here.
    private static func loadFile(_ path: String, readingStore: ((String) throws -> CoreDataModel)? = nil) throws -> CoreDataModel {
        guard FileManager.default.fileExists(atPath: path) else { throw ModelFileError(.missingFile, path: path, "") }
        if path.lowercased().hasSuffix(".omo") {
            throw ModelFileError(.notAModel, path: path, "an optimized .omo model is not readable; use the .mom beside it")
        }
        let head = try ModelFileReader.head(path)
        if URL(fileURLWithPath: path).lastPathComponent == "contents" {
            return try decodeXML(Data(ModelFileReader.read(path)), path: path)
        }
        if head.starts(with: Array("SQLite format 3\0".utf8)) {
            guard let readingStore else {
                throw ModelFileError(.notAModel, path: path, "a SQLite store: open it as the store to read the model it carries")
            }
            return try readingStore(path)
        }
        let data = Data(try ModelFileReader.read(path))
        if head.starts(with: Array("bplist".utf8)) { return try decodeArchive(data, path: path) }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<plist") || text.contains("<!DOCTYPE plist") { return try decodeArchive(data, path: path) }
        if path.lowercased().hasSuffix(".mom") { return try decodeArchive(data, path: path) }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") { return try decodeXML(data, path: path) }
        throw ModelFileError(.notAModel, path: path, "neither a model archive, model XML nor a SQLite store")
    }

    /// The current `.xcdatamodel` of an `.xcdatamodeld`: the one `.xccurrentversion` names, else the only one.
    private static func currentVersion(in path: String, children: [String]) throws -> String {
        let folder = URL(fileURLWithPath: path)
        let marker = folder.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: marker.path) {
            let name = try plistString(at: marker.path, key: "_XCCurrentVersionName")
            let version = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: version.path) else {
                throw ModelFileError(.missingFile, path: version.path, "named as the current version by \(marker.path)")
            }
            return version.appendingPathComponent("contents").path
        }
        let versions = children.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard versions.count == 1 else {
            throw ModelFileError(
                .notAModel, path: path,
                versions.isEmpty ? "no .xcdatamodel inside" : "\(versions.count) versions and no .xccurrentversion to choose one")
        }
        return folder.appendingPathComponent(versions[0]).appendingPathComponent("contents").path
    }

    /// The current `.mom` of a `.momd`: the one `VersionInfo.plist` names, else the only one.
    private static func currentCompiledVersion(in path: String, children: [String]) throws -> String {
        let folder = URL(fileURLWithPath: path)
        let info = folder.appendingPathComponent("VersionInfo.plist")
        if FileManager.default.fileExists(atPath: info.path) {
            let name = try plistString(at: info.path, key: "NSManagedObjectModel_CurrentVersionName")
            let mom = folder.appendingPathComponent(name.hasSuffix(".mom") ? name : name + ".mom")
            guard FileManager.default.fileExists(atPath: mom.path) else {
                throw ModelFileError(.missingFile, path: mom.path, "named as the current version by \(info.path)")
            }
            return mom.path
        }
        let moms = children.filter { $0.hasSuffix(".mom") }.sorted()
        guard moms.count == 1 else {
            throw ModelFileError(
                .notAModel, path: path, moms.isEmpty ? "no .mom inside" : "\(moms.count) versions and no VersionInfo.plist to choose one")
        }
        return folder.appendingPathComponent(moms[0]).path
    }

    private static func plistString(at path: String, key: String) throws -> String {
        // A version marker is a few hundred bytes: 64 KiB is plenty, and bounds the plist.
        let data = Data(try ModelFileReader.read(path, limit: 64 << 10))
        let plist = try PropertyListValue.read(data, path: path)
        guard let value = plist.dictionary?[key]?.string,
            !value.isEmpty, !value.contains("/"), value != "..", value != "."
        else {
            throw ModelFileError(.malformedPlist, path: path, "no \(key) naming a version")
        }
        return value
    }
}

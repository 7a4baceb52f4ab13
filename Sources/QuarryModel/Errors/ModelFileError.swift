/// Why a Core Data model could not be read, as data: what kind of problem, which file, and
/// the detail. Model files and store caches come from other programs, so every defect in
/// them is one of these values (never a crash), rendered as `path: what: detail`.
import CQuarrySignals

public struct ModelFileError: QuarryError, Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The path does not exist.
        case missingFile
        /// The file exists but cannot be read: a read error, not a regular file (a FIFO, a
        /// device, a directory where a file belongs), or larger than a model file may be.
        case unreadable
        /// A file or folder that is not a Core Data model (wrong extension, no `contents`, no `.mom`).
        case notAModel
        /// `contents` is not well-formed XML, or lacks what a model needs.
        case malformedXML
        /// Not a property list, or a truncated one.
        case malformedPlist
        /// An attribute type Core Data does not have (`attributeType="Integer 128"`, `NSAttributeType` 1234).
        case unknownAttributeType
        /// A relationship, parent entity or inverse that names something not in the model.
        case danglingReference
        /// A keyed archive whose object graph is broken: a UID out of range, a value of the
        /// wrong type, a cycle, or nesting too deep.
        case brokenArchive
        /// The compressed model cache does not inflate, or would inflate past the limit.
        case compression
        /// The store has no `Z_MODELCACHE` (or no row in it).
        case noModelCache
        /// SQLite refused to read the store.
        case database
        /// A model Quarry reads but cannot define in the open store (inheritance, for now).
        case unsupported
        /// Ctrl-C or `--timeout` stopped the reading (the detail says which, and where).
        case stopped
    }

    public var kind: Kind
    public var path: String
    public var detail: String

    public init(_ kind: Kind, path: String, _ detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var location: ErrorLocation? { .file(path: path, line: nil, column: nil) }

    public var message: String {
        let what: String
        switch kind {
        case .missingFile: what = "no such file"
        case .unreadable: what = "cannot read the file"
        case .notAModel: what = "not a Core Data model"
        case .malformedXML: what = "malformed model XML"
        case .malformedPlist: what = "malformed property list"
        case .unknownAttributeType: what = "unknown attribute type"
        case .danglingReference: what = "dangling reference"
        case .brokenArchive: what = "broken keyed archive"
        case .compression: what = "cannot inflate the model cache"
        case .noModelCache: what = "no model cache"
        case .database: what = "cannot read the store"
        case .unsupported: what = "cannot define this model here"
        case .stopped: return detail
        }
        return detail.isEmpty ? what : "\(what): \(detail)"
    }
}

extension ModelFileError {
    /// Throws when Ctrl-C or `--timeout` asks running work to stop: reading a model is
    /// stopped as a script is, with the file and `position` (a line, a byte) in the message.
    package static func stopIfAsked(_ path: String, at position: String? = nil) throws {
        guard quarry_should_stop() != 0 else { return }
        let deadline = quarry_process_deadline()
        let why = deadline > 0 && quarry_monotonic_now() >= deadline ? "timeout: the script ran past its time limit" : "interrupted!"
        throw ModelFileError(.stopped, path: path, position.map { "\($0): \(why)" } ?? why)
    }
}

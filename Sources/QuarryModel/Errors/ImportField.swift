/// The field of a record an import failure names: a CSV column (its header name and
/// 1-based position) or a JSON key (its name and the 1-based element holding it). The
/// line, where there is one, is the failure's own (`importFailed(path:line:...)`).
public struct ImportField: Equatable, Sendable {
    /// The column's name in the header, or the JSON key; nil when the header's cell has
    /// no name that can be said (not valid UTF-8).
    public var name: String?
    /// The 1-based position among the file's columns: the header's order for CSV, the
    /// order keys first appear for JSON; nil when the name is not among them.
    public var column: Int?
    /// The 1-based element of a JSON array, whose records have no line of their own.
    public var element: Int?

    public init(name: String?, column: Int? = nil, element: Int? = nil) {
        self.name = name
        self.column = column
        self.element = element
    }
}

extension ErrorDetail where Value == ImportField? {
    /// The CSV column at 1-based `number`, named `name` when it has one.
    package static func column(_ number: Int, _ name: String?) -> Self { Self(ImportField(name: name, column: number)) }
    /// A name the file gives (a header's, a key's) that is not among the columns read.
    package static func named(_ name: String) -> Self { Self(ImportField(name: name)) }
    /// The key `name` of JSON element `element` (1-based).
    package static func key(_ name: String, element: Int) -> Self { Self(ImportField(name: name, element: element)) }
}

extension StoreError {
    /// The field an import failure names, when it names one (inside `.during` too).
    public var importField: ImportField? {
        switch self {
        case .importFailed(_, _, let field, _): return field.value
        case .during(_, let error): return error.importField
        default: return nil
        }
    }
}

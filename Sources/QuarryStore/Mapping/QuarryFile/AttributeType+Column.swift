import QuarryModel

/// How Quarry's own files declare an attribute's column.
extension AttributeType {
    /// The column type used when Quarry creates the table.
    public var sqlType: String {
        switch self {
        case .string, .uuid, .json: return "TEXT"
        case .int16, .int32, .int64, .bool: return "INTEGER"
        case .double, .decimal, .date: return "REAL"
        case .binary: return "BLOB"
        }
    }
}

import QuarryModel
import QuarryStore

/// SQL text with its `?` parameters, in order. Values are only ever bound, never spliced.
public struct SQLFragment {
    public var sql: String
    public var arguments: [Value]
    public init(_ sql: String, _ arguments: [Value] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

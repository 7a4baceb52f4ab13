import QuarryModel
import QuarryStore

extension PostgresSaveStatements {
    /// Text that is not UTF-8 (read from a SQLite file, or made in Lua, whose strings are
    /// bytes) has no place in PostgreSQL: Quarry's session sends text as UTF-8, which the
    /// server checks, a SQL_ASCII database's too. Refused before anything is sent, in one
    /// line naming the attribute, and the save writes nothing. UTF-8 holding a NUL byte is
    /// said so: it is UTF-8, but no server text holds it.
    static func refuseTextThatIsNotUTF8(_ names: [String], _ values: [Value], of entity: EntityDescription) throws {
        for (name, value) in zip(names, values) {
            guard case .textBytes(let bytes) = value else { continue }
            throw StoreError.during(
                operation: "save",
                .validation(
                    message: "\(entity.name).\(name) is " + PostgresValue.textBytesRefusal(bytes, "stores") + "; nothing was written"))
        }
    }
}

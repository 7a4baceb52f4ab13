import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// SQLite's side of an `SQLFunction`: installed on every connection a store opens.
extension SQLFunction {
    /// Installs the function on `sqlite`. A function SQLite could not install (out of
    /// memory) is missing, which a statement calling it reports.
    func install(on sqlite: OpaquePointer) {
        switch definition {
        case .text(let functions):
            TextFunctionsInstaller.install(functions, on: sqlite)
        case .scalar(let name, let argumentCount, let deterministic, let body):
            let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
            // SQLite calls the destructor when the function is replaced, the connection
            // closes, or installing fails.
            sqlite3_create_function_v2(
                sqlite, name, Int32(argumentCount), SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0), box,
                { context, count, arguments in
                    guard let context, let data = sqlite3_user_data(context) else { return }
                    let function = Unmanaged<FunctionBody>.fromOpaque(data).takeUnretainedValue()
                    SQLFunction.answer(function.body(SQLiteFunctionArguments(values: arguments, count: Int(count))), context)
                }, nil, nil,
                { data in if let data { Unmanaged<FunctionBody>.fromOpaque(data).release() } })
        }
    }

    /// Sets the call's result to `value` as SQLite stores it (`Value.databaseValue`:
    /// booleans 0/1, dates as seconds).
    static func answer(_ value: Value, _ context: OpaquePointer) {
        // Text that is not UTF-8 is TEXT, byte for byte, as a column kept it.
        if case .textBytes(let bytes) = value {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sqlite3_result_text(context, $0.baseAddress, Int32($0.count), SQLiteCursor.transient) }
            }
            return
        }
        switch value.databaseValue.storage {
        case .null: sqlite3_result_null(context)
        case .int64(let integer): sqlite3_result_int64(context, integer)
        case .double(let real): sqlite3_result_double(context, real)
        case .string(let text): sqlite3_result_text(context, text, -1, SQLiteCursor.transient)
        case .blob(let data): data.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), SQLiteCursor.transient) }
        }
    }
}

/// What SQLite keeps for a Swift function: its body.
private final class FunctionBody {
    let body: (any SQLFunctionArguments) -> Value
    init(_ body: @escaping (any SQLFunctionArguments) -> Value) { self.body = body }
}

/// The arguments of one call, read in place (no array is made per call), each as a
/// row's column is read (`Value(rowText:)`: text that is not UTF-8 kept whole).
struct SQLiteFunctionArguments: SQLFunctionArguments {
    let values: UnsafeMutablePointer<OpaquePointer?>?
    let count: Int

    /// The argument at `index` by its storage class; NULL past the last.
    subscript(index: Int) -> Value {
        guard index >= 0, index < count, let value = values?[index] else { return .null }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return .null }
            return Value(rowText: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard let bytes = sqlite3_value_blob(value), count > 0 else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}

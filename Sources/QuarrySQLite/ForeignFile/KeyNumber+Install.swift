import GRDBSQLite
import QuarryEngine
import QuarryModel

/// `quarry_key_number` and `quarry_key_part` on one connection, sharing what it learned of
/// numbers and keys (`KeyNumbers`). Installed here rather than as `SQLFunction`s, whose
/// bodies cannot fail: a clash of numbers fails the statement with its message, set as
/// the call's error, which SQLite reports once the call has returned (nothing unwinds
/// through Swift).
extension KeyNumber {
    static func install(on sqlite: OpaquePointer, known numbers: KeyNumbers) {
        let known = Unmanaged.passRetained(numbers).toOpaque()
        // Each function holds the table; the last one SQLite drops releases it.
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
            if let data { Unmanaged<KeyNumbers>.fromOpaque(data).release() }
        }
        _ = Unmanaged<KeyNumbers>.fromOpaque(known).retain()
        sqlite3_create_function_v2(
            sqlite, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, known,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let known = Unmanaged<KeyNumbers>.fromOpaque(data).takeUnretainedValue()
                switch KeyNumber.number(SQLiteFunctionArguments(values: arguments, count: Int(count)), known) {
                case .success(let value): SQLFunction.answer(value, context)
                case .failure(let clash): sqlite3_result_error(context, clash.message, -1)
                }
            }, nil, nil, release)
        sqlite3_create_function_v2(
            sqlite, partName, 3, SQLITE_UTF8, known,
            { context, count, arguments in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let known = Unmanaged<KeyNumbers>.fromOpaque(data).takeUnretainedValue()
                SQLFunction.answer(KeyNumber.part(SQLiteFunctionArguments(values: arguments, count: Int(count)), known), context)
            }, nil, nil, release)
    }
}

import CQuarrySQLite
import Foundation
import QuarryEngine

/// `quarry_fold` and `quarry_string_op`, which SQLite calls once per row: C (text_match.c)
/// with the pattern folded once per statement and ASCII matched there, and the Swift the
/// predicate layer gives (the evaluator's own code) for the rest.
enum TextFunctionsInstaller {
    /// The Swift answers: C calls back through plain function pointers, which carry no
    /// context, so the one set the process uses is kept here (every connection installs
    /// the same). Unsafe only to the compiler: set as a connection opens, on the one thread
    /// that runs statements, and read by the calls of those statements.
    nonisolated(unsafe) private static var installed: TextFunctions?

    static func install(_ functions: TextFunctions, on sqlite: OpaquePointer) {
        installed = functions
        quarry_sqlite_add_text_functions(
            sqlite,
            { text, textCount, textIsBlob, pattern, patternCount, patternIsBlob, op, options in
                // quarry_string_op(text, pattern, operator, options): NULL when either is not text.
                guard let functions = TextFunctionsInstaller.installed,
                    let text = TextFunctionsInstaller.string(text, textCount, textIsBlob),
                    let pattern = TextFunctionsInstaller.string(pattern, patternCount, patternIsBlob),
                    let matched = functions.match(text, pattern, Int(op), Int(options))
                else { return -1 }
                return matched ? 1 : 0
            },
            { bytes, count, isBlob, options, length in
                guard let functions = TextFunctionsInstaller.installed,
                    let text = TextFunctionsInstaller.string(bytes, count, isBlob)
                else { return nil }
                let folded = Array(functions.fold(text, Int(options)).utf8)
                guard let out = malloc(folded.count + 1)?.assumingMemoryBound(to: UInt8.self) else { return nil }
                for (i, byte) in folded.enumerated() { out[i] = byte }
                out[folded.count] = 0
                length?.pointee = Int32(folded.count)
                return UnsafeMutableRawPointer(out).assumingMemoryBound(to: CChar.self)
            })
    }

    /// A value's bytes as GRDB reads them into a String: text as UTF-8 (repaired), a blob
    /// only when it is UTF-8.
    private static func string(_ bytes: UnsafePointer<UInt8>?, _ count: Int32, _ isBlob: Int32) -> String? {
        let buffer = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(count))
        if isBlob != 0 { return String(data: Data(buffer), encoding: .utf8) }
        return String(decoding: buffer, as: UTF8.self)
    }
}

import CLua
import CQuarryShim
import Foundation

extension QuarryRuntime {
    /// The global whose nil a call got as argument `index` (`fetch(citty)` → `citty`), read
    /// from the line the call was written on: Lua keeps no name with a value, so the
    /// caller's line is found (past Quarry's prelude) in the chunk loaded under its name,
    /// or in its script file, and the argument written there is taken when it is a plain
    /// name, no local of the caller's, whose global is nil now. Nil whenever that is not
    /// certain (an expression, a local, a line that holds no such call).
    func nilGlobalArgument(_ call: LuaCall, _ index: Int32) -> String? {
        let state = call.state
        guard let (line, level) = callerLine(state) else { return nil }
        for argument in Self.callArguments(of: call.functionName, in: line) {
            guard argument.count >= index else { continue }
            let written = argument[Int(index) - 1]
            guard Self.isPlainName(written), !hasLocal(named: written, at: level, state) else { continue }
            quarry_pushglobaltable(state)
            let kind = LuaTable.field(state, -1, written)
            quarry_pop(state, 2)
            if kind == LUA_TNIL { return written }
        }
        return nil
    }

    /// The text of the line the innermost Lua function outside the prelude is running,
    /// and that function's stack level.
    private func callerLine(_ state: OpaquePointer) -> (String, Int32)? {
        var record = lua_Debug()
        var level: Int32 = 1
        while lua_getstack(state, level, &record) != 0 {
            guard lua_getinfo(state, "Sl", &record) != 0, let source = record.source.map({ String(cString: $0) }) else { return nil }
            if source == "=(quarry prelude)" || record.currentline <= 0 {
                level += 1
                continue
            }
            let text: String?
            if source.hasPrefix("@") {
                text = try? String(contentsOfFile: String(source.dropFirst()), encoding: .utf8)
            } else {
                text = loadedChunks[source]
            }
            guard let text else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let at = Int(record.currentline) - 1
            return lines.indices.contains(at) ? (String(lines[at]), level) : nil
        }
        return nil
    }

    /// Whether the function at `level` has a local (active there) named `name`: then the
    /// nil is the local's, and no global is to blame.
    private func hasLocal(named name: String, at level: Int32, _ state: OpaquePointer) -> Bool {
        var record = lua_Debug()
        guard lua_getstack(state, level, &record) != 0 else { return false }
        var n: Int32 = 1
        while let local = lua_getlocal(state, &record, n) {
            quarry_pop(state, 1)
            if String(cString: local) == name { return true }
            n += 1
        }
        return false
    }

    /// The arguments, as written, of each call of `function` in `line` whose parentheses
    /// close on it (`fetch(citty, "x > 1")` → `["citty", "\"x > 1\""]`), split at the commas
    /// outside brackets and strings.
    static func callArguments(of function: String, in line: String) -> [[String]] {
        let characters = Array(line)
        let name = Array(function)
        var calls: [[String]] = []
        var i = 0
        while i + name.count <= characters.count {
            defer { i += 1 }
            guard Array(characters[i..<(i + name.count)]) == name else { continue }
            if i > 0, characters[i - 1].isLetter || characters[i - 1].isNumber || characters[i - 1] == "_" { continue }
            var j = i + name.count
            while j < characters.count, characters[j] == " " { j += 1 }
            guard j < characters.count, characters[j] == "(" else { continue }
            var depth = 0
            var quote: Character?
            var arguments: [String] = []
            var current = ""
            var closed = false
            for c in characters[(j + 1)...] {
                if let q = quote {
                    if c == q { quote = nil }
                    current.append(c)
                    continue
                }
                if c == "\"" || c == "'" {
                    quote = c
                } else if "([{".contains(c) {
                    depth += 1
                } else if ")]}".contains(c) {
                    if depth == 0 {
                        closed = true
                        break
                    }
                    depth -= 1
                } else if c == ",", depth == 0 {
                    arguments.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                    continue
                }
                current.append(c)
            }
            if closed {
                arguments.append(current.trimmingCharacters(in: .whitespaces))
                calls.append(arguments)
            }
        }
        return calls
    }

    /// A Lua name (not a keyword): what a global is written as.
    static func isPlainName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_", text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return false }
        return !["nil", "true", "false", "and", "or", "not", "function", "end", "local", "return"].contains(text)
    }
}

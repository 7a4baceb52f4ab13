import Foundation
import QuarryLua

/// Runs `-e` chunks and scripts, reporting a failure as one line on stderr
/// (`script.lua:LINE: message`), with the traceback after it when asked for.
struct BatchRunner {
    let runtime: QuarryRuntime
    let showTraceback: Bool

    func runChunk(_ code: String) -> Bool {
        switch runtime.load(code, chunkName: "=(command line)") {
        case .loaded: return report(runtime.runGuarded())
        case .incomplete(let message), .failed(let message):
            reportError(message)
            return false
        }
    }

    /// Runs the script at `path` ("-": standard input) with `arg` and `...` set.
    func runScript(_ path: String, arguments: [String]) -> Bool {
        let loaded: LoadResult
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var code = String(decoding: data, as: UTF8.self)
            if code.hasPrefix("#") { code = "--" + code }  // a shebang line, as lua skips it
            loaded = runtime.load(code, chunkName: "=stdin")
        } else {
            guard FileManager.default.isReadableFile(atPath: path) else {
                reportError("cannot open \(path): " + (FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))
                return false
            }
            loaded = runtime.loadFile(path)
        }
        switch loaded {
        case .loaded: break
        case .incomplete(let message), .failed(let message):
            reportError(message)
            return false
        }
        runtime.setScriptArguments(script: path, arguments: arguments)
        return report(runtime.runGuarded(arguments: arguments))
    }

    private func report(_ failure: LuaFailure?) -> Bool {
        guard let failure else { return true }
        reportError(failure.message)
        if showTraceback, let traceback = failure.traceback { writeError(traceback) }
        return false
    }
}

import CLua
import CQuarrySignals
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryStore

/// `watch(r)`: results as a table that redraws in place whenever they change, the way a
/// SwiftUI List over @FetchRequest does, until Ctrl-C (or --timeout). Changes are noticed
/// as the REPL notices them at its prompt: another process's commit moves SQLite's
/// data_version, `refreshFromStore` tells the observers, and the context's generation
/// moves; only then are the results drawn again.
extension QuarryRuntime {
    func installWatch() {
        defineGlobal("watch") { [unowned self] call in
            let handle = try self.results(call, 1)
            try self.watch(handle.results)
            return 0
        }
    }

    private func watch(_ results: FetchResults) throws {
        var lines = 0
        var shown = ""
        func draw() throws {
            let text = try ResultsTable(results, format: tableFormat).render()
            guard text != shown else { return }
            // Back to the table's first line and clear below it, then the new table.
            let back = lines > 0 ? "\u{1B}[\(lines)A\r\u{1B}[J" : ""
            FileHandle.standardOutput.write(Data((back + text + "\n").utf8))
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            shown = text
        }
        try draw()
        // Not a terminal (a script, a pipe): the table once, as print would.
        guard isatty(STDOUT_FILENO) != 0 else { return }
        var generation = context.generation
        let keys = WatchKeys()
        defer { keys.restore() }
        while quarry_should_stop() == 0 {
            // Keys change the request as a click on a SwiftUI Table's column header does:
            // 1-9 sort by that attribute (again: the other way), r reverses, q ends.
            if let key = keys.next(waiting: 100) {
                if key == UInt8(ascii: "q") { break }
                if let sort = Self.sort(after: key, results.request.sortDescriptors, attributes: results.entity.attributeNames) {
                    try results.reconfigure { $0.sortDescriptors = sort }
                    deliver()
                    try draw()
                }
                continue
            }
            noticeOutsideChanges()
            guard context.generation != generation else { continue }
            generation = context.generation
            try draw()
        }
        // Ctrl-C ends the watch as it ends any statement; the prompt comes on a line of its
        // own, below the terminal's "^C".
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// The sort a key asks for, or nil for a key that means nothing here.
    static func sort(after key: UInt8, _ current: [QuarryFetch.SortDescriptor], attributes: [String]) -> [QuarryFetch.SortDescriptor]? {
        if key == UInt8(ascii: "r") {
            guard var first = current.first else { return nil }
            first.ascending.toggle()
            return [first] + current.dropFirst()
        }
        guard key >= UInt8(ascii: "1"), key <= UInt8(ascii: "9") else { return nil }
        let index = Int(key - UInt8(ascii: "1"))
        guard index < attributes.count else { return nil }
        let name = attributes[index]
        let ascending = current.first?.key == name ? !(current.first?.ascending ?? false) : true
        return [QuarryFetch.SortDescriptor(key: name, ascending: ascending)]
    }
}

/// The terminal's keys, one at a time, without echo or waiting for Enter, while a watch
/// runs; the terminal is put back as it was.
private final class WatchKeys {
    private var saved = termios()
    private let active: Bool

    init() {
        active = isatty(STDIN_FILENO) != 0 && tcgetattr(STDIN_FILENO, &saved) == 0
        guard active else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// A key pressed within `milliseconds`, else nil.
    func next(waiting milliseconds: Int32) -> UInt8? {
        guard active else { usleep(useconds_t(milliseconds) * 1000); return nil }
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}

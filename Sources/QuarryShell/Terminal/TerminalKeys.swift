import Foundation
import QuarryLua

/// The terminal's keys, one at a time, without echo or waiting for Enter, while a watch
/// runs; the terminal is put back as it was.
final class TerminalKeys {
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
    func next(waiting milliseconds: Int32) -> ConsoleKey? {
        guard active else {
            usleep(useconds_t(milliseconds) * 1000)
            return nil
        }
        guard let byte = readByte(waiting: milliseconds) else { return nil }
        guard byte == 0x1B else { return .character(byte) }
        // An escape sequence: ESC [ parameters final, or ESC O final (Home and End on
        // some terminals); its bytes arrive together.
        var sequence: [UInt8] = []
        while let next = readByte(waiting: 10) {
            sequence.append(next)
            if sequence.count > 1, (0x40...0x7E).contains(next) { break }
            if sequence.count > 16 { break }
        }
        switch sequence {
        case Array("[5~".utf8): return .pageUp
        case Array("[6~".utf8): return .pageDown
        case Array("[H".utf8), Array("OH".utf8), Array("[1~".utf8), Array("[7~".utf8): return .home
        case Array("[F".utf8), Array("OF".utf8), Array("[4~".utf8), Array("[8~".utf8): return .end
        default: return .other
        }
    }

    private func readByte(waiting milliseconds: Int32) -> UInt8? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}

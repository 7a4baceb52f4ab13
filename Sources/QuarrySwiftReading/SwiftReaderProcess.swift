import CQuarrySignals
import Foundation
import QuarryModel
import QuarryPredicates

/// Swift read by the `quarry-swift-reader` process: started at the first Swift read and
/// kept for the session, so `quarry` itself holds no swift-syntax (41% of its release
/// build's CPU, compiled whole-module on one core, with the rest of the build waiting).
/// The process talks over a socket (`SwiftReaderWire`), in its own process group, so
/// Ctrl-C at the terminal reaches Quarry only: Quarry then stops the process, and the
/// next read starts another. A process not found, or ended, fails the read in one line.
public final class SwiftReaderProcess: SwiftInputReading {
    /// The program's name, beside `quarry` or in `../libexec/quarry/` from it.
    public static let programName = "quarry-swift-reader"

    /// Where the program is looked for, asked at the first Swift read: a run that reads no
    /// Swift (nearly all) never resolves /proc/self/exe nor looks at a file (0.1M
    /// instructions of every start).
    private let search: () -> (candidates: [String], searched: String)
    private lazy var located: (executable: String?, searched: String) = {
        let (candidates, searched) = search()
        return (candidates.first { access($0, X_OK) == 0 }, searched)
    }()
    private var executable: String? { located.executable }
    private var searched: String { located.searched }
    private var running: (pid: pid_t, socket: Int32, frames: SwiftReaderWire.FrameReader)?
    /// How many processes this reader has started (one a session, unless one ended).
    public private(set) var processesStarted = 0

    /// The reader for the program running now: `quarry-swift-reader` beside its executable
    /// (/proc/self/exe, links resolved), else in `../libexec/quarry/` from there (an install).
    public init() {
        search = {
            let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "quarry"
            let folder = (exe as NSString).deletingLastPathComponent
            let candidates = [folder + "/" + Self.programName, (folder as NSString).deletingLastPathComponent + "/libexec/quarry/" + Self.programName]
            return (candidates, "beside \(exe) or in \((folder as NSString).deletingLastPathComponent)/libexec/quarry")
        }
    }

    /// A reader running the first of `candidates` that is executable; `searched` says
    /// where they were, for the line when none is.
    public init(candidates: [String], searched: String) {
        search = { (candidates, searched) }
    }

    deinit { stop() }

    /// The running process's id, nil when none runs (for the tests).
    public var processID: pid_t? { running?.pid }

    public func readPredicate(_ source: String, captures: [String: PredicateArgument]) throws -> SwiftPredicateReader.Read {
        switch try exchange(.predicate(source: source, captures: captures)) {
        case .predicate(let read): return read
        case .refused(let error): throw error
        case .sortKeys: throw SwiftReaderFailure("\(Self.programName) answered a #Predicate with sort keys")
        }
    }

    public func readSortKeys(_ source: String) throws -> [SwiftSortReader.Key] {
        switch try exchange(.sortKeys(source: source)) {
        case .sortKeys(let keys): return keys
        case .refused(let error): throw error
        case .predicate: throw SwiftReaderFailure("\(Self.programName) answered sort keys with a #Predicate")
        }
    }

    /// Sends `request` and waits for its reply, watching for Ctrl-C and `--timeout`.
    private func exchange(_ request: SwiftReaderWire.Request) throws -> SwiftReaderWire.Reply {
        let numbering = ObjectNumbering(standsIn: false)
        let frame = try SwiftReaderWire.frame(request, numbering: numbering)
        var process = try running ?? start()
        let socket = process.socket
        guard SwiftReaderWire.send(frame, to: socket) else { throw ended() }
        let body: [UInt8]?
        do {
            body = try process.frames.next {
                // Wait a tenth of a second at a time, so that a stop request is seen.
                var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                while poll(&ready, 1, 100) == 0 {
                    if quarry_should_stop() != 0 {
                        stop()
                        let interruption = Interruption.now(stopping: .work)
                        throw QuarryPredicates.PredicateError(.interrupted(interruption), interruption.said, column: nil)
                    }
                }
            }
        } catch let error as QuarryPredicates.PredicateError {
            throw error
        } catch {
            throw ended()
        }
        guard let body else { throw ended() }
        running?.frames = process.frames
        do {
            return try SwiftReaderWire.value(SwiftReaderWire.Reply.self, from: body, numbering: numbering)
        } catch {
            stop()
            throw SwiftReaderFailure("\(Self.programName)'s reply does not read (\(error))")
        }
    }

    /// Starts the process, its standard input and output one end of a socket pair.
    private func start() throws -> (pid: pid_t, socket: Int32, frames: SwiftReaderWire.FrameReader) {
        guard let executable else { throw SwiftReaderFailure("\(Self.programName) not found \(searched)") }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw SwiftReaderFailure("no socket for \(Self.programName): \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // dup2 clears close-on-exec on the copies: the child keeps fds 0 and 1 only.
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        // Its own process group: Ctrl-C at the terminal is Quarry's to handle.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let arguments = [executable]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, &attributes, &argv, &environment)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw SwiftReaderFailure("\(executable) did not start: \(String(cString: strerror(status)))")
        }
        processesStarted += 1
        let process = (pid: pid, socket: ends[0], frames: SwiftReaderWire.FrameReader(descriptor: ends[0]))
        running = process
        return process
    }

    /// The failure of a read whose process ended, with how it ended; the next read starts another.
    private func ended() -> SwiftReaderFailure {
        guard let process = running else { return SwiftReaderFailure("\(Self.programName) ended") }
        close(process.socket)
        running = nil
        var status: Int32 = 0
        let how: String
        if waitpid(process.pid, &status, 0) == process.pid {
            let signal = status & 0x7f
            how = signal != 0 ? "killed by signal \(signal)" : "exit status \((status >> 8) & 0xff)"
        } else {
            how = "no status"
        }
        return SwiftReaderFailure("\(executable ?? Self.programName) ended (\(how))")
    }

    /// Ends the process (its reply, if any, is no longer wanted).
    private func stop() {
        guard let process = running else { return }
        running = nil
        close(process.socket)
        kill(process.pid, SIGKILL)
        var status: Int32 = 0
        waitpid(process.pid, &status, 0)
    }
}

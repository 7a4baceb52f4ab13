/// How an engine's session hears what other sessions commit: a descriptor to wait on
/// beside the terminal, and the step before a read a person asks for (`refresh()`). The
/// defaults are a file's: commits are found by asking (SQLite's `data_version`, read in
/// step with every commit), and its session cannot be lost.
package protocol OutsideCommits: AnyObject {
    /// A descriptor that turns readable when another session commits; nil when commits
    /// are found by asking.
    var changeDescriptor: Int32? { get }
    /// Before reading what others committed when a person asks: the session made anew
    /// if it was lost (a server restarted), and whatever others committed before now
    /// reached it (a server's announcements travel on their own).
    func catchUp() throws
    /// Whether the session was found gone while nothing was asked of it (a server that
    /// closed the connection, noticed reading its announcements): `catchUp` makes it again.
    var sessionIsLost: Bool { get }
    /// Says a lost session's one line (`connection lost, reconnecting`) when the engine
    /// finds it lost and makes it again, wherever that is (a statement, `refresh()`, the
    /// REPL's wait); set by whoever shows notes. A file's session is never lost.
    var sayLoss: ((String) -> Void)? { get set }
}

extension OutsideCommits {
    package var changeDescriptor: Int32? { nil }
    package func catchUp() throws {}
    package var sessionIsLost: Bool { false }
    package var sayLoss: ((String) -> Void)? {
        get { nil }
        set {}
    }
}

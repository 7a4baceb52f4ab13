/// `os.exit()` refused at a prompt while changes are pending: what would be lost, raised
/// as an error so that the chunk stops there, and shown as the note `.quit` and Ctrl-D
/// give (`note: 1 pending change (1 inserted) would be lost: ...`), not as an error.
public struct ExitNote: Error, CustomStringConvertible {
    public var note: String
    public var description: String { note }

    public init(note: String) {
        self.note = note
    }
}

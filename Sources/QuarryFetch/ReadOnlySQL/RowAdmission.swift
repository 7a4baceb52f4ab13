import QuarryModel
import QuarryStore

/// Whether a result of so many rows, holding so many bytes of text and blobs, may be
/// kept: asked as rows are read (every `stride` rows, and whenever `byteStride` more bytes
/// arrived, before the row that brings them is copied), and once at the end; it throws to
/// refuse.
public struct RowAdmission {
    public static let stride = 4096
    /// Bytes of text and blobs read between two asks: rows of big values are asked about
    /// every few rows, a single huge value before it is copied.
    public static let byteStride = 1 << 20
    let check: (_ rows: Int, _ columns: Int, _ bytes: Int) throws -> Void
    public init(_ check: @escaping (_ rows: Int, _ columns: Int, _ bytes: Int) throws -> Void) { self.check = check }
}

/// A result's rows and value bytes, counted as they are read, and the asks of its
/// admission (see `RowAdmission`).
struct RowTally {
    let admission: RowAdmission?
    let columns: Int
    private(set) var rows = 0
    private(set) var bytes = 0
    private var bytesAsked = 0

    init(_ admission: RowAdmission?, columns: Int) {
        self.admission = admission
        self.columns = columns
    }

    /// Counts one more row, whose text and blobs hold `rowBytes`, before it is copied.
    mutating func add(_ rowBytes: Int) throws {
        rows += 1
        bytes += rowBytes
        guard let admission, rows % RowAdmission.stride == 0 || bytes - bytesAsked >= RowAdmission.byteStride else { return }
        bytesAsked = bytes
        try admission.check(rows, columns, bytes)
    }

    func finish() throws { try admission?.check(rows, columns, bytes) }
}

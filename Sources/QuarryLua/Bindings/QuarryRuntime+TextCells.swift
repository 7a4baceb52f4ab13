import QuarryFetch
import QuarryModel

extension QuarryRuntime {
    /// Says, in one note, the text cells a count took in through a comparison with a
    /// number (`GNPOld > 0` holds for a SQLite file's `''` there, which SQLite orders after
    /// every number), as summarize and histogram count them apart. Nothing when there were
    /// none; each count's once.
    func noteTextCells(_ results: FetchResults) {
        let counted = results.takeTextCellsCounted()
        guard !counted.isEmpty else { return }
        let entity = results.request.entityName
        let cells = counted.map { "\($0.count) in \(entity).\($0.key)" }.joined(separator: ", ")
        let keys = counted.map(\.key).joined(separator: ", ")
        writeNotice(
            "rows counted whose cell holds text, not a number: \(cells) (SQLite orders text after every number, so the comparison of "
                + "\(keys) with a number holds for them; summarize() shows the text cells)")
    }
}

import QuarryModel
import QuarryPredicates
import QuarryStore

extension SummaryRequest {
    /// The exact way: one aggregate scan for counts, extremes and means, one for the
    /// deviations from those means, and a seek per quantile (`ORDER BY ... LIMIT 2 OFFSET`,
    /// linear between the two neighbours, as pandas and numpy's default do).
    /// A number or date column's statistics read its numbers only (`numbers`): text in a
    /// SQLite file's INTEGER column ('', 'n/a') is counted, as `text`, and left out of
    /// min, max, the mean, the spread and the quartiles, as the one scan leaves it out.
    func exactly(_ compiled: CompiledRequest, in context: ObjectContext, progress: ((SummaryStep) -> Void)?) throws -> [AttributeSummary] {
        let entity = compiled.entity
        let attributes = entity.attributes
        guard !attributes.isEmpty else { return [] }
        let whereSQL = compiled.whereClause.map { " WHERE (" + $0.sql + ")" } ?? ""
        let whereArguments = compiled.whereClause?.arguments ?? []
        let columns = attributes.map { compiled.dialect.statistic(compiled.storage.nilTestable(compiled.table, $0), $0.type) }
        let numbers = attributes.indices.map { i in
            attributes[i].type.isMeasured ? compiled.dialect.converted(columns[i], .numbersOnly) : columns[i]
        }

        // Booleans and blobs have a min and max of their storage; text compares as text.
        // Six aggregates an attribute: a wide table is scanned in groups, so no statement
        // passes SQLite's limit of 2,000 result columns.
        var summaries: [AttributeSummary] = []
        var means: [Double?] = []
        // Each measured column's numbers (its count less its text).
        var numberCounts: [Int] = []
        for group in stride(from: 0, to: attributes.count, by: Self.summaryGroup) {
            let indexes = group..<min(attributes.count, group + Self.summaryGroup)
            var selects: [String] = ["count(*)"]
            for i in indexes {
                let column = columns[i]
                let measured = attributes[i].type.isMeasured
                // An enum's least and greatest by its labels' order, read as its text again.
                let enumeration = attributes[i].enumeration
                let (least, greatest) =
                    enumeration.map { ($0.extreme("min", of: column), $0.extreme("max", of: column)) }
                    ?? ("min(\(numbers[i]))", "max(\(numbers[i]))")
                selects += [
                    "count(\(column))", "count(DISTINCT \(column))", least, greatest,
                    measured ? "avg(\(numbers[i]))" : "NULL", measured ? "count(\(numbers[i]))" : "NULL"
                ]
            }
            let row = try context.connection.row(
                "SELECT \(selects.joined(separator: ", ")) FROM \(compiled.source)\(whereSQL)",
                arguments: whereArguments)
            guard let row else { return [] }
            // Counts are integers; avg is a real number or NULL.
            let total = Int(row[0].storedInteger ?? 0)
            for (j, i) in indexes.enumerated() {
                let attribute = attributes[i]
                let at = 1 + j * 6
                let count = Int(row[at].storedInteger ?? 0)
                let mean = row[at + 4].storedReal
                let measured = attribute.type.isMeasured
                means.append(mean)
                numberCounts.append(Int(row[at + 5].storedInteger ?? 0))
                summaries.append(
                    AttributeSummary(
                        column: attribute.name, type: attribute.type, count: count, nulls: total - count,
                        text: measured ? count - numberCounts[i] : nil, distinct: Int(row[at + 1].storedInteger ?? 0),
                        min: attribute.type.decode(row[at + 2]),
                        max: attribute.type.decode(row[at + 3]),
                        mean: measured ? Self.measured(mean, attribute.type) : nil))
            }
        }

        // The deviations from the means just read, so the variance is not the difference
        // of two large sums (which loses every digit on dates in seconds).
        // Every measured column with values has quartiles, even one whose mean is no number
        // (both infinities), as the one scan gives them.
        let measuredIndexes = attributes.indices.filter { attributes[$0].type.isMeasured && numberCounts[$0] > 0 }
        guard !measuredIndexes.isEmpty else { return summaries }
        var squaredDeviations: [Double?] = []
        for group in stride(from: 0, to: measuredIndexes.count, by: Self.summaryGroup) {
            let indexes = measuredIndexes[group..<min(measuredIndexes.count, group + Self.summaryGroup)]
            var deviations: [String] = []
            var deviationArguments: [Value] = []
            for i in indexes {
                let mean = compiled.dialect.real("?")
                deviations.append("sum((\(numbers[i]) - \(mean)) * (\(numbers[i]) - \(mean)))")
                deviationArguments += [.real(means[i] ?? 0), .real(means[i] ?? 0)]
            }
            let row = try context.connection.row(
                "SELECT \(deviations.joined(separator: ", ")) FROM \(compiled.source)\(whereSQL)",
                arguments: deviationArguments + whereArguments)
            for j in indexes.indices { squaredDeviations.append(row?[j - indexes.startIndex].storedReal) }
        }
        for (j, i) in measuredIndexes.enumerated() {
            let count = numberCounts[i]
            let squares = squaredDeviations[j]
            // The spread of values one of which is infinite is no number: nil, as the one
            // scan gives it.
            if count > 1, let squares, let mean = means[i], mean.isFinite {
                let deviation = (squares / Double(count - 1)).squareRoot()
                if deviation.isFinite { summaries[i].stddev = .real(deviation) }
            }
            let quantiles = try [0.25, 0.5, 0.75].map {
                try Self.quantile(
                    $0, of: columns[i], numbers: numbers[i], count: count, in: context, from: compiled.source, whereSQL: whereSQL,
                    arguments: whereArguments)
            }
            summaries[i].q25 = Self.measured(quantiles[0], attributes[i].type)
            summaries[i].q50 = Self.measured(quantiles[1], attributes[i].type)
            summaries[i].q75 = Self.measured(quantiles[2], attributes[i].type)
            progress?(SummaryStep(done: j + 1, total: measuredIndexes.count, unit: "columns sorted"))
        }
        return summaries
    }

    /// The `q` quantile of the `count` numbers of `column` (`numbers`: the column read as
    /// numbers only): linear between the values at ranks floor and ceil of q·(count − 1),
    /// read with one seek, in the column's own order, which an index on it may serve.
    private static func quantile(
        _ q: Double, of column: String, numbers: String, count: Int, in context: ObjectContext, from: String, whereSQL: String,
        arguments: [Value]
    ) throws -> Double? {
        guard count > 0 else { return nil }
        let position = q * Double(count - 1)
        let lower = Int(position.rounded(.down))
        let notNull = (whereSQL.isEmpty ? " WHERE " : whereSQL + " AND ") + "\(numbers) IS NOT NULL"
        // As SQLite converts each value to a real number (the column holds no NULL).
        var values: [Double] = []
        try context.connection.forEachRow(
            "SELECT \(column) FROM \(from)\(notNull) ORDER BY \(column) LIMIT 2 OFFSET ?",
            arguments: arguments + [.integer(Int64(lower))]
        ) { row in values.append(row.double(at: 0)) }
        guard let low = values.first else { return nil }
        let high = values.count > 1 ? values[1] : low
        // A rank that falls on a value is that value (an infinite neighbour would give NaN).
        let fraction = position - Double(lower)
        if fraction == 0 || high == low { return low }
        return low + (high - low) * fraction
    }
}

import QuarryEngine

extension PostgreSQLDialect {
    /// `StandardOrder.numericRuns` in PostgreSQL's SQL, which runs no Quarry function: the
    /// text cut into runs of digits and of anything else, each digit run written as its
    /// length's code and its digits without leading zeros, and joined again in order.
    /// Nil stays nil; text with no run is "".
    func standardOrderKey(_ sql: String) -> String {
        let run = "\"sr\".\"m\"[1]"
        let digits = "ltrim(\(run), '0')"
        let length = "length(\(digits))"
        let code = "(CASE WHEN \(length) = 0 THEN '0' ELSE repeat('9', (\(length) - 1) / 8) || ((\(length) - 1) % 8 + 1)::text END)"
        let runs =
            "(SELECT string_agg(CASE WHEN \(run) ~ '^[0-9]' THEN \(code) || \(digits) ELSE \(run) END, '' ORDER BY \"sr\".\"n\")"
            + " FROM regexp_matches(\"sk\".\"t\", '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS \"sr\"(\"m\", \"n\"))"
        return "(SELECT CASE WHEN \"sk\".\"t\" IS NULL THEN NULL ELSE coalesce(\(runs), '') END FROM (SELECT (\(sql))::text AS \"t\") AS \"sk\")"
    }
}

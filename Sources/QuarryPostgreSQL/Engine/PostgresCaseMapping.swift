import QuarryStore

/// `lowercase:` and `uppercase:` as PostgreSQL's SQL, mapping as Swift's `lowercased()`
/// and `uppercased()` do (each scalar by its full mapping, with no context): ICU's
/// `lower`/`upper` (`und-x-icu`), which agree but for a final sigma (ICU lowers Σ to ς at
/// a word's end, Swift always to σ: Σ is said σ before ICU sees it), then a `translate`
/// and `replace`s for letters of Unicode 11 and later, which an older ICU may not map.
/// `PostgresFoldTests` maps every scalar on a real server and compares.
package enum PostgresCaseMapping {
    package static func sql(_ x: String, lower: Bool) -> String {
        let tables = lower ? Tables.lower : Tables.upper
        var sql =
            lower
            ? "lower(replace(\(x), 'Σ', 'σ') COLLATE \"und-x-icu\") COLLATE \"C\""
            : "upper(\(x) COLLATE \"und-x-icu\") COLLATE \"C\""
        sql = "translate(\(sql), \(quoteLiteral(tables.oneFrom)), \(quoteLiteral(tables.oneTo)))"
        for (from, to) in tables.many { sql = "replace(\(sql), \(quoteLiteral(from)), \(quoteLiteral(to)))" }
        return "(\(sql))"
    }

    package struct Tables: Sendable {
        let oneFrom: String, oneTo: String
        package let many: [(String, String)]

        package static let lower = Tables(lower: true)
        package static let upper = Tables(lower: false)

        /// The scalars whose mapping is of Unicode 11 and later.
        package init(lower: Bool) {
            var oneFrom = String.UnicodeScalarView()
            var oneTo = String.UnicodeScalarView()
            var many: [(String, String)] = []
            for v in UInt32(0x80)...0x10FFFF {
                guard let u = Unicode.Scalar(v) else { continue }
                let mapped = lower ? u.properties.lowercaseMapping : u.properties.uppercaseMapping
                // A letter or its mapping of Unicode 11 and later (ƛ gained Ƛ in 16).
                guard mapped != String(u), PostgresFold.isRecent(u) || mapped.unicodeScalars.contains(where: PostgresFold.isRecent) else { continue }
                let scalars = Array(mapped.unicodeScalars)
                if scalars.count == 1 {
                    oneFrom.append(u)
                    oneTo.append(scalars[0])
                } else {
                    many.append((String(u), mapped))
                }
            }
            self.oneFrom = String(oneFrom)
            self.oneTo = String(oneTo)
            self.many = many
        }
    }
}

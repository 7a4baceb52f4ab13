import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

/// LIKE's wildcards are Apple's `*` and `?`; a pattern written with SQL's `%` or `_` and
/// neither of those gets one line naming the forms that mean what SQL's would: with no
/// options written, a pattern with letters is named with [c], as SQL's LIKE ignores case.
@Suite struct SQLWildcardHintTests {
    private func hints(_ format: String, _ arguments: [Value] = []) throws -> [String] {
        try PredicateParser.parse(format, arguments: PredicateArguments(arguments)).sqlWildcardHints.map(\.message)
    }

    @Test(arguments: [
        ("note LIKE '%gust%'", "LIKE[c] '*gust*' or CONTAINS[c] 'gust' ([c]: SQL's LIKE ignores case)"),
        ("note LIKE 'gust%'", "LIKE[c] 'gust*' or BEGINSWITH[c] 'gust' ([c]: SQL's LIKE ignores case)"),
        ("note LIKE '%gust'", "LIKE[c] '*gust' or ENDSWITH[c] 'gust' ([c]: SQL's LIKE ignores case)"),
        ("note LIKE[c] '%%Gust%'", "LIKE[c] '**Gust*' or CONTAINS[c] 'Gust'"),
        ("note LIKE[d] 'gust%'", "LIKE[d] 'gust*' or BEGINSWITH[d] 'gust'"),
        ("code LIKE 'A_1'", "LIKE[c] 'A?1' ([c]: SQL's LIKE ignores case)"),
        ("code LIKE '10%'", "LIKE '10*' or BEGINSWITH '10'")
    ])
    func aPatternWithSQLWildcardsNamesTheFormsThatMeanThem(_ format: String, _ forms: String) throws {
        let said = try hints(format)
        #expect(said.count == 1, "\(said)")
        let line = try #require(said.first)
        #expect(line.hasSuffix(": " + forms), "\(line)")
        #expect(line.contains("here (its wildcards are * and ?): "), "\(line)")
    }

    @Test func whichWildcardTheLineNames() throws {
        #expect(try hints("a LIKE '%x'").first?.contains("takes '%' as itself") == true)
        #expect(try hints("a LIKE 'x_'").first?.contains("takes '_' as itself") == true)
        #expect(try hints("a LIKE '%x_'").first?.contains("takes '%' and '_' as themselves") == true)
    }

    /// A bound argument is the pattern as much as a literal is; a quote in it is written
    /// so the suggestion reads back.
    @Test func aBoundPatternIsReadToo() throws {
        #expect(try hints("note LIKE %@", [.text("%gust%")]).first?.hasPrefix("LIKE '%gust%' takes '%' as itself") == true)
        let quoted = try #require(try hints("note LIKE %@", [.text("%o'clock%")]).first)
        #expect(quoted.hasSuffix(#"LIKE[c] "*o'clock*" or CONTAINS[c] "o'clock" ([c]: SQL's LIKE ignores case)"#), "\(quoted)")
    }

    /// Apple's wildcards in the pattern mean it was written for this grammar: a `%` there
    /// is meant. Other operators take no wildcards at all.
    @Test func noLineWhereThePatternIsApplesOrTheOperatorTakesNone() throws {
        #expect(try hints("rate LIKE '*100%*'").isEmpty)
        #expect(try hints("code LIKE 'A?_'").isEmpty)
        #expect(try hints("note LIKE '*gust*'").isEmpty)
        #expect(try hints("note CONTAINS '%'").isEmpty)
        #expect(try hints("note == '%gust%'").isEmpty)
        #expect(try hints("note MATCHES '.*%.*'").isEmpty)
    }

    /// Inside NOT, OR and a SUBQUERY, once per pattern.
    @Test func everyLikeOnceWhereverItStands() throws {
        let said = try hints("NOT (a LIKE 'x%' OR b LIKE 'x%') AND SUBQUERY(items, $i, $i.name LIKE '%y').@count > 0")
        #expect(said.count == 2, "\(said)")
        #expect(said.last?.hasSuffix("ENDSWITH[c] 'y' ([c]: SQL's LIKE ignores case)") == true, "\(said)")
    }
}

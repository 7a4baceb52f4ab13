import QuarryModel
import QuarryPredicates
import QuarryStore
import Testing

@Suite struct OperatorParsingTests {
    @Test(arguments: [
        ("==", "=="), ("=", "=="), ("!=", "!="), ("<>", "!="), ("<", "<"), ("<=", "<="),
        ("=<", "<="), (">", ">"), (">=", ">="), ("=>", ">=")
    ])
    func comparisonOperators(_ written: String, _ normal: String) throws {
        #expect(try parsedShape("n \(written) 1") == cmp("n", normal, int1))
        #expect(try parsedShape("n\(written)1") == cmp("n", normal, int1))
    }

    /// A string that starts with a combining mark: Swift joins the mark to the opening
    /// quote as one character, which the lexer once took for no quote at all.
    @Test func aStringMayStartWithACombiningMark() throws {
        #expect(try parsedShape("s ENDSWITH \"\u{301}\"") == .comparison(.key("s"), "ENDSWITH", .value(.text("\u{301}")), 0))
        #expect(try parsedShape("s == '\u{301}x'") == cmp("s", "==", .text("\u{301}x")))
        // Formatting writes it escaped, and that reads back the same.
        let parsed = try parse("s ENDSWITH \"\u{301}\"")
        #expect(try parsedShape(parsed.description) == parsedShape("s ENDSWITH \"\u{301}\""), "\(parsed.description)")
    }

    @Test func constantOnTheLeft() throws {
        #expect(try parsedShape("1 < n") == .comparison(.value(int1), "<", .key("n"), 0))
    }

    @Test func andOrNotInEverySpelling() throws {
        let ab = Shape.and([cmp("a", "==", int1), cmp("b", "==", int2)])
        for f in ["a == 1 AND b == 2", "a == 1 && b == 2", "a == 1 and b == 2", "a == 1 AnD b == 2", "a==1&&b==2"] {
            #expect(try parsedShape(f) == ab, "\(f)")
        }
        let ob = Shape.or([cmp("a", "==", int1), cmp("b", "==", int2)])
        for f in ["a == 1 OR b == 2", "a == 1 || b == 2", "a == 1 or b == 2", "a == 1 oR b == 2"] {
            #expect(try parsedShape(f) == ob, "\(f)")
        }
        let na = Shape.not(cmp("a", "==", int1))
        for f in ["NOT a == 1", "not a == 1", "Not a == 1", "!a == 1", "! a == 1", "NOT (a == 1)", "!(a == 1)"] {
            #expect(try parsedShape(f) == na, "\(f)")
        }
        #expect(try parsedShape("a != 1") == cmp("a", "!=", int1))
        #expect(try parsedShape("NOT NOT a == 1") == .not(na))
        #expect(try parsedShape("a == 1 AND b == 2 AND c == 3") == .and([cmp("a", "==", int1), cmp("b", "==", int2), cmp("c", "==", int3)]))
    }

    @Test func precedenceOrBelowAndBelowNot() throws {
        let a = cmp("a", "==", int1)
        let b = cmp("b", "==", int2)
        let c = cmp("c", "==", int3)
        #expect(try parsedShape("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try parsedShape("a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try parsedShape("a == 1 || b == 2 && c == 3") == .or([a, .and([b, c])]))
        #expect(try parsedShape("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try parsedShape("NOT a == 1 OR b == 2") == .or([.not(a), b]))
        #expect(try parsedShape("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try parsedShape("NOT (a == 1 OR b == 2)") == .not(.or([a, b])))
        #expect(try parsedShape("((a == 1))") == a)
        #expect(try parsedShape("a == 1 AND (b == 2 OR (c == 3))") == .and([a, .or([b, c])]))
    }

    @Test func truePredicateAndFalsePredicate() throws {
        #expect(try parsedShape("TRUEPREDICATE") == .constant(true))
        #expect(try parsedShape("truepredicate") == .constant(true))
        #expect(try parsedShape("FALSEPREDICATE") == .constant(false))
        #expect(try parsedShape("FalsePredicate OR a == 1") == .or([.constant(false), cmp("a", "==", int1)]))
        #expect(try parsedShape("NOT TRUEPREDICATE") == .not(.constant(true)))
    }

    @Test func nullAndBooleanLiteralsInAnyCase() throws {
        for word in ["NULL", "NIL", "nil", "null", "Nil"] {
            #expect(try parsedShape("a == \(word)") == cmp("a", "==", .null), "\(word)")
        }
        for word in ["TRUE", "YES", "true", "yes", "True"] {
            #expect(try parsedShape("a == \(word)") == cmp("a", "==", .bool(true)), "\(word)")
        }
        for word in ["FALSE", "NO", "false", "no", "No"] {
            #expect(try parsedShape("a == \(word)") == cmp("a", "==", .bool(false)), "\(word)")
        }
        #expect(try parsedShape("nil == a") == .comparison(.value(.null), "==", .key("a"), 0))
    }

    @Test func reservedWordsAreNotKeysUnlessEscaped() throws {
        let error = parseError("in == 1")
        #expect(error?.message == "'in' is a reserved word and cannot be used as a key here (write #in for a key of that name)")
        #expect(error?.column == 1)
        #expect(parseError("a == 1 AND and == 2")?.column == 12)
        // Issue #79: a word the grammar reads only inside [ ] or before ( is a key elsewhere,
        // as any word after a '.'; the same tree as with '#'.
        for (bare, escaped) in [
            ("size > 3", "#size > 3"), ("first == 'Ann' AND last == 'Lee'", "#first == 'Ann' AND #last == 'Lee'"),
            ("owner.size == 1", "owner.#size == 1"), ("cast == 2", "#cast == 2"), ("owner.in == 1", "owner.#in == 1"),
            ("tags[SIZE] == size", "tags[SIZE] == #size"), ("subquery > 1", "#subquery > 1")
        ] {
            #expect(try parsedShape(bare) == parsedShape(escaped), "\(bare)")
            #expect(try PredicateParser.parse(bare).description == PredicateParser.parse(escaped).description, "\(bare)")
        }
        #expect(try PredicateParser.parse("CAST(now(), 'NSDate') > d").description == "now() > d")
        #expect(try parsedShape("#size == 1") == cmp("size", "==", int1))
        #expect(try parsedShape("owner.name == 'x'") == cmp("owner.name", "==", .text("x")))
        #expect(try parsedShape("_private == 1") == cmp("_private", "==", int1))
    }

    @Test func comparisonOptions() throws {
        #expect(try parsedShape("s ==[c] 'x'") == cmp("s", "==", .text("x"), 1))
        #expect(try parsedShape("s ==[d] 'x'") == cmp("s", "==", .text("x"), 2))
        #expect(try parsedShape("s ==[cd] 'x'") == cmp("s", "==", .text("x"), 3))
        #expect(try parsedShape("s <[CD] 'x'") == cmp("s", "<", .text("x"), 3))
        #expect(try parsedShape("s !=[dc] 'x'") == cmp("s", "!=", .text("x"), 3))
    }
}

@Suite struct LiteralParsingTests {
    @Test func stringsInBothQuoteKindsWithEscapes() throws {
        let cases: [(String, String)] = [
            (#"s == "plain""#, "plain"),
            (#"s == 'single'"#, "single"),
            (#"s == 'it\'s'"#, "it's"),
            (#"s == "it's""#, "it's"),
            (#"s == "say \"hi\"""#, #"say "hi""#),
            (#"s == 'mixed "quotes"'"#, #"mixed "quotes""#),
            (#"s == "a\nb\tc\rd""#, "a\nb\tc\rd"),
            (#"s == 'back\\slash'"#, #"back\slash"#),
            (#"s == "\u00e9t\u00E9""#, "été"),
            (#"s == 'café Straße 日本'"#, "café Straße 日本"),
            (#"s == ''"#, ""),
            (#"s == "\q""#, "q")
        ]
        for (format, expected) in cases {
            #expect(try parsedShape(format) == cmp("s", "==", .text(expected)), "\(format)")
        }
    }

    @Test func integersInEveryBase() throws {
        let cases: [(String, Int64)] = [
            ("0", 0), ("42", 42), ("-42", -42), ("0x1F", 31), ("0X1f", 31), ("0o17", 15), ("0O17", 15),
            ("0b101", 5), ("0B11", 3), ("-0x10", -16), ("9223372036854775807", .max), ("-9223372036854775807", -.max),
            ("007", 7)
        ]
        for (literal, value) in cases {
            #expect(try parsedShape("n == \(literal)") == cmp("n", "==", .integer(value)), "\(literal)")
        }
    }

    @Test func realsWithExponents() throws {
        let cases: [(String, Double)] = [
            ("1.5", 1.5), ("-1.5", -1.5), ("3.0", 3.0), ("2e3", 2000), ("2E3", 2000), ("1.5e-2", 0.015),
            ("1.5E+2", 150), ("-2.5e+1", -25), ("0.1", 0.1), ("1e300", 1e300), ("12345678901234567890", 12345678901234567890.0)
        ]
        for (literal, value) in cases {
            #expect(try parsedShape("x == \(literal)") == cmp("x", "==", .real(value)), "\(literal)")
        }
    }

    @Test func substitutions() throws {
        #expect(try parsedShape("s == %@", [.text("x")]) == cmp("s", "==", .text("x")))
        #expect(try parsedShape("%K == %@", [.text("title"), .text("x")]) == cmp("title", "==", .text("x")))
        #expect(try parsedShape("%K == 1", [.text("owner.name")]) == cmp("owner.name", "==", int1))
        // The key path goes on after %K, as Apple's grammar has it: `%K.@count`, `%K.name`.
        #expect(try parsedShape("%K.@count > 1", [.text("order Details")]) == cmp("order Details.@count", ">", int1))
        #expect(try parsedShape("%K.name.#size == 1", [.text("owner")]) == cmp("owner.name.size", "==", int1))
        #expect(parseError("%K. == 1", [.text("owner")])?.message == "expected a key after '.', found '=='")
        #expect(try parsedShape("n == %d", [.integer(5)]) == cmp("n", "==", .integer(5)))
        #expect(try parsedShape("n == %d", [.real(5)]) == cmp("n", "==", .integer(5)))
        #expect(
            try parsedShape("n == %ld AND m == %i AND k == %lld", [int1, int2, int3])
                == .and([cmp("n", "==", int1), cmp("m", "==", int2), cmp("k", "==", int3)]))
        #expect(try parsedShape("x == %f", [.integer(2)]) == cmp("x", "==", .real(2)))
        #expect(try parsedShape("x == %f", [.real(2.5)]) == cmp("x", "==", .real(2.5)))
        #expect(try parsedShape("s == %s", [.text("y")]) == cmp("s", "==", .text("y")))
        for value in [Value.null, .bool(true), .date(12.5), .integer(-3), .real(0.25), .blob([1, 2])] {
            #expect(try parsedShape("v == %@", [value]) == cmp("v", "==", value), "\(value)")
        }
        // Arguments are taken in order, whatever their kind.
        #expect(
            try parsedShape("%K < %@ OR %K == %d", [.text("a"), .real(1.5), .text("b"), .integer(7)])
                == .or([cmp("a", "<", .real(1.5)), cmp("b", "==", .integer(7))]))
        // A substituted string is a value, never syntax.
        #expect(try parsedShape("s == %@", [.text("x' OR 1 == 1")]) == cmp("s", "==", .text("x' OR 1 == 1")))
    }

    @Test func variables() throws {
        let vars: [String: Value] = ["MIN": .integer(2), "NAME": .text("café"), "when_2": .date(5)]
        #expect(
            try parsedShape("n > $MIN AND s == $NAME OR t < $when_2", vars: vars)
                == .or([.and([cmp("n", ">", .integer(2)), cmp("s", "==", .text("café"))]), cmp("t", "<", .date(5))]))
    }

    @Test func substitutionKindsAreChecked() {
        #expect(parseError("n == %d", [.real(2.5)])?.message == "%d takes an integer, got number")
        #expect(parseError("n == %d", [.text("2")])?.message == "%d takes an integer, got string")
        #expect(parseError("x == %f", [.text("2")])?.message == "%f takes a number, got string")
        #expect(parseError("s == %s", [.integer(1)])?.message == "%s takes a string, got integer")
        #expect(parseError("%K == 1", [.integer(1)])?.message == "%K takes a key path string, got integer")
    }
}

@Suite struct ParseErrorTests {
    @Test func unbalancedParentheses() {
        let open = parseError("(a == 1")
        #expect(open?.message == "expected ')' to close the '(' at column 1, found the end of the predicate")
        #expect(open?.column == 8)
        let inner = parseError("a == 1 AND ((b == 2) OR c == 3")
        #expect(inner?.message == "expected ')' to close the '(' at column 12, found the end of the predicate")
        #expect(inner?.column == 31)
        let close = parseError("a == 1)")
        #expect(close?.message == "unexpected ')' after a complete predicate")
        #expect(close?.column == 7)
        #expect(close?.description == "predicate: unexpected ')' after a complete predicate at column 7")
        #expect(parseError("()")?.column == 2)
    }

    @Test func unknownOperators() {
        let tilde = parseError("a ~ 1")
        #expect(tilde?.message == "unexpected character '~'")
        #expect(tilde?.column == 3)
        let missing = parseError("a 1")
        #expect(missing?.message.hasPrefix("expected a comparison operator") == true)
        #expect(missing?.message.hasSuffix("found number 1") == true)
        #expect(missing?.column == 3)
        let word = parseError("a SOUNDSLIKE 'x'")
        #expect(word?.message.hasPrefix("expected a comparison operator") == true)
        #expect(word?.column == 3)
        let dangling = parseError("a == 1 AND")
        #expect(dangling?.message == "expected a key path or a value, found the end of the predicate")
        #expect(dangling?.column == 11)
        #expect(parseError("a == 1 b == 2")?.column == 8)
        #expect(parseError("a ==[x] 'b'")?.message == "unknown comparison option 'x' (use c, d or cd)")
        #expect(parseError("a == -'x'")?.message == "expected a number after '-'")
    }

    /// SQL's IS NULL, typed from habit, names the form that is read.
    @Test func sqlsIsNullNamesNil() {
        let error = parseError("name IS NULL")
        #expect(error?.message == "IS is SQL's: write 'key == nil' for IS NULL, 'key != nil' for IS NOT NULL, as NSPredicate does")
        #expect(error?.column == 6)
        #expect(parseError("name IS NOT NULL")?.message.hasPrefix("IS is SQL's") == true)
    }

    @Test func emptyPredicate() {
        #expect(parseError("")?.message == "the predicate is empty")
        #expect(parseError("   ")?.column == 1)
    }

    @Test func missingArgument() {
        let error = parseError("a == %@ AND b == %@", [int1])
        #expect(error?.message == "%@ has no argument (1 given)")
        #expect(error?.column == 18)
        #expect(parseError("%K == 1")?.message == "%K has no argument (0 given)")
        let variable = parseError("a == $X")
        #expect(variable?.message == "no value for $X (pass it in vars)")
        #expect(variable?.column == 6)
    }

    /// `%K` takes any key, as Apple's does (`order Details`, `Unit Price`): a key names
    /// an attribute or relationship or is refused when bound, and is never SQL.
    @Test(arguments: ["title; DROP TABLE Item", "title--", "a b", "a == 1", "1abc", "x\"y", "order Details.@count"])
    func keySubstitutionTakesAnyKey(_ path: String) throws {
        let parsed = try PredicateParser.parse("%K == 1", arguments: PredicateArguments([.text(path)]))
        guard case .comparison(let c) = parsed, case .keyPath(let k) = c.lhs else {
            Issue.record("\(parsed)")
            return
        }
        #expect(k.components == path.split(separator: ".").map(String.init))
    }

    @Test(arguments: ["a..b", "", ".a", "a.", "a\u{7}b", "@"])
    func keySubstitutionRejectsAnythingButAKeyPath(_ path: String) {
        let error = parseError("%K == 1", [.text(path)])
        #expect(error?.message == "%K takes a key path such as 'owner.name', got '\(path)'")
        #expect(error?.column == 1)
    }

    @Test func lexicalErrors() {
        let string = parseError("a == 'abc")
        #expect(string?.message == "unterminated string")
        #expect(string?.column == 6)
        #expect(parseError(#"a == "ab\"#)?.message == "unterminated string")
        // A quote inside the text closed it early; the last quote is then the unterminated
        // one, and the message says why (trial 21).
        let inside = parseError("city == 'MCCURDY'S'")
        #expect(inside?.message == #"unterminated string; a quote inside a string ends it: write it \', or pass the text as an argument (== %@)"#)
        #expect(inside?.column == 19)
        #expect(parseError(#"name == "O"Neil" AND n == 1"#)?.message.contains(#"write it \""#) == true)
        #expect(parseError("city == 'NY' AND x == 'a")?.message == "unterminated string")
        #expect(parseError(#"a == "\u12""#)?.message == "bad \\u escape in string")
        #expect(parseError("a == $")?.message == "'$' must be followed by a variable name")
        let percent = parseError("a == %z")
        #expect(percent?.message == "'%' must be followed by @, K, d, i, f or s")
        #expect(percent?.column == 6)
        // A remainder as SQL writes it: the grammar's function that computes one.
        let remainder = parseError("quantity % 7 == 1")
        #expect(remainder?.message == "'%' is no operator here (it starts an argument such as %@); a remainder is modulus:by:(x, 7)")
        #expect(remainder?.column == 10)
        #expect(parseError("a == 0x")?.message == "bad number '0x'")
        #expect(parseError("a == 0b102")?.column != nil)
    }
}

@Suite struct BindingTests {
    let entity = EntityDescription(
        name: "Item",
        attributes: [
            AttributeDescription(name: "title", type: .string, isOptional: true),
            AttributeDescription(name: "n", type: .int64, isOptional: true),
            AttributeDescription(name: "small", type: .int16, isOptional: true),
            AttributeDescription(name: "x", type: .double, isOptional: true),
            AttributeDescription(name: "flag", type: .bool, isOptional: true),
            AttributeDescription(name: "when", type: .date, isOptional: true)
        ])

    func bindError(_ format: String, _ args: [Value] = []) -> PredicateError? {
        do {
            _ = try BoundPredicate(try parse(format, args), entity: entity)
            Issue.record("'\(format)' bound but should not")
            return nil
        } catch let error as PredicateError {
            return error
        } catch {
            Issue.record("'\(format)' threw \(error)")
            return nil
        }
    }

    @Test func unknownKeyPathWithSuggestion() {
        let error = bindError("titel == 'x'")
        #expect(error?.message == "unknown key path 'titel' on entity Item")
        #expect(error?.suggestion == "title")
        #expect(error?.column == 1)
        #expect(error?.description == "predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1")
        let far = bindError("n == 1 AND zzzzzz == 2")
        #expect(far?.message == "unknown key path 'zzzzzz' on entity Item")
        #expect(far?.column == 12)
        #expect(
            bindError("%K == 1", [.text("flg")])?.description == "predicate: unknown key path 'flg' on entity Item (did you mean 'flag'?) at column 1"
        )
    }

    @Test func constantsMustFitTheAttribute() {
        let text = bindError("n == 'abc'")
        #expect(text?.message == "'n' is int64 and cannot be compared with string \"abc\"")
        #expect(text?.column == 6)
        #expect(bindError("small < 40000")?.message == "'small' is int16 and cannot be compared with integer 40000")
        #expect(bindError("flag == 2")?.message == "'flag' is bool and cannot be compared with integer 2")
        // Issue 48: a date outside the years 0001 to 9999 is named by its seconds, not as
        // "date date out of range".
        #expect(
            bindError(#"when == CAST(1e300, "NSDate")"#)?.message
                == "'when' is date and cannot be compared with a date of 1e+300 seconds, outside the years 0001 to 9999")
        #expect(bindError("when > 'soon'")?.column == 8)
        #expect(bindError("title == 5") != nil)
    }

    @Test func constantsAreConvertedToTheAttributeType() throws {
        func rhs(_ format: String, _ args: [Value] = []) throws -> Value? {
            let bound = try BoundPredicate(try parse(format, args), entity: entity)
            guard case .comparison(_, _, .value(let v), _) = bound.root else { return nil }
            return v
        }
        #expect(try rhs("n == 3.0") == .integer(3))
        #expect(try rhs("x == 3") == .real(3))
        #expect(try rhs("flag == 1") == .bool(true))
        #expect(try rhs("flag == 0") == .bool(false))
        #expect(try rhs("flag == YES") == .bool(true))
        #expect(try rhs("when < '2024-01-22T16:26:12Z'") == .date(1_705_940_772))
        #expect(try rhs("when < %@", [.date(7)]) == .date(7))
        #expect(try rhs("n == nil") == .null)
        let lhs = try BoundPredicate(try parse("3 < x"), entity: entity)
        guard case .comparison(.value(let v), _, _, _) = lhs.root else {
            Issue.record("not a comparison")
            return
        }
        #expect(v == .real(3))
    }
}

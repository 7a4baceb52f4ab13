import Testing

/// The parts of Apple's predicate grammar that issue 17 found missing or answered
/// differently: each case cites where Foundation's behaviour is written down, and must
/// select the same people in SQLite (a fetch), in memory (`p:matches`) and after its
/// normalized text is parsed again.
@Suite struct GrammarConformanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let source: String
        let format: String
        var args = ""
        var vars = ""
        let selects: [String]
        var testDescription: String { "\(source): \(format)" }
    }

    static let cases: [Case] = [
        // 4. "Literals" (Predicate Format String Syntax): YES/TRUE and NO/FALSE are NSNumber 1 and 0.
        Case(source: "Format String Syntax, Literals (YES is NSNumber 1)", format: "qty == YES", selects: ["Ann"]),
        Case(source: "Format String Syntax, Literals (NO is NSNumber 0)", format: "qty == NO", selects: ["Bob"]),
        Case(source: "Format String Syntax, Literals", format: "qty == TRUE OR qty = FALSE", selects: ["Ann", "Bob"]),
        Case(source: "Format String Syntax, Literals", format: "score > NO AND qty != YES", selects: ["Bob"]),
        Case(source: "GNUstep NSPredicate tests, boolean argument", format: "qty == %@", args: "true", selects: ["Ann"]),
        // 5. KVC Programming Guide, Collection Operators: @sum of nothing is 0, @avg/@min/@max nil.
        Case(source: "KVC Collection Operators, @sum (empty: 0)", format: "children.@sum.age == 0", selects: ["Bob", "Dan"]),
        Case(source: "KVC Collection Operators, @count", format: "children.@count == 0", selects: ["Bob", "Dan"]),
        Case(source: "KVC Collection Operators, @avg (empty: nil)", format: "children.@avg.age == nil", selects: ["Bob", "Dan"]),
        Case(
            source: "KVC Collection Operators, @min/@max (empty: nil)", format: "children.@min.age == nil AND children.@max.age == nil",
            selects: ["Bob", "Dan"]),
        Case(source: "KVC Collection Operators, @sum", format: "children.@sum.age < 11", selects: ["Ann", "Bob", "Dan"]),
        // 6. Format String Syntax, "Parser Basics": a nil argument is [NSNull null], so == %@ tests for nil.
        Case(source: "Parser Basics, nil for %@", format: "nick == %@", args: "nil", selects: ["Ann", "Bob", "Cat"]),
        Case(source: "Parser Basics, null for nil in args", format: "nick == %@ AND qty > %@", args: "null, 0", selects: ["Ann", "Cat"]),
        Case(source: "NSPredicate withSubstitutionVariables, NSNull", format: "nick == $N", vars: "N = null", selects: ["Ann", "Bob", "Cat"]),
        Case(source: "Aggregate Operations, IN with a nil element", format: "nick IN %@", args: #"{ "D", null }"#, selects: ["Dan"]),
        // 1. BNF "Binary Expression": + - * / **, ** above * / above + -; / divides as NSNumber divide:by: (a double).
        Case(source: "BNF, binary_expression", format: "qty + 1 == 2", selects: ["Ann"]),
        Case(source: "BNF, binary_expression, precedence", format: "1 + qty * 2 == 9", selects: ["Cat"]),
        Case(source: "BNF, binary_expression, parentheses", format: "(1 + qty) * 2 == 10", selects: ["Cat"]),
        Case(source: "BNF, binary_expression, ** above *", format: "2 ** 3 * qty == 8", selects: ["Ann"]),
        Case(source: "BNF, binary_expression, ** groups right", format: "2 ** 3 ** 2 == 512", selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "NSExpression divide:by: returns a double", format: "qty / 2 == 3.5", selects: ["Dan"]),
        Case(source: "NSExpression divide:by: returns a double", format: "qty / 2 == 0.5 OR qty / 4 == 1", selects: ["Ann", "Cat"]),
        Case(source: "BNF, unary minus", format: "-qty == -4 OR -(qty - 10) == 3", selects: ["Cat", "Dan"]),
        Case(source: "BNF, binary_expression on both sides", format: "score * 2 > qty", selects: ["Ann", "Bob"]),
        Case(source: "NSExpression add:to:", format: "add:to:(qty, 1) == 2", selects: ["Ann"]),
        Case(source: "Quarry: division by zero is nil, as SQLite's", format: "qty / 0 == nil", selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "BNF, arithmetic with an argument", format: "qty - %@ >= %d", args: "1, 3", selects: ["Cat", "Dan"]),
        // 3. BNF "Operations": CONTAINS and IN are aggregate operators on collections, string operators on strings.
        Case(source: "BNF Operations, CONTAINS on a collection", format: "children.name CONTAINS 'Cy'", selects: ["Ann"]),
        Case(source: "BNF Operations, IN on a collection", format: "'Ed' IN children.name", selects: ["Cat"]),
        Case(source: "Realm query tests, %@ IN %K", format: "%@ IN %K", args: #""Di", "children.name""#, selects: ["Ann"]),
        Case(source: "BNF Operations, CONTAINS[c] on a collection", format: "children.name CONTAINS[c] 'cy'", selects: ["Ann"]),
        Case(source: "BNF Operations, IN on a string", format: "'ell' IN text", selects: ["Ann", "Bob"]),
        Case(source: "BNF Operations, IN on a string argument", format: "%@ IN %@", args: #""ell", "hello""#, selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "BNF Operations, IN on a string", format: "'lo' IN text AND 'w' IN text", selects: ["Bob"]),
        Case(source: "BNF Operations, object IN a to-many relationship", format: "%@ IN children", args: #"child("Ed")"#, selects: ["Cat"]),
        // 2. BNF "Index Expression": [SIZE], [FIRST], [LAST], [n] (zero-based, objectAtIndex:).
        Case(source: "BNF, index_expression [SIZE] on a to-many", format: "children[SIZE] == 2", selects: ["Ann"]),
        Case(source: "BNF, index_expression [SIZE] on an aggregate", format: "{1, 2, 3}[SIZE] == 3", selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "BNF, index_expression [FIRST]", format: "qty == {4, 5}[FIRST]", selects: ["Cat"]),
        Case(source: "BNF, index_expression [LAST]", format: "qty == {1, 7}[LAST]", selects: ["Dan"]),
        Case(source: "BNF, index_expression [n]", format: "qty == {0, 4, 7}[1]", selects: ["Cat"]),
        Case(source: "Format String Syntax, SUBQUERY(...)[SIZE]", format: "SUBQUERY(children, $c, $c.age > 5)[SIZE] == 1", selects: ["Ann", "Cat"]),
        // 10. NSExpression "Function Expressions" (expressionForFunction:arguments:).
        Case(source: "NSExpression abs:", format: "abs:(score) == 1.5", selects: ["Cat"]),
        Case(source: "NSExpression floor: ceiling: trunc:", format: "floor:(score) == 2 OR ceiling(score) == -1", selects: ["Ann", "Cat"]),
        Case(source: "NSExpression trunc: sqrt:", format: "trunc:(score) == -1 OR sqrt:(qty) == 2", selects: ["Cat"]),
        Case(source: "NSExpression lowercase:", format: "lowercase:(name) == 'ann'", selects: ["Ann"]),
        Case(source: "NSExpression uppercase:", format: "uppercase:(name) BEGINSWITH 'B'", selects: ["Bob"]),
        Case(source: "NSExpression sum: of a list", format: "sum:({1, 2, 3}) == 6 AND max:({1, 5}) == 5", selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "NSExpression count: average: max:", format: "count:(children) == 1 OR average:(children.age) == 5", selects: ["Ann", "Cat"]),
        Case(source: "NSExpression now", format: #"now() > CAST(0, "NSDate")"#, selects: ["Ann", "Bob", "Cat", "Dan"]),
        Case(source: "Format String Syntax, FUNCTION", format: "FUNCTION(name, 'uppercaseString') == 'DAN'", selects: ["Dan"])
    ]

    static let model = #"""
        entity "Child" { name = "string", age = "int", parent = { one = "Person", inverse = "children" } }
        entity "Person" { name = "string", qty = "int", score = "double", flag = "bool", nick = "string?", text = "string",
                          boss = { one = "Person" } }
        local ann = Person:new{ name = "Ann", qty = 1, score = 2.5, flag = true, text = "hello" }
        local bob = Person:new{ name = "Bob", qty = 0, score = 10, flag = false, text = "yellow", boss = ann }
        local cat = Person:new{ name = "Cat", qty = 4, score = -1.5, flag = true, text = "world", boss = ann }
        local dan = Person:new{ name = "Dan", qty = 7, score = 0, flag = false, nick = "D", text = "", boss = bob }
        kids = {
          Cy = Child:new{ name = "Cy", age = 3, parent = ann }, Di = Child:new{ name = "Di", age = 7, parent = ann },
          Ed = Child:new{ name = "Ed", age = 12, parent = cat },
        }
        function child(name) return kids[name] end
        save()
        function names(r) local t = {} for _, o in ipairs(r) do t[#t + 1] = o.name end return table.concat(t, ",") end
        function matching(p) local t = {} for _, o in ipairs(fetch{ "Person", sort = "name" }) do if p:matches(o) then t[#t + 1] = o.name end end return table.concat(t, ",") end
        """#

    @Test(arguments: cases)
    func selectsWhatFoundationSelects(_ example: Case) throws {
        let h = try Harness()
        h.run(Self.model)
        let expected = example.selects.joined(separator: ",")
        h.run(
            """
            local format, args, vars = [==[\(example.format)]==], table.pack(\(example.args)), { \(example.vars) }
            -- A table cannot hold nil: the table form passes null where the call passes nil.
            local listed = {}
            for i = 1, args.n do if args[i] == nil then listed[i] = null else listed[i] = args[i] end end
            local r = fetch{ "Person", predicate = format, args = listed, vars = vars, sort = "name" }
            assert(names(r) == "\(expected)", "SQLite selected " .. names(r))
            if next(vars) == nil then
              local p = predicate(format, table.unpack(args, 1, args.n))
              assert(matching(p) == names(r), "in memory: " .. matching(p))
              assert(names(fetch("Person", format, table.unpack(args, 1, args.n))) == names(r), "positional arguments")
              if not format:find("%%") then
                local again = predicate(tostring(p))
                assert(tostring(again) == tostring(p), tostring(p) .. " parses back as " .. tostring(again))
                assert(matching(again) == names(r), tostring(p) .. " selects " .. matching(again))
              end
            end
            """)
    }

    /// Refused on purpose, each in one line that names the column and the reason.
    @Test(arguments: [
        ("children[FIRST] == nil", "unordered", 9),
        ("children[2] == nil", "unordered", 9),
        ("SUBQUERY(children, $c, $c.age > 5)[LAST] == nil", "no order", 35),
        ("name[SIZE] == 3", "neither", 5),
        ("{1, 2}[5] == 1", "outside the list", 7),
        ("median:(children.age) == 1", "median:", 1),
        ("FUNCTION(name, 'myMethod') == 1", "myMethod", 16),
        ("text + 1 == 2", "arithmetic takes numbers", 1),
        ("qty * 2 == 'x'", "cannot be compared with string", 12),
        ("children.age > 3", "ANY", 1)
    ])
    func refusesWithOneLine(_ format: String, _ fragment: String, _ column: Int) throws {
        let h = try Harness()
        h.run(Self.model)
        let message = h.error("fetch(\"Person\", [==[\(format)]==])")
        #expect(message.contains(fragment), "\(format): \(message)")
        #expect(message.contains("column \(column)"), "\(format): \(message)")
        #expect(!message.contains("\n"), "\(format): \(message)")
    }
}

import QuarryModel
import Testing

/// The examples of Apple's "Predicate Format String Syntax" and "Predicate Programming
/// Guide", as a user would paste them: each must parse, mean the same in SQLite and in
/// memory, and select the people the guide's wording says it selects.
@Suite struct SyntaxGuideTests {
    /// Each case: a guide example (with its arguments and variables as Lua source) and
    /// the first names it selects, sorted.
    struct Example: CustomTestStringConvertible, Sendable {
        let source: String // where in the guides
        let format: String
        var args = ""
        var vars = ""
        let selects: [String]
        var testDescription: String { "\(source): \(format)" }
    }

    static let examples: [Example] = [
        // Predicate Programming Guide, "Creating Predicates": like[cd] and a date argument.
        Example(
            source: "Creating Predicates", format: "(lastName like[cd] %@) AND (birthday > %@)",
            args: #""CHÉN", date("1980-01-01T00:00:00Z")"#, selects: ["Mei"]),
        // NSPredicate's overview: simple comparisons, [cd], logical operations.
        Example(source: "NSPredicate overview", format: #"grade == "7" OR grade == "8""#, selects: ["Adam", "Juan", "Mei"]),
        Example(source: "NSPredicate overview", format: #"firstName like "Juan""#, selects: ["Juan"]),
        Example(source: "NSPredicate overview", format: #"name contains[cd] "stein""#, selects: ["Ben"]),
        Example(source: "NSPredicate overview", format: #"(firstName like "Mei") OR (lastName like "Chen")"#, selects: ["Mei"]),
        Example(
            source: "NSPredicate overview", format: "birthday between {$YESTERDAY, $TOMORROW}",
            vars: #"YESTERDAY = date("1990-01-01T00:00:00Z"), TOMORROW = date("1999-12-31T00:00:00Z")"#, selects: ["Juan", "Mei"]),
        // Format String Syntax, "Parser Basics": %K takes the key, %@ the value.
        Example(source: "Parser Basics", format: "%K like %@", args: #""firstName", "Adam""#, selects: ["Adam"]),
        // "Basic Comparisons", every spelling.
        Example(source: "Basic Comparisons", format: "age = 41", selects: ["Ben"]),
        Example(source: "Basic Comparisons", format: "age >= 41 AND age => 41", selects: ["Ben", "Nick"]),
        Example(source: "Basic Comparisons", format: "age <= 12 AND age =< 12", selects: ["Melissa"]),
        Example(source: "Basic Comparisons", format: "age != 41 AND age <> 41 AND age > 20 AND age < 60", selects: ["Adam", "Juan", "Mei"]),
        Example(source: "Basic Comparisons", format: "age BETWEEN { 0 , 33 }", selects: ["Adam", "Juan", "Mei", "Melissa"]),
        Example(
            source: "Basic Comparisons", format: "$INPUT BETWEEN { $LOWER, $UPPER }", vars: "INPUT = 5, LOWER = 1, UPPER = 9",
            selects: ["Adam", "Ben", "Juan", "Mei", "Melissa", "Nick"]),
        // "Boolean Value Predicates".
        Example(source: "Boolean Value Predicates", format: "TRUEPREDICATE", selects: ["Adam", "Ben", "Juan", "Mei", "Melissa", "Nick"]),
        Example(source: "Boolean Value Predicates", format: "FALSEPREDICATE", selects: []),
        // "Basic Compound Predicates".
        Example(source: "Basic Compound Predicates", format: "age > 30 && NOT (grade == '8') || !(age > 20)", selects: ["Ben", "Melissa", "Nick"]),
        // "String Comparisons", with [c], [d] and [cd].
        Example(source: "String Comparisons", format: "lastName BEGINSWITH[c] 'sm'", selects: ["Adam", "Nick"]),
        Example(source: "String Comparisons", format: "lastName ENDSWITH 'son'", selects: ["Melissa"]),
        Example(source: "String Comparisons", format: "lastName CONTAINS[d] 'e'", selects: ["Ben", "Mei", "Nick"]),
        Example(source: "String Comparisons", format: "firstName LIKE 'M?l*'", selects: ["Melissa"]),
        Example(source: "String Comparisons", format: "lastName MATCHES '[A-Z][a-z]+'", selects: ["Adam", "Ben", "Melissa", "Nick"]),
        // "Aggregate Operations": ANY / SOME, ALL, NONE, IN.
        Example(source: "Aggregate Operations", format: "ANY employees.firstName like 'Matthew'", selects: ["Ben"]),
        Example(source: "Aggregate Operations", format: "SOME employees.firstName like 'Matthew'", selects: ["Ben"]),
        Example(source: "Aggregate Operations", format: "ALL children.age < 12", selects: ["Adam", "Juan", "Mei", "Melissa", "Nick"]),
        Example(
            source: "Aggregate Operations", format: "NONE employees.firstName like 'Matthew'", selects: ["Adam", "Juan", "Mei", "Melissa", "Nick"]),
        Example(source: "Aggregate Operations", format: "firstName IN { 'Ben', 'Melissa', 'Nick' }", selects: ["Ben", "Melissa", "Nick"]),
        Example(source: "Aggregate Operations", format: "firstName IN %@", args: #"{ "Ben", "Nick" }"#, selects: ["Ben", "Nick"]),
        // "Literals": booleans, nil, numbers in every notation.
        Example(source: "Literals", format: "isMember == YES AND isMember != FALSE", selects: ["Ben", "Juan"]),
        Example(source: "Literals", format: "nickname == NIL OR nickname = NULL", selects: ["Adam", "Ben", "Juan", "Melissa", "Nick"]),
        Example(
            source: "Literals", format: "age == 0x1b OR age == 0o51 OR age == 0b1100 OR score == 2.71828 OR score == 1.975e1",
            selects: ["Adam", "Ben", "Melissa"]),
        // "Reserved Words": a key that is a reserved word, escaped with #.
        Example(source: "Reserved Words", format: "#size > 3", selects: ["Ben"]),
        // "Using Predicates", collections: SUBQUERY and @count, @sum, @avg, @min, @max.
        Example(
            source: "Predicate Format String Syntax, SUBQUERY",
            format: #"SUBQUERY(employees, $x, $x.firstName == "Jane" && $x.lastName == "Doe").@count != 0"#,
            selects: ["Nick"]),
        Example(source: "Aggregate Operations, @count", format: "employees.@count > 1", selects: ["Ben"]),
        Example(source: "Aggregate Operations, @sum", format: "employees.@sum.salary > 100000", selects: ["Ben"]),
        Example(
            source: "Aggregate Operations, @avg/@min/@max",
            format: "employees.@avg.salary >= 50000 AND employees.@min.salary < 60000 AND employees.@max.salary > 40000",
            selects: ["Ben", "Nick"]),
        // Key paths through a to-one relationship, and SELF.
        Example(source: "Using Predicates, key paths", format: "manager.firstName == 'Ben'", selects: ["Juan", "Mei"]),
        Example(source: "Using Predicates, SELF", format: "SELF IN %@", args: #"{ person("Mei"), person("Nick") }"#, selects: ["Mei", "Nick"]),
        // CAST to NSDate: reference-date seconds, as Apple (0 is 2001-01-01).
        Example(source: "Predicate Format String Syntax, CAST", format: #"birthday > CAST(0, "NSDate")"#, selects: ["Melissa"]),
        Example(
            source: "Predicate Format String Syntax, CAST", format: #"birthday < CAST("1970-01-01T00:00:00Z", "NSDate")"#, selects: ["Ben", "Nick"])
    ]

    private static let model = #"""
        entity "Employee" { firstName = "string", lastName = "string", salary = "double",
                            boss = { one = "Person", inverse = "employees" } }
        entity "Child" { age = "int", parent = { one = "Person", inverse = "children" } }
        entity "Person" { firstName = "string", lastName = "string", name = "string", age = "int", score = "double",
                          grade = "string", birthday = "date", isMember = "bool", nickname = "string?", size = "int",
                          manager = { one = "Person" } }
        local rows = {
          { "Adam", "Smith", 27, 1.0, "7", "1975-05-01", false, nil, 1 },
          { "Ben", "Frankenstein", 41, 2.71828, "6", "1960-03-02", true, nil, 5 },
          { "Juan", "García", 33, 3.0, "8", "1994-07-21", true, nil, 2 },
          { "Mei", "Chén", 30, 4.0, "7", "1990-10-10", false, "M", 3 },
          { "Melissa", "Jackson", 12, 19.75, "5", "2012-01-01", false, nil, 0 },
          { "Nick", "Smythe", 60, 5.0, "9", "1965-12-31", false, nil, 2 },
        }
        people = {}
        for _, r in ipairs(rows) do
          people[r[1]] = Person:new{ firstName = r[1], lastName = r[2], name = r[1] .. " " .. r[2], age = r[3], score = r[4],
            grade = r[5], birthday = date(r[6] .. "T00:00:00Z"), isMember = r[7], nickname = r[8], size = r[9] }
        end
        function person(name) return people[name] end
        people.Juan.manager = people.Ben; people.Mei.manager = people.Ben
        Employee:new{ firstName = "Matthew", lastName = "Doe", salary = 70000, boss = people.Ben }
        Employee:new{ firstName = "Jane", lastName = "Roe", salary = 45000, boss = people.Ben }
        Employee:new{ firstName = "Jane", lastName = "Doe", salary = 52000, boss = people.Nick }
        Child:new{ age = 14, parent = people.Ben }
        Child:new{ age = 3, parent = people.Adam }
        save()
        """#

    @Test(arguments: examples)
    func guideExamplesSelectWhatTheGuideSays(_ example: Example) throws {
        let h = try Harness()
        h.run(Self.model)
        let expected = example.selects.map { "\"\($0)\"" }.joined(separator: ", ")
        let format = example.format.replacingOccurrences(of: "]]", with: "] ]")
        h.run(
            """
            local format, args, vars = [[\(format)]], { \(example.args) }, { \(example.vars) }
            local r = fetch{ "Person", predicate = format, args = args, vars = vars, sort = "firstName" }
            local inSQL = {}
            for _, o in ipairs(r) do inSQL[#inSQL + 1] = o.firstName end
            local inMemory = {}
            if next(vars) == nil then
              local p = predicate(format, table.unpack(args))
              assert(#tostring(p) > 0)
              for _, o in ipairs(fetch{ "Person", sort = "firstName" }) do
                if p:matches(o) then inMemory[#inMemory + 1] = o.firstName end
              end
            else
              inMemory = inSQL
            end
            local want = { \(expected) }
            assert(table.concat(inSQL, ",") == table.concat(want, ","), "SQLite selected " .. table.concat(inSQL, ",") .. ", the guide " .. table.concat(want, ","))
            assert(table.concat(inMemory, ",") == table.concat(inSQL, ","), "in memory: " .. table.concat(inMemory, ",") .. ", SQLite: " .. table.concat(inSQL, ","))
            """)
    }
}

/// @avg over text, as SQLite's avg() reads it: integer text as an
/// integer, other text as its longest numeric prefix (found by fuzzing).
@Suite struct TextAggregateTests {
    @Test func sqlAndMemoryAgreeOnAveragesOfText() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Person" { name = "string" }
            entity "Item" { s = "string?", owner = { one = "Person", inverse = "items" } }
            local groups = { { "abc", "3" }, { " 3 ", "3abc" }, { "-2.5e1x", ".5" }, { "+7", "1e" }, { "9223372036854775807", "1" }, { "", "x" } }
            for g, texts in ipairs(groups) do
              local p = Person:new{ name = "p" .. g }
              for _, t in ipairs(texts) do Item:new{ s = t, owner = p } end
            end
            save()
            for _, f in ipairs{ "@avg" } do
              for _, v in ipairs{ -25, -24.5, 0, 0.5, 1.5, 3, 6, 7, 8, 9.2e18 } do
                for _, op in ipairs{ "<", "==", ">" } do
                  local format = "items." .. f .. ".s " .. op .. " %@"
                  local p = predicate(format, v)
                  local sql, memory = {}, {}
                  for _, o in ipairs(fetch{ "Person", predicate = format, args = { v }, sort = "name" }) do sql[#sql + 1] = o.name end
                  for _, o in ipairs(fetch{ "Person", sort = "name" }) do if p:matches(o) then memory[#memory + 1] = o.name end end
                  assert(table.concat(sql, ",") == table.concat(memory, ","), format .. " " .. v .. ": SQL " .. table.concat(sql, ",") .. ", memory " .. table.concat(memory, ","))
                end
              end
            end
            """#)
    }
}

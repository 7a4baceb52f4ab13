import Testing

/// The store seam counted (issue 82), as `docs/design.md` quotes it: the numbers reached,
/// asserted so that they can only go down. Each bound is tightened as the seam narrows.
struct SeamCountTests {
    static let sources = SeamCount.sources(under: "Sources")
    static let engineTargets = ["Sources/QuarrySQLite", "Sources/QuarryCoreData", "Sources/QuarryPostgreSQL"]
    static let seamTargets = ["Sources/QuarryEngine", "Sources/QuarryStore", "Sources/QuarryStores"] + engineTargets

    /// `PersistentStore` split by verb: what each verb's protocol requires.
    static let verbs: [String: Int] = [
        "StoreReading": 10, "StoreSaving": 8, "StoreBatchWriting": 2, "StoreDefining": 10, "StoreHistory": 3, "StoreOrdering": 4
    ]

    /// Every protocol a server engine (PostgreSQL's target) answers.
    static let serverProtocols =
        [
            "ServerStoreKind", "PersistentStore", "SaveStatements", "BatchChangeStatements", "HierarchyTables", "QuarryTableStatements",
            "QuarryDefinitionStatements", "ForeignSchemaEngine", "StoreEngine", "OutsideCommits", "RowCursor", "WriteStatements",
            "PreparedQuery", "EngineFailure", "SQLDialect", "SQLComparisons", "SQLComputations", "SQLReads"
        ] + verbs.keys.sorted()

    /// Those that put others together, with no requirement of their own.
    static let compositions: Set<String> = ["PersistentStore", "SQLDialect"]

    @Test func theSourcesAreFound() {
        // A moved test file would count nothing and pass every bound below.
        #expect(Self.sources.count > 300)
        #expect(SeamCount.requirements(of: "StoreEngine", in: Self.sources).count > 5)
    }

    @Test func eachVerbOfTheStoreIsAProtocolOfAtMostTwelveRequirements() {
        for (verb, count) in Self.verbs {
            let requirements = SeamCount.requirements(of: verb, in: Self.sources)
            #expect(requirements.count == count, "\(verb): \(requirements)")
            #expect(requirements.count <= 12, "\(verb)")
        }
        // The store is the verbs together, with nothing of its own.
        #expect(SeamCount.requirements(of: "PersistentStore", in: Self.sources).isEmpty)
    }

    @Test func aServerEngineAnswersAtMost70RequirementsWithoutADefault() {
        var total = 0
        var withoutDefault = 0
        for name in Self.serverProtocols {
            let requirements = SeamCount.requirements(of: name, in: Self.sources)
            let defaults = SeamCount.defaults(of: name, in: Self.sources)
            #expect(requirements.isEmpty == Self.compositions.contains(name), "\(name): \(requirements)")
            total += requirements.count
            withoutDefault += requirements.filter { !defaults.contains($0) }.count
        }
        #expect(total == 156)
        #expect(withoutDefault <= 70)
    }

    @Test func noProtocolAServerEngineAnswersIsOverTwelveRequirements() {
        for name in Self.serverProtocols {
            let requirements = SeamCount.requirements(of: name, in: Self.sources)
            #expect(requirements.count <= 12, "\(name): \(requirements.count) \(requirements)")
        }
        // The dialect is three protocols by what they spell, put together.
        #expect(SeamCount.requirements(of: "SQLDialect", in: Self.sources).isEmpty)
    }

    @Test func theDialectIsTheEngineSeamsAndTakesColumnsNotStorage() {
        let engine = SeamCount.sources(under: "Sources/QuarryEngine")
        #expect(engine.contains { $0.lines.contains { $0.hasPrefix("public protocol SQLDialect:") } })
        for name in ["SQLComparisons", "SQLComputations", "SQLReads"] {
            #expect(!SeamCount.requirements(of: name, in: engine).isEmpty, "\(name) is not in QuarryEngine")
        }
        #expect(SeamCount.codeLines(naming: "EntityStorage", in: engine) == [])
    }

    /// What only one engine's SQL spells: PostgreSQL's casts (`x::text`), SQLite's
    /// `typeof(`, `julianday(`, `max(rowid)` and its catalog's name.
    static let engineSQL = [")::", "\"::", "typeof(\\(", "julianday(", "max(rowid)", "sqlite_master"]

    /// Code lines spelling `engineSQL` in `files`.
    static func engineSQLLines(in files: [SeamCount.File]) -> [String] {
        files.flatMap { file in file.lines.filter { line in engineSQL.contains { line.contains($0) } }.map { "\(file.path): \($0)" } }
    }

    @Test func noEngineSQLIsOutsideTheEngines() {
        let engines = Self.engineTargets.flatMap { SeamCount.sources(under: $0) }
        // The spellings are found where they belong: a scan that misses them would pass.
        #expect(Self.engineSQLLines(in: engines).count > 20)
        // What a column's read converts is the dialect's answer (`ColumnConversion`), the
        // catalog's names the engine's (`SQLiteEngine.schemaReaders`).
        let outside = Self.sources.filter { file in !Self.engineTargets.contains { file.path.hasPrefix($0 + "/") } }
        let found = Self.engineSQLLines(in: outside)
        #expect(found == [], "\(found.count): \(found)")
    }

    /// The layouts are ways rows are laid out, none an engine: what a database's columns
    /// hold is its dialect's answer (`SQLReads.columnsHoldTheirTypes`).
    @Test func theLayoutsNameNoEngine() {
        let storage = SeamCount.sources(under: "Sources/QuarryStore/Mapping").filter { $0.path.hasSuffix("/EntityStorage.swift") }
        let lines = storage.flatMap(\.lines)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("public enum Layout") }) else {
            Issue.record("EntityStorage.Layout not found")
            return
        }
        let body = lines[(start + 1)...].prefix { $0 != "}" }
        let cases = body.filter { $0.hasPrefix("case ") }
        #expect(cases == ["case quarry", "case foreignTable", "case foreignView", "case coreData(number: Int64)"], "\(cases)")
    }

    /// A new engine changes one existing line (docs/design.md): the registry's list is one
    /// line, and `QuarryStores`' dependencies name one engine a line, so a new one adds its own.
    @Test func aNewEngineChangesOneExistingLine() throws {
        let registry = SeamCount.sources(under: "Sources/QuarryStores").filter { $0.path.hasSuffix("/StoreRegistry.swift") }
        let lists = registry.flatMap(\.lines).filter { $0.hasPrefix("static var servers:") }
        #expect(lists.count == 1 && lists.first?.hasSuffix("}") == true, "\(lists)")
        let manifest = try String(contentsOf: SeamCount.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for engine in ["QuarrySQLite", "QuarryCoreData", "QuarryPostgreSQL"] {
            #expect(lines.contains("\"\(engine)\","), "\(engine) has no line of its own in QuarryStores' dependencies")
        }
    }

    @Test func noEngineTargetNamesTheContext() {
        let engines = Self.engineTargets.flatMap { SeamCount.sources(under: $0) }
        #expect(engines.count > 100)
        #expect(SeamCount.codeLines(naming: "ObjectContext", in: engines) == [])
    }

    @Test func noFileOfTheSeamsTargetsIsOverFiveHundredLines() {
        let seam = Self.seamTargets.flatMap { SeamCount.sources(under: $0) }
        #expect(seam.count > 200)
        #expect(SeamCount.longFiles(seam, over: 500) == [:])
    }

    /// The same bound for every target's Swift, the Lua bindings and the shell included.
    @Test func noSwiftFileOfAnyTargetIsOverFiveHundredLines() {
        let all = SeamCount.sources(under: "Sources")
        #expect(all.count > 600)
        #expect(SeamCount.longFiles(all, over: 500) == [:])
    }
}

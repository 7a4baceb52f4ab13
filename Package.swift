// swift-tools-version:6.2
import Foundation
import PackageDescription

// Layers, each target depending only on targets above it in this drawing:
//
//   C interop: CQuarrySignals, CQuarryRows, CQuarrySQLite, CQuarryShim, CQuarryPQ,
//              CQuarryXML (libxml2), CLua, CReadline, CZlib
//   QuarryModel            entities, values, errors, JSON, I/O, Core Data's model as values (BigInt)
//   QuarryModelFiles       Core Data's model files read and written
//   QuarryEngine           what every engine answers
//   QuarryStore            the context, objects, the stores' seam, layouts, import
//   QuarrySQLite  QuarryPostgreSQL     one per engine                 (GRDB; libpq)
//   QuarryCoreData         Core Data's layout, on SQLite
//   QuarryStores           the one place that names every engine
//   QuarryPredicates       NSPredicate's grammar: parsing, SQL, memory, Swift out
//   QuarrySwiftReading     Swift input told apart, its reading's seam, the reader process's client
//   QuarrySwiftInput       `#Predicate` read with swift-syntax            (swift-syntax)
//   QuarryFetch            requests, results, sql(), export
//   QuarryFormat           tables and charts as text
//   QuarryLua              the Lua bindings
//   QuarryShell            the REPL, dot-commands, options            (ArgumentParser)
//   quarry                 the executable
//   quarry-swift-reader    QuarrySwiftInput as a process, started at the first Swift read
//
// swift-syntax is in QuarrySwiftInput only, which `quarry` does not link: `quarry` reads
// Swift through `quarry-swift-reader`, built apart and unoptimized by `scripts/setup`
// (swift-syntax compiled with whole-module optimization was 41% of the release build's CPU).
// Only QuarryStores and the shell above it name concrete engines; QuarryPredicates and
// the layers above it never import an engine. Every library target is in Swift 6 mode
// and treats warnings as errors. The test targets stay in Swift 5 mode, as GRDB's do,
// and build without warnings of their own; they do not make warnings errors, because
// swift-testing's @Test and @Suite expand to code this compiler warns about ('@const'
// value should be initialized with a compile-time value), which no test can change.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

// swift-syntax as the Swift toolchain ships it: `usr/lib/swift/host`, beside the compiler,
// holds the SwiftSyntax and SwiftParser the compiler's own macro support uses, as shared
// libraries with their module interfaces. Built from source, swift-syntax was most of a
// first build's CPU (its SwiftSyntax module alone, type-checked on one core, several minutes
// in debug); from the toolchain it costs reading two interfaces. The libraries need Swift's
// dynamic runtime, which the tests and `quarry-swift-reader` (a process of its own) link;
// `quarry` itself holds no swift-syntax. Found from the `swift` on PATH (or
// QUARRY_SWIFT_HOST); a toolchain without them builds swift-syntax from its package instead.
let toolchainSwiftSyntax: String? = {
    let environment = ProcessInfo.processInfo.environment
    let files = FileManager.default
    func holdsSwiftSyntax(_ folder: String) -> Bool {
        files.fileExists(atPath: folder + "/SwiftParser.swiftmodule") && files.fileExists(atPath: folder + "/libSwiftParser.so")
    }
    if let given = environment["QUARRY_SWIFT_HOST"], !given.isEmpty { return holdsSwiftSyntax(given) ? given : nil }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
        guard files.isExecutableFile(atPath: swift.path) else { continue }
        let usr = swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let host = usr.appendingPathComponent("lib/swift/host").path
        return holdsSwiftSyntax(host) ? host : nil
    }
    return nil
}()
let swiftSyntaxPackage: [Package.Dependency] =
    toolchainSwiftSyntax == nil ? [.package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1")] : []
let swiftSyntaxProducts: [Target.Dependency] =
    toolchainSwiftSyntax == nil
    ? [.product(name: "SwiftSyntax", package: "swift-syntax"), .product(name: "SwiftParser", package: "swift-syntax")] : []
// Where the toolchain's modules and libraries are found, at build and at run time (every
// target that imports QuarrySwiftInput needs its modules: a module built without library
// evolution names them to its importers).
let swiftSyntaxSettings: [SwiftSetting] = toolchainSwiftSyntax.map { [.unsafeFlags(["-I", $0])] } ?? []
let swiftSyntaxLinking: [LinkerSetting] =
    toolchainSwiftSyntax.map { [.unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])] } ?? []
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6), .treatAllWarnings(as: .error)]

let package = Package(
    name: "Quarry",
    products: [
        .executable(name: "quarry", targets: ["quarry"]),
        .executable(name: "quarry-swift-reader", targets: ["quarry-swift-reader"]),
        // For the fuzz targets in Fuzz/ (a separate package that depends on this one).
        .library(name: "QuarryModel", targets: ["QuarryModel"]),
        .library(name: "QuarryModelFiles", targets: ["QuarryModelFiles"]),
        .library(name: "QuarryStore", targets: ["QuarryStore"]),
        .library(name: "QuarrySQLite", targets: ["QuarrySQLite"]),
        .library(name: "QuarryStores", targets: ["QuarryStores"]),
        .library(name: "QuarryPredicates", targets: ["QuarryPredicates"]),
        .library(name: "QuarrySwiftReading", targets: ["QuarrySwiftReading"]),
        .library(name: "QuarrySwiftInput", targets: ["QuarrySwiftInput"]),
        .library(name: "QuarryLua", targets: ["QuarryLua"]),
        .library(name: "QuarryShell", targets: ["QuarryShell"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Exact decimals past 38 digits (PostgreSQL's numeric): an integer significand and a scale.
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0")
        // Swift's own parser, to read `#Predicate` and sort descriptors written as Swift
        // (swiftSyntaxPackage: only where the toolchain does not ship it).
    ] + swiftSyntaxPackage,
    targets: [
        // No pkgConfig for these two: their .pc files put -L/usr/lib/x86_64-linux-gnu ahead of
        // quarry's Linking folder (see below), which would then not be searched first. The
        // shims include <lua5.4/...> and <readline/...> by full path; scripts/setup installs both.
        .systemLibrary(name: "CLua", providers: [.apt(["liblua5.4-dev"])]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // zlib has no pkg-config file on every distribution; the module map links `z` itself.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CQuarrySignals"),
        .target(name: "CQuarryRows"),
        // SQLite's variadic calls (sqlite3_db_config), which Swift cannot make.
        .target(name: "CQuarrySQLite", dependencies: ["CQuarryRows"], linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CQuarryShim", dependencies: ["CLua", "CQuarrySignals", "CQuarryRows"]),
        // libxml2's reader, for Xcode's model XML; its headers stay inside the shim (their
        // include path is libxml2's own folder), and quarry links it statically (Linking).
        .target(
            name: "CQuarryXML", cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])], linkerSettings: [.linkedLibrary("xml2")]),
        // libpq, loaded when a PostgreSQL store is opened (see its header for why not linked).
        .target(name: "CQuarryPQ", linkerSettings: [.linkedLibrary("dl")]),
        // The model: entities, values, engine-neutral errors, JSON and the I/O helpers.
        .target(name: "QuarryModel", dependencies: ["CQuarrySignals", .product(name: "BigInt", package: "BigInt")], swiftSettings: swift6),
        // Core Data's model files: XML, keyed archives, Swift source. The core does not depend
        // on it (the registry hands it a model reader), so that it compiles beside the core:
        // the first release build waits on one chain of whole-module compiles, and this was on it.
        .target(name: "QuarryModelFiles", dependencies: ["QuarryModel", "CQuarrySignals", "CQuarryXML", "CZlib"], swiftSettings: swift6),
        // What every engine answers: StoreEngine, RowCursor, PreparedQuery.
        .target(name: "QuarryEngine", dependencies: ["QuarryModel", "CQuarryRows", "CQuarrySignals"], swiftSettings: swift6),
        // The core: the context, objects, the stores' protocol, the layouts written once, import.
        .target(
            name: "QuarryStore",
            dependencies: [
                "QuarryModel", "QuarryEngine", "CQuarrySignals", "CQuarryRows"
            ], swiftSettings: swift6),
        // SQLite: its engine (GRDB, the C functions, the one-scan summary) and its layouts
        // (Quarry's files, another program's).
        .target(
            name: "QuarrySQLite",
            dependencies: [
                "QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore",
                "CQuarrySignals", "CQuarryRows", "CQuarrySQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ], swiftSettings: swift6),
        // Core Data's layout of a SQLite file: its tables, triggers, history, external data.
        .target(
            name: "QuarryCoreData",
            dependencies: [
                "QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore", "QuarrySQLite",
                "CQuarrySignals", "CQuarryRows", "CQuarrySQLite", "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ], swiftSettings: swift6),
        // PostgreSQL: its engine (libpq, rows, COPY) and its layouts (a schema's tables, Quarry's own).
        .target(
            name: "QuarryPostgreSQL",
            dependencies: [
                "QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore", "CQuarryPQ", "CQuarrySignals", "CQuarryRows"
            ], swiftSettings: swift6),
        // The one place that knows every engine and layout: the registry that opens a location.
        // An engine or layout a line, so that a new one adds its line (its target goes above).
        .target(
            name: "QuarryStores",
            dependencies: [
                "QuarrySQLite",
                "QuarryCoreData",
                "QuarryPostgreSQL",
                "QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore"
            ],
            swiftSettings: swift6),
        .target(name: "QuarryPredicates", dependencies: ["QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore"], swiftSettings: swift6),
        // What the Lua layer needs of Swift input without swift-syntax: whether a text is
        // Swift, what a reading gives, the reader's protocol, and the reader process's client.
        .target(
            name: "QuarrySwiftReading", dependencies: ["QuarryModel", "QuarryStore", "QuarryPredicates", "CQuarrySignals"], swiftSettings: swift6),
        // `#Predicate` and Swift sort keys in: Swift's syntax tree onto the predicate tree.
        .target(
            name: "QuarrySwiftInput",
            dependencies: [
                "QuarryModel",
                "QuarryStore", "QuarryPredicates", "QuarrySwiftReading", "CQuarrySignals"
            ] + swiftSyntaxProducts, swiftSettings: swift6 + swiftSyntaxSettings, linkerSettings: swiftSyntaxLinking),
        .target(
            name: "QuarryFetch", dependencies: ["QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore", "QuarryPredicates"],
            swiftSettings: swift6),
        // Tables and charts as text: no Lua, no terminal; the Lua layer and the shell use it.
        .target(name: "QuarryFormat", dependencies: ["QuarryModel", "QuarryStore", "QuarryFetch"], swiftSettings: swift6),
        .target(
            name: "QuarryLua",
            dependencies: [
                "QuarryModel", "QuarryModelFiles", "CQuarryShim", "CLua", "CQuarrySignals", "QuarryStore", "QuarryPredicates", "QuarrySwiftReading",
                "QuarryFetch", "QuarryFormat"
            ], swiftSettings: swift6),
        .target(
            name: "QuarryShell",
            dependencies: [
                "QuarryStores", "QuarryModel", "QuarryModelFiles", "QuarryEngine",
                "QuarryLua", "QuarryStore", "QuarryPredicates", "QuarrySwiftReading", "QuarryFormat", "CReadline",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ], swiftSettings: swift6),
        .executableTarget(
            name: "quarry", dependencies: ["QuarryShell"], exclude: ["Linking"], swiftSettings: swift6,
            linkerSettings: [.unsafeFlags(["-L\(Context.packageDirectory)/Sources/quarry/Linking"])]),
        .executableTarget(
            name: "quarry-swift-reader", dependencies: ["QuarrySwiftInput", "QuarrySwiftReading"], swiftSettings: swift6 + swiftSyntaxSettings),

        // What several test targets share (a seeded random generator).
        .target(name: "QuarryTestSupport", path: "Tests/Support", swiftSettings: swift5),
        // Quarry's #Predicate export against swift-foundation's macro: a store as plain Swift
        // classes and objects, compiled with swiftc, evaluated, compared with Quarry's fetch.
        .target(
            name: "QuarrySwiftEvaluation",
            dependencies: ["QuarryModel", "QuarryModelFiles", "QuarryStore", "QuarryStores", "QuarryPredicates", "QuarryFetch", "QuarryTestSupport"],
            path: "Tests/SwiftEvaluation", swiftSettings: swift5),
        // A test target per library target, each importing nothing above its own.
        .testTarget(
            name: "QuarryModelTests", dependencies: ["QuarryModel", "QuarryTestSupport", .product(name: "BigInt", package: "BigInt")],
            swiftSettings: swift5),
        .testTarget(name: "QuarryModelFilesTests", dependencies: ["QuarryModel", "QuarryModelFiles", "QuarryTestSupport"], swiftSettings: swift5),
        .testTarget(name: "QuarryEngineTests", dependencies: ["QuarryEngine"], swiftSettings: swift5),
        .testTarget(name: "QuarrySQLiteTests", dependencies: ["QuarryEngine", "QuarrySQLite"], swiftSettings: swift5),
        .testTarget(
            name: "QuarryPostgreSQLTests", dependencies: ["QuarryModel", "QuarryEngine", "QuarryStore", "QuarryPostgreSQL", "QuarryTestSupport"],
            swiftSettings: swift5),
        .testTarget(
            name: "QuarryCoreDataTests", dependencies: ["QuarryModel", "QuarryEngine", "QuarryStore", "QuarrySQLite", "QuarryCoreData"],
            swiftSettings: swift5),
        .testTarget(
            name: "QuarryStoresTests",
            dependencies: ["QuarryModel", "QuarryEngine", "QuarryStore", "QuarrySQLite", "QuarryCoreData", "QuarryPostgreSQL", "QuarryStores"],
            swiftSettings: swift5),
        .testTarget(
            name: "QuarryStoreTests",
            dependencies: [
                "QuarryPostgreSQL", "QuarryStores", "QuarryModel", "QuarryModelFiles", "QuarryEngine", "QuarryStore", "QuarrySQLite",
                "QuarryCoreData", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift")
            ], swiftSettings: swift5),
        .testTarget(
            name: "QuarryPredicatesTests",
            dependencies: [
                "QuarryShell", "QuarryPostgreSQL", "QuarryModel", "QuarryPredicates", "QuarryStore", "QuarryStores", "QuarrySQLite", "QuarryCoreData",
                "QuarryEngine", "QuarrySwiftInput", "QuarrySwiftReading", "QuarryTestSupport", "QuarrySwiftEvaluation",
                .product(name: "GRDB", package: "GRDB.swift")
            ], swiftSettings: swift5 + swiftSyntaxSettings),
        .testTarget(
            name: "QuarrySwiftInputTests",
            dependencies: [
                "QuarryShell", "QuarryModel", "QuarrySwiftInput", "QuarrySwiftReading", "QuarryPredicates", "QuarryStore", "QuarryStores",
                "QuarrySQLite",
                "QuarryCoreData", "QuarryEngine", "QuarryTestSupport"
            ], swiftSettings: swift5 + swiftSyntaxSettings),
        // The reader process against the reading in this process (needs quarry-swift-reader built beside the tests).
        .testTarget(
            name: "QuarrySwiftReadingTests",
            dependencies: ["QuarryModel", "QuarryStore", "QuarryShell", "QuarryPredicates", "QuarrySwiftInput", "QuarrySwiftReading"],
            swiftSettings: swift5 + swiftSyntaxSettings),
        .testTarget(
            name: "QuarryFetchTests",
            dependencies: [
                "QuarryShell", "QuarryModel", "QuarryFetch", "QuarryPredicates", "QuarryStore", "QuarryStores", "QuarrySQLite", "QuarryCoreData",
                "QuarryEngine", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ], swiftSettings: swift5),
        .testTarget(
            name: "QuarryFormatTests",
            dependencies: [
                "QuarryModel", "QuarryFormat", "QuarryStore", "QuarryStores", "QuarrySQLite", "QuarryCoreData", "QuarryEngine", "QuarryTestSupport"
            ], swiftSettings: swift5),
        .testTarget(
            name: "QuarryLuaTests",
            dependencies: [
                "QuarryShell", "QuarryModel", "QuarryModelFiles", "QuarryLua", "QuarryFetch", "QuarryFormat", "QuarryPredicates", "QuarryStore",
                "QuarrySwiftInput", "QuarrySwiftReading",
                "QuarryStores", "QuarrySQLite", "QuarryCoreData", "QuarryEngine", "CLua", "CQuarryShim", "CQuarrySignals", "QuarryTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "BigInt", package: "BigInt")
            ], swiftSettings: swift5 + swiftSyntaxSettings),
        .testTarget(
            name: "QuarryShellTests",
            dependencies: ["QuarryModel", "QuarryShell", "QuarryStore", "QuarryStores", "QuarrySQLite", "QuarryCoreData", "QuarryEngine"],
            swiftSettings: swift5),
        .testTarget(name: "EndToEndTests", dependencies: ["QuarryTestSupport"], swiftSettings: swift5)
    ]
)

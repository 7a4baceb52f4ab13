// swift-tools-version:6.1
import PackageDescription

// Layers, each depending only on those below it:
// C interop (CLua, CReadline, CZlib, CQuarrySQLite, CQuarrySignals, CQuarryRows, CQuarryShim, CQuarryPQ) → QuarryStore → QuarryPredicates
// (→ QuarrySwiftInput, `#Predicate` read with swift-syntax) → QuarryFetch
// → QuarryFormat → QuarryLua → QuarryShell → quarry (the executable).
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "Quarry",
    products: [
        .executable(name: "quarry", targets: ["quarry"]),
        // For the fuzz targets in Fuzz/ (a separate package that depends on this one).
        .library(name: "QuarryStore", targets: ["QuarryStore"]),
        .library(name: "QuarryPredicates", targets: ["QuarryPredicates"]),
        .library(name: "QuarrySwiftInput", targets: ["QuarrySwiftInput"]),
        .library(name: "QuarryLua", targets: ["QuarryLua"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Swift's own parser, to read `#Predicate` and sort descriptors written as Swift.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
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
        .target(name: "CQuarrySQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CQuarryShim", dependencies: ["CLua", "CQuarrySignals", "CQuarryRows"]),
        // libpq, loaded when a PostgreSQL store is opened (see its header for why not linked).
        .target(name: "CQuarryPQ", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "QuarryStore", dependencies: [
            "CQuarrySignals", "CQuarryRows", "CQuarrySQLite", "CZlib", "CQuarryPQ",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ], swiftSettings: swift5),
        .target(name: "QuarryPredicates", dependencies: ["QuarryStore", "CQuarrySQLite"], swiftSettings: swift5),
        // `#Predicate` and Swift sort keys in: Swift's syntax tree onto the predicate tree.
        .target(name: "QuarrySwiftInput", dependencies: [
            "QuarryStore", "QuarryPredicates", "CQuarrySignals",
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftParser", package: "swift-syntax"),
            .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        ], swiftSettings: swift5),
        .target(name: "QuarryFetch", dependencies: ["QuarryStore", "QuarryPredicates", "CQuarrySQLite"], swiftSettings: swift5),
        // Tables and charts as text: no Lua, no terminal; the Lua layer and the shell use it.
        .target(name: "QuarryFormat", dependencies: ["QuarryStore", "QuarryFetch"], swiftSettings: swift5),
        .target(name: "QuarryLua", dependencies: ["CQuarryShim", "CLua", "CQuarrySignals", "QuarryStore", "QuarryPredicates", "QuarrySwiftInput", "QuarryFetch", "QuarryFormat"], swiftSettings: swift5),
        .target(name: "QuarryShell", dependencies: [
            "QuarryLua", "QuarryStore", "QuarryPredicates", "QuarryFormat", "CReadline",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: swift5),
        .executableTarget(name: "quarry", dependencies: ["QuarryShell"], exclude: ["Linking"], swiftSettings: swift5,
                          linkerSettings: [.unsafeFlags(["-L\(Context.packageDirectory)/Sources/quarry/Linking"])]),

        // What several test targets share (a seeded random generator).
        .target(name: "QuarryTestSupport", path: "Tests/Support", swiftSettings: swift5),
        // Quarry's #Predicate export against swift-foundation's macro: a store as plain Swift
        // classes and objects, compiled with swiftc, evaluated, compared with Quarry's fetch.
        .target(name: "QuarrySwiftEvaluation", dependencies: ["QuarryStore", "QuarryPredicates", "QuarryFetch", "QuarryTestSupport"],
                path: "Tests/SwiftEvaluation", swiftSettings: swift5),
        .testTarget(name: "QuarryStoreTests", dependencies: ["QuarryStore", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swift5),
        .testTarget(name: "QuarryPredicatesTests", dependencies: ["QuarryPredicates", "QuarryStore", "QuarrySwiftInput", "QuarryTestSupport", "QuarrySwiftEvaluation", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swift5),
        .testTarget(name: "QuarrySwiftInputTests", dependencies: ["QuarrySwiftInput", "QuarryPredicates", "QuarryStore", "QuarryTestSupport"], swiftSettings: swift5),
        .testTarget(name: "QuarryFetchTests", dependencies: ["QuarryFetch", "QuarryPredicates", "QuarryStore", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swift5),
        .testTarget(name: "QuarryFormatTests", dependencies: ["QuarryFormat", "QuarryStore", "QuarryTestSupport"], swiftSettings: swift5),
        .testTarget(name: "QuarryLuaTests", dependencies: ["QuarryLua", "QuarryFetch", "QuarryFormat", "QuarryPredicates", "QuarryStore", "CLua", "CQuarryShim", "CQuarrySignals", "QuarryTestSupport", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swift5),
        .testTarget(name: "QuarryShellTests", dependencies: ["QuarryShell", "QuarryStore"], swiftSettings: swift5),
        .testTarget(name: "EndToEndTests", dependencies: ["QuarryTestSupport"], swiftSettings: swift5),
    ]
)

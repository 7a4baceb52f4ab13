// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for Quarry, kept apart from the main package so that its build and
// CI never see -sanitize=fuzzer. Build and run them with scripts/fuzz (docs/fuzzing.md).
// Each target's driver (*FuzzDriver.swift) is also compiled into the main package's
// tests, through a symbolic link, to replay the corpus in Fuzz/corpus/<target>/.
let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "QuarryFuzz",
    dependencies: [
        .package(name: "Quarry", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "FuzzMain"),
        .executableTarget(name: "FuzzPredicates", dependencies: [
            "FuzzMain",
            .product(name: "QuarryShell", package: "Quarry"),
            .product(name: "QuarryModel", package: "Quarry"),
            .product(name: "QuarryPredicates", package: "Quarry"),
            .product(name: "QuarryStore", package: "Quarry"),
            .product(name: "QuarryStores", package: "Quarry"),
            .product(name: "QuarrySQLite", package: "Quarry"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], swiftSettings: swift5),
        .executableTarget(name: "FuzzCSV", dependencies: [
            "FuzzMain",
            .product(name: "QuarryModel", package: "Quarry"),
            .product(name: "QuarryStore", package: "Quarry"),
            .product(name: "QuarryStores", package: "Quarry"),
            .product(name: "QuarrySQLite", package: "Quarry"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ], swiftSettings: swift5),
        .executableTarget(name: "FuzzLua", dependencies: [
            "FuzzMain",
            .product(name: "QuarryShell", package: "Quarry"),
            .product(name: "QuarryLua", package: "Quarry"),
            .product(name: "QuarrySwiftInput", package: "Quarry"),
        ], swiftSettings: swift5),
        .executableTarget(name: "FuzzSwift", dependencies: [
            "FuzzMain",
            .product(name: "QuarryShell", package: "Quarry"),
            .product(name: "QuarryModel", package: "Quarry"),
            .product(name: "QuarrySwiftInput", package: "Quarry"),
            .product(name: "QuarrySwiftReading", package: "Quarry"),
            .product(name: "QuarryPredicates", package: "Quarry"),
            .product(name: "QuarryStore", package: "Quarry"),
            .product(name: "QuarryStores", package: "Quarry"),
            .product(name: "QuarrySQLite", package: "Quarry"),
        ], swiftSettings: swift5),
        .executableTarget(name: "FuzzDecimal", dependencies: [
            "FuzzMain",
            .product(name: "QuarryModel", package: "Quarry"),
        ], swiftSettings: swift5),
        .executableTarget(name: "FuzzModel", dependencies: [
            "FuzzMain",
            .product(name: "QuarryModel", package: "Quarry"),
            .product(name: "QuarryModelFiles", package: "Quarry"),
            .product(name: "QuarryStore", package: "Quarry"),
            .product(name: "QuarryStores", package: "Quarry"),
            .product(name: "QuarrySQLite", package: "Quarry"),
        ], swiftSettings: swift5),
    ]
)

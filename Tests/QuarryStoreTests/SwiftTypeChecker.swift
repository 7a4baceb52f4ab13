/// Type-checks generated Swift on Linux, where SwiftData and Core Data do not exist, by
/// compiling it (`swiftc -typecheck`) against small stand-ins written here:
/// - SwiftData: `@Model` is a global actor (an attribute a class may carry), `@Attribute`,
///   `@Relationship` (with `inverse:` as a real key path) and `@Transient` are property
///   wrappers. `#Unique` and `#Index` are macros, which need a compiler plugin, so each is
///   rewritten to a static property holding the same key paths, which are still checked.
///   A wrapper given arguments cannot be set by `init` (the real `@Model` macro turns the
///   property into a computed one; a stand-in cannot), so `@Attribute(options) var x: T`
///   without a value is checked as `@Attribute var x: T` plus a static holding the options.
/// - Core Data: `@objc` and `@NSManaged` are the compiler's own attributes, checked for real
///   with Objective-C interop turned on; the classes they need (`NSObject`,
///   `NSManagedObject`, `NSFetchRequest<T>`, `NSSet`, ...) come from a stand-in Objective-C
///   header as a clang module named Foundation, and the toolchain's own Foundation is
///   hidden by a resource folder of links to everything else.
import Foundation
import QuarryModel
import QuarryTestSupport

enum SwiftTypeChecker {

    static let swiftDataStubs = """
        @_exported import Foundation
        @globalActor public actor Model { public static let shared = Model() }
        public struct AttributeOption: Sendable {
            public static let unique = AttributeOption(), externalStorage = AttributeOption()
            public static func transformable(by name: String) -> AttributeOption { AttributeOption() }
        }
        @propertyWrapper public struct Attribute<Value> {
            public var wrappedValue: Value
            public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
            public init(wrappedValue: Value, _ options: AttributeOption..., originalName: String? = nil, hashModifier: String? = nil) { self.wrappedValue = wrappedValue }
        }
        public struct AttributeOptionList { public init(_ options: AttributeOption..., originalName: String? = nil, hashModifier: String? = nil) {} }
        @propertyWrapper public struct Transient<Value> {
            public var wrappedValue: Value
            public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
        }
        public enum DeleteRule { case nullify, cascade, deny, noAction }
        @propertyWrapper public struct Relationship<Value> {
            public var wrappedValue: Value
            public init(wrappedValue: Value, deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = nil, maximumModelCount: Int? = nil,
                        originalName: String? = nil) {
                self.wrappedValue = wrappedValue
            }
            public init<Root, Target>(wrappedValue: Value, deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = nil,
                                      maximumModelCount: Int? = nil, originalName: String? = nil, inverse: KeyPath<Root, Target>) {
                self.wrappedValue = wrappedValue
            }
        }
        public struct KeyPathList<Root> { public init(_ keyPaths: [PartialKeyPath<Root>]...) {} }
        """

    static let objcHeader = """
        __attribute__((objc_root_class))
        @interface NSObject
        - (id)valueForKey:(id)key;
        - (void)setValue:(id)value forKey:(id)key;
        @end
        @interface NSManagedObject : NSObject
        @end
        @interface NSFetchRequest<__covariant ResultType> : NSObject
        - (instancetype)initWithEntityName:(id)entityName;
        @end
        @interface NSSet : NSObject
        @end
        @interface NSOrderedSet : NSObject
        @end
        @interface NSNumber : NSObject
        @end
        @interface NSDecimalNumber : NSNumber
        @end
        @interface NSString : NSObject
        @end
        @interface NSDate : NSObject
        @end
        @interface NSUUID : NSObject
        @end
        @interface NSData : NSObject
        @end
        @interface NSURL : NSObject
        @end
        @interface NSDictionary : NSObject
        @end
        """

    /// The value types Foundation gives the Core Data source, bridged to their classes as
    /// Foundation bridges them (without that, `@NSManaged var s: String?` is refused).
    static let foundationValueStubs =
        "import Foundation\n"
        + ["Date", "UUID", "Data", "URL"].map { "public struct \($0): Hashable { public init() {} }" }
        .joined(separator: "\n") + "\n"
        + [("String", "NSString"), ("Date", "NSDate"), ("UUID", "NSUUID"), ("Data", "NSData"), ("URL", "NSURL")]
        .map { value, object in
            """
            extension \(value): _ObjectiveCBridgeable {
                public func _bridgeToObjectiveC() -> \(object) { fatalError() }
                public static func _forceBridgeFromObjectiveC(_ source: \(object), result: inout \(value)?) {}
                public static func _conditionallyBridgeFromObjectiveC(_ source: \(object), result: inout \(value)?) -> Bool { false }
                public static func _unconditionallyBridgeFromObjectiveC(_ source: \(object)?) -> \(value) { fatalError() }
            }
            """
        }.joined(separator: "\n")

    /// The compiler running the tests' toolchain: `swiftc` on the PATH, else /opt/swift's.
    typealias Failure = SwiftCompiler.Failure

    static func compiler() throws -> URL { try SwiftCompiler.path() }

    static func run(_ arguments: [String], in folder: URL) throws { try SwiftCompiler.run(arguments, in: folder) }

    /// Type-checks SwiftData source; throws the compiler's messages.
    static func checkSwiftData(_ source: String) throws {
        let folder = try temporaryFolder()
        try swiftDataStubs.write(to: folder.appendingPathComponent("SwiftData.swift"), atomically: true, encoding: .utf8)
        try run(
            [
                "-emit-module", "-module-name", "SwiftData", "-swift-version", "5", "-parse-as-library", "SwiftData.swift",
                "-emit-module-path", folder.appendingPathComponent("SwiftData.swiftmodule").path
            ], in: folder)
        var rewritten = source
        for macro in ["Unique", "Index"] {
            rewritten = rewritten.replacingOccurrences(
                of: #"#\#(macro)<(\w+)>\("#, with: "static let _\(macro.lowercased())_$1 = KeyPathList<$1>(",
                options: .regularExpression)
        }
        var lines: [String] = []
        for (n, line) in rewritten.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = String(line.prefix(line.count - trimmed.count))
            guard trimmed.hasPrefix("@Attribute("), !trimmed.contains("="), let close = trimmed.range(of: ") var ") else {
                lines.append(String(line))
                continue
            }
            let options = trimmed[trimmed.index(trimmed.startIndex, offsetBy: "@Attribute(".count)..<close.lowerBound]
            lines.append("\(indent)static let _attribute\(n) = AttributeOptionList(\(options))")
            lines.append("\(indent)@Attribute var " + trimmed[close.upperBound...])
        }
        rewritten = lines.joined(separator: "\n")
        try rewritten.write(to: folder.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        try run(["-typecheck", "-swift-version", "5", "-I", folder.path, "Model.swift"], in: folder)
    }

    /// Type-checks Core Data source with Objective-C interop; throws the compiler's messages.
    static func checkCoreData(_ source: String) throws {
        let folder = try temporaryFolder()
        let fm = FileManager.default
        let toolchainResources = try compiler().deletingLastPathComponent().resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("lib/swift")
        let resources = folder.appendingPathComponent("resources")
        let platform = resources.appendingPathComponent("linux")
        try fm.createDirectory(at: platform, withIntermediateDirectories: true)
        for item in try fm.contentsOfDirectory(atPath: toolchainResources.path) where item != "linux" {
            try fm.createSymbolicLink(at: resources.appendingPathComponent(item), withDestinationURL: toolchainResources.appendingPathComponent(item))
        }
        let linux = toolchainResources.appendingPathComponent("linux")
        for item in try fm.contentsOfDirectory(atPath: linux.path) where !item.contains("Foundation") {
            try fm.createSymbolicLink(at: platform.appendingPathComponent(item), withDestinationURL: linux.appendingPathComponent(item))
        }
        for (module, header) in [("Foundation", objcHeader), ("CoreData", "#import \"../Foundation/Foundation.h\"")] {
            let dir = folder.appendingPathComponent(module)
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            try header.write(to: dir.appendingPathComponent("\(module).h"), atomically: true, encoding: .utf8)
            try "module \(module) { header \"\(module).h\" export * }".write(
                to: dir.appendingPathComponent("module.modulemap"), atomically: true, encoding: .utf8)
        }
        try foundationValueStubs.write(to: folder.appendingPathComponent("Values.swift"), atomically: true, encoding: .utf8)
        try source.write(to: folder.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        try run(
            [
                "-typecheck", "-swift-version", "5", "-resource-dir", resources.path, "-I", folder.path,
                "-Xfrontend", "-enable-objc-interop", "Model.swift", "Values.swift"
            ], in: folder)
    }

    private static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-swiftcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

import Foundation

/// The toolchain's `swiftc`, for tests that prove emitted Swift by compiling it. A missing
/// compiler is a failure that says so, never a skip.
public enum SwiftCompiler {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static func path() throws -> URL {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin"]
        for folder in folders {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("swiftc")
            // Not resolved: swiftc is a link to swift-driver, which acts by the name it is run as.
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "no swiftc on the PATH or in /opt/swift/usr/bin")
    }

    /// Runs swiftc with `arguments` in `folder`; its output is the failure's text.
    public static func run(_ arguments: [String], in folder: URL) throws {
        let ended = try Subprocess.run(try path().path, arguments, in: folder.path)
        guard ended.status == 0 else {
            throw Failure(description: "swiftc \(arguments.joined(separator: " ")):\n" + String(decoding: ended.errors + ended.output, as: UTF8.self))
        }
    }

    /// Compiles `source` as a program with swiftc and runs it, returning its output lines;
    /// a failed compile or a program that does not exit 0 is a failure that says so.
    public static func compileAndRun(_ source: String) throws -> [String] {
        try compileAndRun(source, files: [:])
    }

    /// The same, with `files` written beside the program, which runs in their folder: data
    /// a program reads at run time costs the compiler nothing, unlike the same in literals.
    public static func compileAndRun(_ source: String, files: [String: Data], options: [String] = []) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try source.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        for (name, contents) in files { try contents.write(to: folder.appendingPathComponent(name)) }
        try run(["main.swift", "-o", "main"] + options, in: folder)
        let ended = try Subprocess.run(folder.appendingPathComponent("main").path, [], in: folder.path)
        guard ended.status == 0 else {
            throw Failure(
                description: "the compiled program exited with \(ended.status): " + String(decoding: ended.errors.suffix(2000), as: UTF8.self))
        }
        let printed = ended.output
        return String(decoding: printed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

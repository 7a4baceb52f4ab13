import Foundation
import QuarryModel
import QuarryStore
import Testing

/// Errors are values of the same kind on every engine, and read as the same line: a
/// user's script that handles one engine's refusal handles the other's. A refused save
/// writes nothing.
extension EngineSuite {
    static let coded = EntityDescription(
        name: "Coded",
        attributes: [
            AttributeDescription(name: "code", type: .string, isUnique: true), AttributeDescription(name: "small", type: .int16, isOptional: true)
        ])

    /// The line `body`'s error reads as; nil, recorded, when it threw none.
    static func line(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        Issue.record("no error")
        return nil
    }

    @Test(arguments: EngineUnderTest.allCases) func aUniqueValueTwiceIsRefusedAlike(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "unique") { store in
            let writer = try store.session()
            try writer.define(Self.coded)
            _ = try writer.insert(into: "Coded", values: ["code": .text("A")])
            try writer.save()
            _ = try writer.insert(into: "Coded", values: ["code": .text("B")])
            _ = try writer.insert(into: "Coded", values: ["code": .text("A")])
            do {
                try writer.save()
                Issue.record("\(engine): a second code A was saved")
            } catch let error as StoreError {
                let violation = try #require(error.constraintViolation, "\(engine): \(error)")
                #expect(violation.kind == .unique && violation.table == "Coded" && violation.columns == ["code"], "\(engine)")
                // The value and the refused object named besides, and the object holding the
                // value where the engine can read it (a server's refusal ended the transaction).
                let named = " 'A' of Coded/t3 is held by " + (engine == .sqlite ? "Coded/1" : "another row")
                #expect("\(error)" == "UNIQUE constraint failed: Coded.code" + named, "\(engine)")
            }
            #expect(writer.hasChanges, "\(engine)")
            // Nothing of the save was written: not even the other object.
            #expect(try Self.request("Coded").count(in: try store.session()) == 1, "\(engine)")
            // Two new objects giving one value: the second is refused, naming the first.
            _ = writer.rollback()
            let first = try writer.insert(into: "Coded", values: ["code": .text("Z")])
            let second = try writer.insert(into: "Coded", values: ["code": .text("Z")])
            do {
                try writer.save()
                Issue.record("\(engine): two codes Z were saved")
            } catch let error as StoreError {
                let said = "UNIQUE constraint failed: Coded.code 'Z' of \(second.objectID) is held by \(first.objectID), also new in this save"
                #expect("\(error)" == said, "\(engine)")
            }
        }
    }

    @Test(arguments: EngineUnderTest.allCases) func anUnknownEntityIsNamedWithItsNearestAlike(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "unknown") { store in
            let session = try store.session()
            try session.define(Self.coded)
            let unknown = StoreError.unknownEntity(name: "Cooded", suggestion: "Coded")
            #expect(throws: unknown) { try Self.request("Cooded").execute(in: session) }
            #expect(throws: unknown) { try session.insert(into: "Cooded", values: [:]) }
            #expect(Self.line { _ = try Self.request("Cooded").count(in: session) } == "unknown entity 'Cooded' (did you mean 'Coded'?)")
        }
    }

    /// Values an attribute cannot hold, and keys it does not have, refused before any
    /// SQL runs: the same words on every engine.
    @Test(arguments: EngineUnderTest.allCases) func badValuesAndKeysAreRefusedAlike(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "badvalues") { store in
            let session = try store.session()
            try session.define(Self.coded)
            let object = try session.insert(into: "Coded", values: ["code": .text("A")])
            let lines = [
                Self.line { try object.setValue(.integer(40_000), forKey: "small") },
                Self.line { try object.setValue(.text("x"), forKey: "small") },
                Self.line { try object.setValue(.text("x"), forKey: "nosuch") },
                Self.line { _ = try Self.request("Coded", "smal == 1").count(in: session) }
            ]
            #expect(
                lines == [
                    "Coded.small expects int16, got integer (40000)", #"Coded.small expects int16, got string ("x")"#,
                    "unknown key 'nosuch' on entity Coded", "predicate: unknown key path 'smal' on entity Coded (did you mean 'small'?) at column 1"
                ], "\(engine)")
            try session.save()
            #expect(try Self.request("Coded", "small == nil").count(in: try store.session()) == 1, "\(engine)")
        }
    }
}

import Foundation
import QuarryModel
import QuarryStore
import Testing

/// Every attribute type, saved by one session and read back by another (from the store,
/// not from the first session's objects), nil included.
extension EngineSuite {
    /// The sample's values as the context holds them once set (a uuid in upper case).
    static func coerced(_ values: [String: Value]) -> [String: Value] {
        var result = values
        for attribute in sample.attributes {
            if let value = values[attribute.name], case .success(let held) = attribute.type.coerce(value) { result[attribute.name] = held }
        }
        return result
    }

    /// The samples' values as another session reads them, by label.
    static func storedSamples(_ store: EngineStore) throws -> [String: [String: Value]] {
        let reader = try store.session()
        var found: [String: [String: Value]] = [:]
        for object in try request("Sample").execute(in: reader).objects() {
            guard case .text(let label) = try object.value(forKey: "label") else { continue }
            found[label] = Dictionary(uniqueKeysWithValues: try sample.attributeNames.map { ($0, try object.value(forKey: $0)) })
        }
        return found
    }

    @Test(arguments: EngineUnderTest.allCases) func everyTypeGoesBackAsItWasSaved(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "values") { store in
            let writer = try store.session()
            try writer.define(Self.sample)
            for values in Self.samples { _ = try writer.insert(into: "Sample", values: values) }
            #expect(try writer.save() == SaveSummary(inserted: Self.samples.count))
            let found = try Self.storedSamples(store)
            #expect(found.count == Self.samples.count)
            for values in Self.samples.map(Self.coerced) {
                guard case .text(let label) = values["label"], let stored = found[label] else {
                    Issue.record("\(engine): no sample \(values["label"] ?? .null) read back")
                    continue
                }
                for attribute in Self.sample.attributes {
                    #expect(stored[attribute.name] == values[attribute.name], "\(engine): \(label).\(attribute.name)")
                }
            }
        }
    }

    /// Changes to every type, and to nil and back, saved as updates.
    @Test(arguments: EngineUnderTest.allCases) func everyTypeIsUpdatedInPlace(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "updates") { store in
            let writer = try store.session()
            try writer.define(Self.sample)
            let low = try writer.insert(into: "Sample", values: Self.samples[0])
            let nils = try writer.insert(into: "Sample", values: Self.samples[2])
            try writer.save()
            // Each takes the other's values (the label kept).
            for attribute in Self.sample.attributes where attribute.name != "label" {
                try low.setValue(Self.samples[2][attribute.name] ?? .null, forKey: attribute.name)
                try nils.setValue(Self.samples[1][attribute.name] ?? .null, forKey: attribute.name)
            }
            #expect(try writer.save() == SaveSummary(updated: 2))
            let found = try Self.storedSamples(store)
            let expected = Self.coerced(Self.samples[1])
            for attribute in Self.sample.attributes where attribute.name != "label" {
                #expect(found["low"]?[attribute.name] == .null, "\(engine): low.\(attribute.name)")
                #expect(found["nils"]?[attribute.name] == expected[attribute.name], "\(engine): nils.\(attribute.name)")
            }
        }
    }

    /// A decimal keeps its digits where the engine stores decimals exactly: PostgreSQL's
    /// `numeric` gives back the text it was given, trailing zeros and all, however many
    /// digits; a SQLite file keeps a decimal as a double, which gives back the shortest
    /// text of that double (a whole one with `.0`: `12` reads `12.0`), and a decimal of
    /// more digits than a double holds is refused at the save. The engines differ here
    /// today: the test says what each does.
    @Test(arguments: EngineUnderTest.allCases) func decimalsKeepTheirDigitsAsTheEngineStoresThem(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "decimals") { store in
            let writer = try store.session()
            try writer.define(Self.sample)
            let given = ["0.10", "1.5", "-0.000125", "12", "0"]
            for (index, text) in given.enumerated() {
                _ = try writer.insert(into: "Sample", values: ["label": .text("d\(index)"), "dec": .decimal(text)])
            }
            try writer.save()
            let read = try given.indices.map { try Self.storedSamples(store)["d\($0)"]?["dec"] ?? .null }
            let long = "12345678901234567890.123456789"
            _ = try writer.insert(into: "Sample", values: ["label": .text("long"), "dec": .decimal(long)])
            switch engine {
            case .postgres:
                #expect(read == given.map(Value.decimal))
                try writer.save()
                #expect(try Self.storedSamples(store)["long"]?["dec"] == .decimal(long))
            case .sqlite:
                // A double's shortest text: the trailing zero is gone.
                #expect(read == given.map { .decimal(ExactDecimal(double: Double($0) ?? .nan)?.description ?? "?") })
                #expect(read[0] == .decimal("0.1") && read[3] == .decimal("12.0") && read[4] == .decimal("0.0"))
                let refusal = Self.line { try writer.save() } ?? ""
                #expect(refusal.hasPrefix("save: Sample.dec of Sample/"), "\(refusal)")
                #expect(
                    refusal.hasSuffix(
                        "is decimal \(long), more digits than the double this store keeps it as (it would read back as 12345678901234567000)"))
                #expect(try Self.storedSamples(store)["long"] == nil)
            }
        }
    }

    /// A date keeps its double's fraction on SQLite, and PostgreSQL's timestamp keeps
    /// microseconds (the nearest); a double's negative zero keeps its sign on PostgreSQL
    /// and reads as zero on SQLite. The engines differ here today.
    @Test(arguments: EngineUnderTest.allCases) func datesAndZerosAtEachEnginesPrecision(_ engine: EngineUnderTest) async throws {
        try await EngineStore.with(engine, "precision") { store in
            let writer = try store.session()
            try writer.define(Self.sample)
            let (micro, finer) = (1_700_000_000.123456, 1_700_000_000.1234567)
            _ = try writer.insert(into: "Sample", values: ["label": .text("micro"), "t": .date(micro), "d": .real(-0.0)])
            _ = try writer.insert(into: "Sample", values: ["label": .text("finer"), "t": .date(finer)])
            try writer.save()
            let found = try Self.storedSamples(store)
            #expect(found["micro"]?["t"] == .date(micro), "\(engine)")
            guard case .real(let zero)? = found["micro"]?["d"] else {
                Issue.record("\(engine): no double read back")
                return
            }
            switch engine {
            case .sqlite:
                #expect(found["finer"]?["t"] == .date(finer))
                #expect(zero == 0 && zero.sign == .plus)
            case .postgres:
                #expect(found["finer"]?["t"] == .date((finer * 1_000_000).rounded() / 1_000_000))
                #expect(found["finer"]?["t"] != .date(finer))
                #expect(zero == 0 && zero.sign == .minus)
            }
        }
    }
}

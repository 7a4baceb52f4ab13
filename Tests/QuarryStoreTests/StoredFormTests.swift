import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Rows as the context keeps them (`Value.storedForm`): the storage form, its comparison,
/// hash and message wording agree with GRDB's `DatabaseValue`, which the identity map held
/// before, so no decision taken on them moved.
@Suite struct StoredFormTests {
    /// Values of every kind, with the neighbours a comparison could confuse.
    private let samples: [Value] = [
        .null, .integer(0), .integer(1), .integer(-7), .integer(Int64.max), .real(0), .real(1), .real(1.5), .real(-7),
        .real(9_223_372_036_854_775_807.0), .real(.nan), .real(.infinity), .text(""), .text("1"), .text("é"), .text("e\u{301}"),
        .text("a\0b"), .blob([]), .blob([1, 2, 3]), .blob([1, 2, 4]), .bool(true), .bool(false), .date(0), .date(1.5)
    ]

    /// A decimal's storage form is its text, whichever engine read it (PostgreSQL's numeric
    /// keeps every digit), while SQLite is given its nearest double, which is what the
    /// decimal attribute's REAL column keeps (issue 61, round five): the one kind whose
    /// storage form and SQLite value differ.
    @Test func aDecimalIsStoredAsItsTextAndBoundToSQLiteAsADouble() {
        #expect(Value.decimal("195.10").storedForm == .text("195.10"))
        #expect(Value(Value.decimal("195.10").databaseValue) == .real(195.1))
        #expect(Value(Value.decimal("1").databaseValue) == .real(1))
        #expect(Value.storedEqual(.decimal("1"), .decimal("1")) && !Value.storedEqual(.decimal("1"), .decimal("1.0")))
        #expect(Value.decimal("195.10").storedDescription == "\"195.10\"")
    }

    @Test func storedFormIsWhatSQLiteKeepsOfTheValue() {
        // NaN is no `==` of itself: its storage form is checked by kind.
        for value in samples {
            if case .real(let x) = value.storedForm, x.isNaN {
                guard case .real(let y) = Value(value.databaseValue), y.isNaN else {
                    Issue.record("\(value)")
                    continue
                }
                continue
            }
            #expect(value.storedForm == Value(value.databaseValue), "\(value)")
        }
        #expect(Value.bool(true).storedForm == .integer(1))
        #expect(Value.date(1.5).storedForm == .real(1.5))
        #expect(Value.decimal("195.10").storedForm == .text("195.10"))
    }

    @Test func storedValuesCompareAsDatabaseValuesDo() {
        for a in samples {
            for b in samples {
                #expect(Value.storedEqual(a, b) == (a.databaseValue == b.databaseValue), "\(a) \(b)")
            }
        }
        #expect(Value.storedEqual(.integer(1), .real(1)))
        #expect(!Value.storedEqual(.integer(1), .text("1")))
    }

    /// Stored values that compare equal hash alike, as GRDB's do; NULL no longer hashes as
    /// the number 0 (GRDB's hash), which hid a change from NULL to 0 from observers
    /// (`OutsideChangeObserverTests.aChangeFromNullToZeroIsHeard`).
    @Test func storedValuesThatCompareEqualHashAlike() {
        func hash(_ value: Value) -> Int {
            var hasher = Hasher()
            value.hashStored(into: &hasher)
            return hasher.finalize()
        }
        for a in samples {
            for b in samples where Value.storedEqual(a, b) {
                #expect(hash(a) == hash(b), "\(a) \(b)")
            }
        }
        for other in [Value.integer(0), .real(0), .text(""), .blob([]), .bool(false)] {
            #expect(hash(.null) != hash(other), "\(other)")
        }
        var one = Hasher()
        var other = Hasher()
        Value.integer(1).hashStored(into: &one)
        Value.real(1).hashStored(into: &other)
        #expect(one.finalize() == other.finalize())
    }

    @Test func storedValuesAreQuotedAsDatabaseValuesWere() {
        for value in samples {
            #expect(value.storedDescription == "\(value.databaseValue)", "\(value)")
        }
        #expect(Value.text("x").storedDescription == "\"x\"")
    }

    @Test func keysOfAStoredRowReadAsGRDBReadThem() throws {
        let row: [Value] = [.integer(3), .real(4.9), .text("5"), .null]
        #expect(try row.storedInteger(at: 0, table: "T", column: "k") == 3)
        #expect(try row.storedInteger(at: 1, table: "T", column: "k") == 4)
        #expect(throws: StoreError.unexpectedValue(table: "T", column: "k", found: "text", expected: "an integer")) {
            try row.storedInteger(at: 2, table: "T", column: "k")
        }
        #expect(throws: StoreError.missingColumn(table: "T", column: "k")) { try row.storedInteger(at: 4, table: "T", column: "k") }
        #expect(try row.storedIntegerIfPresent(at: 3, table: "T", column: "k") == nil)
    }
}

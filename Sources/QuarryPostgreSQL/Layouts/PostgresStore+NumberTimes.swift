import QuarryModel
import QuarryStore

/// `format()` on a schema's table: its columns are typed, so what a format may declare is
/// a time kept in a number column (`unix-ms`, `webkit`, ...), or `plain` again. The
/// declaration lasts the session (`keep` keeps none): the column reads, compares, sorts
/// and exports as a date (`PostgreSQLDialect.numberTime`), and a date is written back as
/// the column's number (`PostgresNumberTimes`).
extension PostgresStore {
    package func refuseFormat(_ format: ColumnFormat, of entity: EntityDescription, _ original: AttributeDescription, session: StoreSession) throws {
        let storage = session.mapped(entity)
        let refuse = { (reason: String) in StoreError.invalidSchema(entity: entity.name, reason: reason) }
        guard storage.layout == .foreignTable else {
            throw refuse("\(entity.name) is a view of the server, whose columns are typed: format() declares times in a table's number columns")
        }
        if format == .plain { return }
        // An ISO layout's name is its example: the column is named instead.
        guard format.isNumberTime else {
            throw refuse(
                "\(original.name) is a PostgreSQL column, which the server types: format() declares only times kept in a number column ("
                    + ColumnFormat.numberTimeNames.joined(separator: ", ") + "), or plain")
        }
        let name = original.name
        let numbers: [AttributeType] = [.int16, .int32, .int64, .double, .decimal]
        guard numbers.contains(original.type), !storage.numericCasts.contains(name), !storage.intervalColumns.contains(name) else {
            let kind = storage.numericCasts.contains(name) ? "money" : storage.intervalColumns.contains(name) ? "interval" : original.type.rawValue
            throw refuse(
                "'\(format.name)' is no format for \(kind) column \(name): "
                    + (original.type == .date ? "the server keeps it as a date already" : "times are declared in a column of numbers"))
        }
    }

    /// The time layout declared for the column, else `plain`: a server's column keeps its
    /// own type, which nothing else reformats.
    package func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, session: StoreSession) throws -> String? {
        session.mapping.declaredFormats[entity.name]?[attribute.name]?.name ?? "plain"
    }
}

/// Dates written to number columns `format()` declared to hold times: each as the
/// column's own number, nil as its "never" number.
enum PostgresNumberTimes {
    /// How one column keeps its times, as a write needs it.
    struct Column {
        let entity: String
        let name: String
        let scale: EntityStorage.NumericDateScale
        /// Whether the column holds integers (a whole count), not a float or `numeric`.
        let integer: Bool
        let format: String

        /// Column `name` of `entity` when `format()` declared it a time kept as a number on
        /// the server (`NumericDateScale.typed`); nil for any other column.
        init?(_ name: String, of entity: EntityDescription, session: StoreSession) {
            guard let scale = session.mapped(entity).numericDates[name], scale.typed != nil,
                let column = session.mapping.numberColumnsAsDates[entity.name]?[name]
            else { return nil }
            self.entity = entity.name
            self.name = name
            self.scale = scale
            self.integer = [.int16, .int32, .int64].contains(column.type)
            self.format = session.mapping.declaredFormats[entity.name]?[name]?.name ?? "a number"
        }

        /// `value` as written: a date as a whole count of the column's unit in an integer
        /// column (the nearest, exact to what the date holds), as the number with its
        /// fraction in a float or numeric column; nil as "never" where one is declared;
        /// any other value as it is.
        func written(_ value: Value) throws -> Value {
            guard case .date(let seconds) = value else { return value.isNull ? scale.never.map(Value.integer) ?? value : value }
            // Within the years 0001 to 9999 (the dates Quarry takes), as any date written.
            guard Value.dateRange.contains(seconds) else {
                throw StoreError.validation(
                    message: "\(entity).\(name) keeps dates as \(format): \(value.displayString) is past the years 0001 to 9999; nothing was written")
            }
            let number: Double
            switch scale.unit {
            case .julianDay: number = seconds / 86_400 + 2_440_587.5
            case .count(let n, let epoch):
                guard integer else { return .real((seconds - Double(epoch)) * Double(n)) }
                guard let count = scale.count(seconds) else {
                    throw StoreError.validation(
                        message:
                            "\(entity).\(name) keeps dates as \(format), which \(scale.countRefusal(value)); nothing was written"
                    )
                }
                return .integer(count)
            }
            guard integer else { return .real(number) }
            return Int64(exactly: number.rounded()).map(Value.integer) ?? .real(number)
        }
    }

    /// `value` as written to `name` of `entity` (`Column.written`).
    /// A value the column cannot hold is refused naming `operation` (`save:`, `updateall:`),
    /// as a SQLite file's column formats refuse it.
    static func written(_ value: Value, _ name: String, of entity: EntityDescription, session: StoreSession, operation: String) throws -> Value {
        guard let column = Column(name, of: entity, session: session) else { return value }
        do { return try column.written(value) } catch let error as StoreError { throw StoreError.during(operation: operation, error) }
    }
}

import QuarryModel

/// A column of another program's table or view as an attribute, decided once for every
/// engine from its description (`ForeignSchema`): an attribute is optional where its
/// column takes NULL, where a new object may have no value for it until the engine fills
/// it (a default the engine computes or reads from a clock), or where it is the row's
/// identity, which the engine or the store gives. A NOT NULL column with a constant
/// default is required: a new object starts with the default, and `o.n = nil` is refused
/// at once, naming the attribute, rather than by the engine at the save. A key column
/// nothing fills is one a new row must be given; a computed column is never written. Each
/// engine only types the declared type its way and says what its own storage needs
/// (SQLite's clock defaults and numeric dates, PostgreSQL's text casts and day columns),
/// answering `ForeignSchemaEngine` for `ForeignSchema+Entities`.
extension ForeignSchema.Column {
    /// The column as an attribute of `type`; `isKey`: it is (part of) what the row is
    /// known by, given by the engine or by the store rather than by the object.
    func attribute(_ type: AttributeType, isKey: Bool, defaultValue: Value? = nil) -> AttributeDescription {
        AttributeDescription(
            name: name, type: type, isOptional: !notNull || isKey || (hasDefault && defaultValue == nil), defaultValue: defaultValue,
            enumeration: enumeration)
    }

    /// The column of a view as an attribute of `type`: optional, as nothing inserts into a view.
    func viewAttribute(_ type: AttributeType) -> AttributeDescription {
        AttributeDescription(name: name, type: type, isOptional: true, enumeration: enumeration)
    }
}

extension ForeignSchema {
    /// The columns among `keys` that a new row must be given, in the table's order:
    /// nothing (no default, serial or identity) fills them.
    static func keysToGive(_ columns: [Column], among keys: [String]) -> [String] {
        columns.filter { keys.contains($0.name) && !$0.hasDefault }.map(\.name)
    }
}

extension ForeignSchema.Relation {
    /// The columns the engine computes (`GENERATED ALWAYS`), never written.
    var generatedColumns: Set<String> { Set(columns.filter(\.generated).map(\.name)) }
}

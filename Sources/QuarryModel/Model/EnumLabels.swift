/// A server's enum type as an attribute carries it (PostgreSQL's `CREATE TYPE mood AS
/// ENUM ('sad', 'ok', 'happy')`): the attribute is a string, equal to its label, but
/// ordered by the labels' order (`pg_enum.enumsortorder`), as the server orders it. The
/// labels travel with the attribute, so memory (`matches`, observers, unsaved objects)
/// orders as the server's SQL does; `sqlType` names the type, so the SQL orders by it.
public struct EnumLabels: Encodable, Equatable, Sendable {
    /// The type's name, as messages say it (`mood`).
    public let name: String
    /// The type as SQL names it, schema-qualified and quoted (`"en"."mood"`).
    public let sqlType: String
    /// The labels in the type's order.
    public let labels: [String]
    private let positions: [String: Int]

    public init(name: String, sqlType: String, labels: [String]) {
        self.name = name
        self.sqlType = sqlType
        self.labels = labels
        var positions: [String: Int] = [:]
        for (i, label) in labels.enumerated() where positions[label] == nil { positions[label] = i }
        self.positions = positions
    }

    private enum CodingKeys: String, CodingKey { case name, labels }

    public static func == (a: EnumLabels, b: EnumLabels) -> Bool { a.sqlType == b.sqlType && a.labels == b.labels }

    /// The label's place in the type's order; nil for anything that is not one.
    public func position(of value: Value) -> Int? {
        guard case .text(let text) = value else { return nil }
        return positions[text]
    }

    /// `value` as the order compares it: a label as its place (an integer), nil as nil,
    /// anything else as it is (it is refused before it is compared: `refusal`).
    public func orderValue(_ value: Value) -> Value {
        position(of: value).map { .integer(Int64($0)) } ?? value
    }

    /// The label at place `value` (an `orderValue`), anything else as it is.
    public func label(_ value: Value) -> Value {
        guard case .integer(let i) = value, i >= 0, i < labels.count else { return value }
        return .text(labels[Int(i)])
    }

    /// Why `value` has no place in the order (psql's "invalid input value for enum"),
    /// naming the labels; nil for a label or nil.
    public func refusal(_ value: Value, attribute: String) -> String? {
        if value.isNull || position(of: value) != nil { return nil }
        let given: String
        if case .text(let text) = value { given = "'\(text)'" } else { given = value.described }
        return "'\(attribute)' is of enum \(name), ordered \(shownLabels); \(given) is none of its labels"
    }

    /// The labels in order, as a message shows them (a long list is cut).
    public var shownLabels: String { listed { "'\($0)'" } }

    /// The labels in order, each quoted by `quote`, a long list cut after 12.
    public func listed(_ quote: (String) -> String) -> String {
        labels.prefix(12).map(quote).joined(separator: " < ") + (labels.count > 12 ? " < ... (\(labels.count) labels)" : "")
    }

    /// `sql`, a value of the enum or one of its labels, as SQL orders it: cast to the type.
    public func cast(_ sql: String) -> String { "CAST(\(sql) AS \(sqlType))" }

    /// `function` (min or max) of `sql`'s values in the labels' order, read as its text
    /// again, as the enum's column is.
    public func extreme(_ function: String, of sql: String, distinct: String = "") -> String {
        "CAST(\(function)(\(distinct)\(cast(sql))) AS text)"
    }
}

extension AttributeDescription {
    /// `value` as this attribute holds it: its type's coercion, and for an enum's
    /// attribute one of the labels, as the server takes no other (checked here so a
    /// bad label is refused when given, not at save).
    public func coerce(_ value: Value) -> Result<Value, CoercionFailure> {
        let coerced = type.coerce(value)
        guard let enumeration, case .success(let v) = coerced, !v.isNull, enumeration.position(of: v) == nil else { return coerced }
        return .failure(
            CoercionFailure(
                expected: "one of enum \(enumeration.name)'s labels (\(enumeration.labels.map { "'\($0)'" }.joined(separator: ", ")))", given: value))
    }
}

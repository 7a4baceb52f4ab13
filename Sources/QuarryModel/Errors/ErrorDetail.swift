/// Detail an error carries for a caller to read beside its message, which already says
/// it in words (the column an import failure names). It never makes two errors unequal:
/// errors compare by what they say, as tests and callers have compared them since before
/// the detail was kept, so equal errors stay equal whatever detail the throw site knew.
public struct ErrorDetail<Value: Sendable>: Equatable, Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
    public static func == (lhs: Self, rhs: Self) -> Bool { true }
}

extension ErrorDetail: ExpressibleByNilLiteral where Value: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { value = nil }
}

import QuarryModel

/// Text columns that hold times of day (GTFS's `arrival_time`, "08:15:00", and "25:10:00"
/// past midnight of a service day): no date, so `arrival_time.hour` has nothing to read.
/// Told from a sample of the values, so that a refusal says what the column holds and
/// what reads its hours, instead of that it is no relationship.
extension ObjectContext {
    /// The first of `column`'s sampled values when every one is text of the form `H:MM`,
    /// `HH:MM:SS` or with fractional seconds (hours past 24 included); nil otherwise.
    public func timeOfDayExample(_ entity: EntityDescription, _ column: String) -> String? {
        guard entity.attribute(named: column)?.type == .string else { return nil }
        var first: String?
        for value in sampledValues(entity, column) {
            guard case .text(let text) = value, Self.isTimeOfDay(text) else { return nil }
            first = first ?? text
        }
        return first
    }

    /// `8:15`, `08:15:00`, `25:10:00.5`: one to three digits of hours, then minutes and
    /// optionally seconds of two digits each, below 60.
    static func isTimeOfDay(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...3).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit) else { return false }
        for (i, part) in parts.enumerated().dropFirst() {
            let whole = i == 2 ? part.prefix(while: { $0 != "." }) : part
            guard whole.count == 2, whole.allSatisfy(\.isASCIIDigit), let number = Int(whole), number < 60 else { return false }
            let fraction = part.dropFirst(whole.count)
            if !fraction.isEmpty, fraction.count < 2 || !fraction.dropFirst().allSatisfy(\.isASCIIDigit) { return false }
        }
        return true
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// An option given a value it cannot take, as data: `<option> must be <expected>[, got
/// <given>]`, e.g. `fetch: batch must be 0 or more, got -1`. Every layer that reads
/// options (fetch requests, the Lua bindings) throws this one shape, so the sentence is
/// written once, here, and a caller can still read which option failed and what it was
/// given; `ErrorRendering` alone adds the operation, suggestion and remedy around it.
///
/// The parts are kept as the message shows them (quotes included), so the line reads
/// exactly as the throw sites wrote it before they shared this type.
public struct OptionError: QuarryError, Equatable, Sendable {
    /// The option as the message names it: a key of an options table (`batch`), or an
    /// entry inside one (`vars.LIMIT`, `properties[2]`, `entry 3` of a sort list).
    public var option: String
    /// What holds the option when it is not the call's own options table: an attribute
    /// of `entity{}` (`'title'`), import's `types` table; rendered in front, as
    /// `'title': delete must be ...`.
    public var owner: String?
    /// What it must be, as the sentence goes on: `0 or more`, `a table of strings`.
    public var expected: String
    /// What was given, as shown: a Lua type name (`boolean`), a number, or text in
    /// quotes (`'fast'`); nil when the message does not say.
    public var given: String?
    public var operation: String?
    public var suggestion: String?
    public var remedy: String?

    public init(
        _ option: String, mustBe expected: String, got given: String? = nil, in owner: String? = nil,
        operation: String? = nil, suggestion: String? = nil, remedy: String? = nil
    ) {
        self.option = option
        self.expected = expected
        self.given = given
        self.owner = owner
        self.operation = operation
        self.suggestion = suggestion
        self.remedy = remedy
    }

    public var message: String {
        (owner.map { "\($0): " } ?? "") + "\(option) must be \(expected)" + (given.map { ", got \($0)" } ?? "")
    }
}

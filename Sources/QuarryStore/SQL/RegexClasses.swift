/// What ICU's `\d`, `\w` and `\s` match (read off this toolchain's NSRegularExpression by
/// scripts/fold-tables), as the inside of a POSIX bracket expression of code point
/// escapes: PostgreSQL's own `\d` is its locale's (ASCII digits in `C`), where MATCHES
/// means ICU's Unicode digits (٣ and ３ among them). `FoldTablesTests` checks the tables
/// against NSRegularExpression on every scalar.
public enum RegexClasses {
    /// The class of `\d`, `\w` or `\s` (by its letter, lowercase), nil for another.
    public static func inside(_ letter: Unicode.Scalar) -> String? {
        switch letter {
        case "d": return digit
        case "w": return word
        case "s": return space
        default: return nil
        }
    }

    static let digit = UnicodeFoldTables.regexClass(UnicodeFoldTables.ranges(UnicodeFoldTables.regexDigit))
    static let word = UnicodeFoldTables.regexClass(UnicodeFoldTables.ranges(UnicodeFoldTables.regexWord))
    static let space = UnicodeFoldTables.regexClass(UnicodeFoldTables.ranges(UnicodeFoldTables.regexSpace))
}

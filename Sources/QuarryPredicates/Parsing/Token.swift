/// One lexical unit of a predicate format string.
struct Token: Equatable {
    enum Kind: Equatable {
        case identifier(String) // a name or a reserved word; the parser decides which
        case string(String)
        case integer(Int64)
        case real(Double)
        /// 9223372036854775808: an integer only after a minus sign (Int64.min).
        case integerMagnitudeOverflow
        case symbol(String) // == != < <= > >= && || ! ( ) { } [ ] , . + - * / **
        case substitution(Character) // %@ %K %d %i %f %s
        case variable(String) // $NAME
        case end
    }
    var kind: Kind
    /// 1-based column of the token's first character.
    var column: Int
}

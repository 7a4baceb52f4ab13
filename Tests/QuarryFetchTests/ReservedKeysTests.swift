import Testing

@testable import QuarryFetch
@testable import QuarryPredicates

/// A reserved word written as a key gets its `#` only where the grammar could not read it
/// as the word: the rewritten text parses where the text as written was refused, and
/// nothing the grammar reads as its word changes.
@Suite struct ReservedKeysTests {
    private let keys: Set<String> = ["first", "last", "size", "in", "tags", "owner"]

    private func escaped(_ text: String, expression: Bool = true) -> String {
        ReservedKeys.escaped(text, expression: expression) { keys.contains($0) }.text
    }

    /// The words are the grammar's: a word added there is rewritten here too.
    @Test func theWordsAreThePredicateGrammars() {
        #expect(ReservedKeys.words == PredicateParser.reserved)
        #expect(ReservedKeys.indexWords.isSubset(of: ReservedKeys.words) && ReservedKeys.operandWords.isSubset(of: ReservedKeys.words))
    }

    @Test func aKeyStandingAsAnOperandGetsItsHash() throws {
        #expect(escaped("size / 1048576") == "#size / 1048576")
        #expect(escaped("first + last") == "#first + #last")
        #expect(escaped("owner.size * 2") == "owner.#size * 2")
        #expect(escaped("in * 2") == "#in * 2")
        // `in` was refused as written and parses now; `size` and `owner.size` stand where
        // the grammar reads only a key, and parse to the same either way.
        #expect(throws: PredicateError.self) { try PredicateParser.parseExpression("in * 2") }
        _ = try PredicateParser.parseExpression(escaped("in * 2"))
        for text in ["size / 1048576", "owner.size * 2"] {
            func shown(_ e: QuarryPredicates.Expression) -> String {
                Predicate.comparison(Comparison(lhs: e, op: .equal, rhs: .constant(.null, column: 0))).description
            }
            #expect(try shown(PredicateParser.parseExpression(text)) == shown(PredicateParser.parseExpression(escaped(text))), "\(text)")
        }
    }

    @Test func whatTheGrammarReadsAsItsWordIsLeftAsItIs() {
        // Inside [ ], in a string, after '#', as a function, as a value.
        for text in ["tags[size]", "tags[ FIRST ]", "'size' + first:(x)", "#size", "size(x)", "nil", "TRUE", "SELF.size"] {
            let expected = text == "SELF.size" ? "SELF.#size" : text
            #expect(escaped(text) == expected, "\(text)")
        }
        // In a predicate only the index words change: `in` is an operator there, and inside
        // a SUBQUERY, whose condition is a predicate.
        #expect(escaped("first IN {'a'} AND size > 3", expression: false) == "#first IN {'a'} AND #size > 3")
        #expect(escaped("SUBQUERY(tags, $t, $t.size > 1 AND first IN {'a'}).@count") == "SUBQUERY(tags, $t, $t.#size > 1 AND #first IN {'a'}).@count")
        // A word that is no key keeps the grammar's own message.
        #expect(escaped("any + 1") == "any + 1")
    }

    @Test func aColumnInTheRewrittenTextIsTurnedBackIntoTheWrittenOne() {
        let (text, inserted) = ReservedKeys.escaped("first + last + nope", expression: true) { keys.contains($0) }
        #expect(text == "#first + #last + nope")
        // `nope` is at column 17 as written, 19 rewritten.
        #expect(ReservedKeys.originalColumn(19, inserted: inserted) == 17)
        #expect(ReservedKeys.originalColumn(1, inserted: inserted) == 1)
        #expect(ReservedKeys.originalColumn(10, inserted: inserted) == 9)
    }

    @Test func aSortKeyDropsTheHashOfEachStep() {
        #expect(SortDescriptor(parsing: "-#first") == SortDescriptor(key: "first", ascending: false))
        #expect(SortDescriptor(parsing: "owner.#size").key == "owner.size")
        #expect(SortDescriptor(parsing: "+size").key == "size")
        // An aggregate a dictionary request sorts by is read as a property is.
        #expect(SortDescriptor(parsing: "-sum(#size)").key == "sum(#size)")
    }
}

import QuarryPredicates
import SwiftSyntax

/// An operator sequence as Quarry folds it. swift-syntax's parser leaves `a || b || c`
/// flat (a `SequenceExprSyntax`); SwiftOperators would fold it into a tree as deep as the
/// chain, which every later visit recurses through. Here `&&` and `||` chains stay flat
/// lists, and other operators nest only as deep as a format string may.
indirect enum SwiftTerm {
    /// An operand: an expression with no operator sequence at its top.
    case operand(ExprSyntax)
    /// `lhs op rhs`, `op` being the operator's syntax.
    case infix(String, ExprSyntax, SwiftTerm, SwiftTerm)
    /// `a && b && ...` or `a || b || ...` ("&&" or "||").
    case chain(String, [SwiftTerm])
    /// `condition ? then : otherwise`, the ternary's syntax second.
    case conditional(SwiftTerm, ExprSyntax, then: SwiftTerm, otherwise: SwiftTerm)

    /// `c ? a : b` or `x ?? d`: a value one of two others gives.
    var isConditionalValue: Bool {
        switch self {
        case .conditional: return true
        case .infix(let op, _, _, _): return op == "??"
        default: return false
        }
    }

    /// Where the term starts.
    var node: Syntax {
        switch self {
        case .operand(let e): return Syntax(e)
        case .infix(_, _, let lhs, _): return lhs.node
        case .chain(_, let terms): return terms[0].node
        case .conditional(let condition, _, _, _): return condition.node
        }
    }
}

extension SwiftPredicateTranslator {
    /// Precedence (higher binds tighter) and whether equal ones group to the left; nil
    /// for an associativity error when repeated (Swift's comparisons and ranges).
    private static let precedences: [String: (Int, left: Bool?)] = [
        "==": (3, nil), "!=": (3, nil), "<": (3, nil), "<=": (3, nil), ">": (3, nil), ">=": (3, nil),
        "===": (3, nil), "!==": (3, nil), "~=": (3, nil),
        "??": (4, false),
        "...": (5, nil), "..<": (5, nil),
        "+": (6, true), "-": (6, true), "|": (6, true), "^": (6, true), "&+": (6, true), "&-": (6, true),
        "*": (7, true), "/": (7, true), "%": (7, true), "&": (7, true), "&*": (7, true),
        "<<": (8, true), ">>": (8, true)
    ]

    /// `node` without its parentheses, folded when it is an operator sequence.
    func term(_ node: ExprSyntax) throws -> SwiftTerm {
        let e = unparenthesised(node)
        guard let sequence = e.as(SequenceExprSyntax.self) else { return .operand(e) }
        return try fold(sequence)
    }

    /// Splits at `||`, then at `&&` (the two lowest precedences Swift's standard library
    /// gives a Bool), and folds each part's other operators by precedence climbing without
    /// recursion; `a + b + ...` nests one level per operator, bounded as the format
    /// grammar bounds it.
    private func fold(_ sequence: SequenceExprSyntax) throws -> SwiftTerm {
        // Each ternary folds one level deeper: bounded as the format grammar's nesting is.
        let ternaries = sequence.elements.lazy.filter { $0.is(UnresolvedTernaryExprSyntax.self) }
        if let deepest = ternaries.dropFirst(max(0, PredicateParser.maximumDepth - depth - 1)).first {
            throw PredicateParser.nestingError(column: columns.column(of: deepest))
        }
        return try fold(Array(sequence.elements), sequence)
    }

    /// `elements` of `sequence` folded: a ternary binds loosest and groups to the right,
    /// so the first one splits the condition from the rest.
    private func fold(_ elements: [ExprSyntax], _ sequence: SequenceExprSyntax) throws -> SwiftTerm {
        if let i = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), i % 2 == 1,
            let ternary = elements[i].as(UnresolvedTernaryExprSyntax.self), i + 1 < elements.count
        {
            let otherwise = Array(elements[(i + 1)...])
            return .conditional(
                try fold(Array(elements[..<i]), sequence), ExprSyntax(ternary), then: try term(ternary.thenExpression),
                otherwise: otherwise.count == 1 ? try term(otherwise[0]) : try fold(otherwise, sequence))
        }
        var operands: [ExprSyntax] = []
        var operators: [(String, ExprSyntax)] = []
        for (i, element) in elements.enumerated() {
            if i % 2 == 0 {
                operands.append(element)
                continue
            }
            guard let op = element.as(BinaryOperatorExprSyntax.self)?.operator.text else {
                // `as`, `is`, `=`: no #Predicate form.
                throw refuse("\(describe(element)) in \(describe(sequence)) has no #Predicate form Quarry reads", element)
            }
            guard op == "||" || op == "&&" || Self.precedences[op] != nil else {
                throw refuse("'\(op)' is no operator a #Predicate takes", element)
            }
            operators.append((op, element))
        }
        guard operands.count == operators.count + 1 else { throw refuse("\(describe(sequence)) has no #Predicate form Quarry reads", sequence) }
        func split(_ range: Range<Int>, at op: String, _ inner: (Range<Int>) throws -> SwiftTerm) throws -> SwiftTerm {
            var parts: [SwiftTerm] = []
            var start = range.lowerBound
            for i in range.dropLast() where operators[i].0 == op {
                parts.append(try inner(start..<(i + 1)))
                start = i + 1
            }
            parts.append(try inner(start..<range.upperBound))
            return parts.count == 1 ? parts[0] : .chain(op, parts)
        }
        // Operand indices `range`; operator i stands between operands i and i + 1.
        return try split(0..<operands.count, at: "||") { disjunct in
            try split(disjunct, at: "&&") { conjunct in try climb(operands[conjunct], operators[conjunct.lowerBound..<(conjunct.upperBound - 1)]) }
        }
    }

    /// Precedence climbing over one stretch with no `&&` or `||`, with explicit stacks.
    private func climb(_ operands: ArraySlice<ExprSyntax>, _ operators: ArraySlice<(String, ExprSyntax)>) throws -> SwiftTerm {
        // Operands without their parentheses; one holding a sequence is folded when read.
        func operand(_ e: ExprSyntax) -> SwiftTerm {
            let inner = unparenthesised(e)
            return .operand(inner.is(SequenceExprSyntax.self) ? e : inner)
        }
        var values: [(SwiftTerm, depth: Int)] = [(operand(operands[operands.startIndex]), 0)]
        var pending: [(String, ExprSyntax, Int)] = []
        func reduce() throws {
            let (op, node, _) = pending.removeLast()
            let rhs = values.removeLast()
            let lhs = values.removeLast()
            let depth = max(lhs.depth, rhs.depth) + 1
            // Reading the term enters one level more than its operators nest.
            if self.depth + depth + 1 > PredicateParser.maximumDepth { throw PredicateParser.nestingError(column: columns.column(of: node)) }
            values.append((.infix(op, node, lhs.0, rhs.0), depth))
        }
        for (offset, (op, node)) in operators.enumerated() {
            guard let (precedence, left) = Self.precedences[op] else { throw refuse("'\(op)' is no operator a #Predicate takes", node) }
            while let top = pending.last {
                if top.2 > precedence || (top.2 == precedence && left == true) {
                    try reduce()
                    continue
                }
                if top.2 == precedence, left == nil {
                    throw refuse("'\(top.0)' and '\(op)' do not chain in Swift: write each comparison apart, joined by &&", node)
                }
                break
            }
            pending.append((op, node, precedence))
            values.append((operand(operands[operands.startIndex + offset + 1]), 0))
        }
        while !pending.isEmpty { try reduce() }
        return values[0].0
    }
}

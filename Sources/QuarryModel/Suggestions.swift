/// The candidate closest to `word` by edit distance, when it is close enough to be a
/// plausible typo (at most a third of the word's length, and at least one edit); else the
/// one candidate `word` abbreviates (`pts` for `points`: its first letter, then its other
/// letters in order), where exactly one does.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let limit = max(1, word.count / 3)
    var best: (String, Int)?
    for candidate in candidates {
        let d = editDistance(word.lowercased(), candidate.lowercased())
        if d <= limit, d < (best?.1 ?? .max) { best = (candidate, d) }
    }
    if let best { return best.0 }
    let abbreviated = candidates.filter { abbreviates(word, $0) }
    return abbreviated.count == 1 ? abbreviated[0] : nil
}

/// Whether `word` (two letters or more, shorter than `candidate`) is `candidate`
/// abbreviated: the same first letter, then the rest of its letters in `candidate`'s order,
/// in any case.
func abbreviates(_ word: String, _ candidate: String) -> Bool {
    let (w, c) = (Array(word.lowercased()), Array(candidate.lowercased()))
    guard w.count >= 2, w.count < c.count, w.first == c.first else { return false }
    var i = 1
    for letter in c.dropFirst() where i < w.count && letter == w[i] { i += 1 }
    return i == w.count
}

/// Levenshtein distance, with a transposition counted as one edit.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], previous2[j - 2] + 1)
            }
        }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}

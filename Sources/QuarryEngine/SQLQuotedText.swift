/// SQL's quoted text, as SQLite's tokenizer reads it: a name in `"…"` or `` `…` ``, a
/// string in `'…'`, in each of which a doubled quote stands for one, and a name in
/// `[…]`, which has no way to hold its `]`. Read once here for every reader of SQL text
/// (a view's definition, a pragma's argument, an UPDATE typed at the prompt), over its
/// scalars, bytes or characters alike.
package enum SQLQuotedText {
    /// What the quoted text opened just before `start` holds, up to its closing `close`
    /// (a doubled one is one of it, unless `close` is `doubles` false): its elements, the
    /// place after the close (the end when it never closes), and whether it closed.
    package static func read<Element: Equatable>(
        _ text: [Element], from start: Int, closing close: Element, doubles: Bool = true
    ) -> (body: [Element], next: Int, closed: Bool) {
        var body: [Element] = []
        var i = start
        while i < text.count {
            if text[i] == close {
                if doubles, i + 1 < text.count, text[i + 1] == close {
                    body.append(close)
                    i += 2
                    continue
                }
                return (body, i + 1, true)
            }
            body.append(text[i])
            i += 1
        }
        return (body, i, false)
    }
}

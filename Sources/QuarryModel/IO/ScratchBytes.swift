/// A few bytes made by pointer and appended to a buffer at once: the encodings that
/// write in place (an integer's digits, a date) serve the array-appending callers too.
enum ScratchBytes {
    /// Appends the bytes at `body`'s returned range of a scratch of `count` bytes to `out`.
    static func append(into out: inout [UInt8], atMost count: Int = 32, _ body: (UnsafeMutablePointer<UInt8>) -> Range<Int>) {
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        defer { scratch.deallocate() }
        let range = body(scratch)
        out.append(contentsOf: UnsafeBufferPointer(start: scratch + range.lowerBound, count: range.count))
    }
}

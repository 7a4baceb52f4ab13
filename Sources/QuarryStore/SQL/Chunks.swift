/// Keys 500 at a time: as many as one statement's `IN (?, ...)` takes comfortably.
package func forEachChunk(_ keys: [Int64], _ body: ([Int64]) throws -> Void) rethrows {
    var start = 0
    while start < keys.count {
        let end = min(keys.count, start + 500)
        try body(Array(keys[start..<end]))
        start = end
    }
}

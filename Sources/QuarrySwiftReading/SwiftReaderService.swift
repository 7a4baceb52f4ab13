import QuarryPredicates

/// The `quarry-swift-reader` process's loop: a request on standard input, its reply on
/// standard output (a socket Quarry made, `SwiftReaderProcess`), until the input ends.
package enum SwiftReaderService {
    /// Serves requests with `reader` (swift-syntax's, in that process); the exit status:
    /// 0 at the end of the input, 2 for input that is not a request (which Quarry never sends).
    package static func serve(_ reader: any SwiftInputReading) -> Int32 {
        var frames = SwiftReaderWire.FrameReader(descriptor: 0)
        while true {
            let body: [UInt8]
            do {
                guard let next = try frames.next() else { return 0 }
                body = next
            } catch {
                return 2
            }
            // Stand-ins for the objects a request captures, numbered as Quarry numbered them.
            let numbering = ObjectNumbering(standsIn: true)
            let reply: SwiftReaderWire.Reply
            guard let request = try? SwiftReaderWire.value(SwiftReaderWire.Request.self, from: body, numbering: numbering) else { return 2 }
            do {
                switch request {
                case .predicate(let source, let captures): reply = .predicate(try reader.readPredicate(source, captures: captures))
                case .sortKeys(let source): reply = .sortKeys(try reader.readSortKeys(source))
                }
            } catch let error as PredicateError {
                reply = .refused(error)
            } catch {
                return 2
            }
            guard let frame = try? SwiftReaderWire.frame(reply, numbering: numbering), SwiftReaderWire.send(frame, to: 1) else { return 2 }
        }
    }
}

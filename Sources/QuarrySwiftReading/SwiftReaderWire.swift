import Foundation
import QuarryModel
import QuarryPredicates

/// What goes between Quarry and the `quarry-swift-reader` process: a request or a reply
/// is one JSON value, framed as its length in decimal digits, a newline, and its bytes.
/// Values are coded exactly (`Value`'s doubles go as their bits); captured objects go by
/// number (`ObjectNumbering`) and come back as the objects they were.
package enum SwiftReaderWire {
    package enum Request: Codable {
        case predicate(source: String, captures: [String: PredicateArgument])
        case sortKeys(source: String)
    }

    package enum Reply: Codable {
        case predicate(SwiftPredicateReader.Read)
        case sortKeys([SwiftSortReader.Key])
        /// The refusal, as the reading in this process throws it.
        case refused(QuarryPredicates.PredicateError)
    }

    /// Longer than any length a frame's digits may spell (a frame past it is refused).
    static let maximumLengthDigits = 12

    package static func frame(_ value: some Encodable, numbering: ObjectNumbering) throws -> [UInt8] {
        let encoder = JSONEncoder()
        if let key = ObjectNumbering.userInfoKey { encoder.userInfo[key] = numbering }
        if let key = Value.exactCodingKey { encoder.userInfo[key] = true }
        let body = try encoder.encode(value)
        return Array("\(body.count)\n".utf8) + Array(body)
    }

    package static func value<T: Decodable>(_ type: T.Type, from body: [UInt8], numbering: ObjectNumbering) throws -> T {
        let decoder = JSONDecoder()
        if let key = ObjectNumbering.userInfoKey { decoder.userInfo[key] = numbering }
        if let key = Value.exactCodingKey { decoder.userInfo[key] = true }
        return try decoder.decode(type, from: Data(body))
    }

    /// Frames read from a descriptor, however the reads split them.
    package struct FrameReader {
        package enum Failure: Error {
            case malformed
            case readFailed(Int32)
            case endedInFrame
        }

        let descriptor: Int32
        private var buffer: [UInt8] = []

        package init(descriptor: Int32) { self.descriptor = descriptor }

        /// The next frame's bytes, or nil at the end of the input between frames.
        /// `beforeRead` runs before each read (the client waits there, to see Ctrl-C).
        package mutating func next(beforeRead: () throws -> Void = {}) throws -> [UInt8]? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    guard newline <= SwiftReaderWire.maximumLengthDigits,
                        let length = Int(String(decoding: buffer[..<newline], as: UTF8.self)), length >= 0
                    else { throw Failure.malformed }
                    if buffer.count - newline - 1 >= length {
                        let body = Array(buffer[(newline + 1)..<(newline + 1 + length)])
                        buffer.removeFirst(newline + 1 + length)
                        return body
                    }
                } else if buffer.count > SwiftReaderWire.maximumLengthDigits {
                    throw Failure.malformed
                }
                try beforeRead()
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure.readFailed(errno)
                }
                if count == 0 {
                    if buffer.isEmpty { return nil }
                    throw Failure.endedInFrame
                }
                buffer += chunk[0..<count]
            }
        }
    }

    /// Writes all of `bytes`; false when the other end has gone. Never raises SIGPIPE:
    /// the descriptor is a socket, written with MSG_NOSIGNAL.
    package static func send(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}

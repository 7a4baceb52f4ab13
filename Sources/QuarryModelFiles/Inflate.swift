import CZlib
import Foundation
import QuarryModel

/// Inflates Core Data's `Z_MODELCACHE.Z_CONTENT`: a keyed archive compressed with raw
/// DEFLATE (no zlib header: checked on real stores, whose blobs start with e.g. 0x9D 0x57).
/// A zlib-wrapped stream is accepted too. The output is bounded so that a hostile or broken
/// blob cannot exhaust memory: past `limit` bytes it is an error, not an allocation.
package enum Inflate {
    /// Inflates `input`; `path` only names the source in errors. The default bound on an
    /// inflated model is the bound on a model file read whole.
    package static func inflate(_ input: [UInt8], path: String, limit: Int = ModelFileReader.limit) throws -> [UInt8] {
        if looksZlibWrapped(input), let out = try? run(input, windowBits: MAX_WBITS, path: path, limit: limit) {
            return out
        }
        return try run(input, windowBits: -MAX_WBITS, path: path, limit: limit)
    }

    /// A zlib header: CM 8, a window of at most 32 KiB, and a check value that makes it a multiple of 31.
    package static func looksZlibWrapped(_ input: [UInt8]) -> Bool {
        guard input.count >= 2 else { return false }
        return input[0] & 0x0F == 8 && input[0] >> 4 <= 7 && (Int(input[0]) << 8 | Int(input[1])) % 31 == 0
    }

    private static func run(_ input: [UInt8], windowBits: Int32, path: String, limit: Int) throws -> [UInt8] {
        func fail(_ detail: String) -> ModelFileError { ModelFileError(.compression, path: path, detail) }
        guard !input.isEmpty else { throw fail("the blob is empty") }
        guard input.count <= UInt32.max else { throw fail("the blob is too large (\(input.count) bytes)") }
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw fail("zlib would not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { return Z_MEM_ERROR }
                output.append(contentsOf: chunk[0..<produced])
                if code == Z_STREAM_END { return Z_STREAM_END }
                if code != Z_OK { return code }
                // No progress with input left means the stream is truncated.
                if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR: throw fail("it inflates past \(limit) bytes")
        case Z_BUF_ERROR: throw fail("the compressed data is truncated")
        default: throw fail("the compressed data is corrupt (zlib status \(status))")
        }
    }
}

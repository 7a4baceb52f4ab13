import Foundation
/// Refuses a binary property list whose objects, expanded as a tree, would be far more
/// than its bytes: a "DAG bomb", where arrays share their elements (8 levels of 10 take
/// 235 bytes and expand to 10^8 leaves). Foundation's `PropertyListSerialization` on Linux
/// builds every shared object again at each reference (measured: 10^6 leaves took 2.8 s,
/// 10^7 took 31 s and 630 MB), so the check reads the object table itself, before
/// Foundation sees the bytes, counting each object's expanded size once (memoised).
///
/// A property list that Core Data or Foundation writes uniques only leaves (strings,
/// numbers, UIDs), so its tree has at most one node per reference, and a reference takes
/// at least one byte: `budget` nodes (a multiple of the size) is never reached by a real
/// file. Also refused: a container that contains itself, and nesting deeper than
/// `maximumDepth` (real archives nest 3 or 4 deep; Foundation's parser recurses).
/// XML property lists cannot share objects and are left to Foundation.
import QuarryModel

package enum BinaryPlistCheck {
    package static let maximumDepth = 256

    /// The most nodes the tree of `count` bytes may expand to.
    package static func budget(_ count: Int) -> Int { 4 * count + 4096 }

    package static func check(_ data: Data, path: String) throws {
        guard data.starts(with: Array("bplist0".utf8)) else { return }
        try data.withUnsafeBytes { raw in
            try Scan(bytes: raw.bindMemory(to: UInt8.self), path: path).run()
        }
    }

    private struct Scan {
        package let bytes: UnsafeBufferPointer<UInt8>
        package let path: String

        package func fail(_ detail: String) -> ModelFileError { ModelFileError(.malformedPlist, path: path, detail) }

        /// A big-endian unsigned integer of `width` bytes at `at`, or nil past the end.
        func uint(at: Int, width: Int) -> Int? {
            guard width >= 1, width <= 8, at >= 0, at <= bytes.count - width else { return nil }
            // References and offsets are one or two bytes in any model's archive: read
            // those directly (this check reads every reference twice).
            if width == 1 { return Int(bytes[at]) }
            if width == 2 { return Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
            var n: UInt64 = 0
            for i in 0..<width { n = n << 8 | UInt64(bytes[at + i]) }
            return n <= UInt64(Int.max) ? Int(n) : nil
        }

        package func run() throws {
            let count = bytes.count
            guard count >= 8 + 32 else { throw fail("a binary property list of \(count) bytes is truncated") }
            let trailer = count - 32
            let offsetSize = Int(bytes[trailer + 6])
            let refSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(refSize),
                let objectCount = uint(at: trailer + 8, width: 8), let top = uint(at: trailer + 16, width: 8),
                let table = uint(at: trailer + 24, width: 8),
                objectCount >= 1, objectCount <= count, top < objectCount,
                table >= 8, table <= trailer, (trailer - table) / offsetSize >= objectCount
            else {
                throw fail("the binary property list's trailer is invalid")
            }
            func offset(_ i: Int) throws -> Int {
                guard let offset = uint(at: table + i * offsetSize, width: offsetSize), offset >= 8, offset < table else {
                    throw fail("object \(i) of the binary property list is out of range")
                }
                return offset
            }
            // Expanded sizes, depth first without recursion (the file sets the depth): 0 not
            // seen yet, -1 on the path being walked. Int32: the budget is below 2^31. Each
            // container adds up its children's sizes as they are met or finished (each
            // reference read once), and is refused when done, as a sum after the walk of
            // its children would refuse it; a leaf is sized without a frame of its own.
            let budget = BinaryPlistCheck.budget(count)
            guard budget < Int(Int32.max) else { throw fail("a binary property list of \(count) bytes is too large") }
            var size = [Int32](repeating: 0, count: objectCount)
            // The frame being walked is a local, the ones above it on `stack`: Photos.app's
            // model archive has 60,000 references, and writing each step into the array's
            // last element (a uniqueness check and a retain per reference) was most of this
            // check, 10 of the 30 million instructions of reading the archive.
            var frame = try container(at: offset(top), object: top, refSize: refSize)
            var stack: [Frame] = []
            try size.withUnsafeMutableBufferPointer { size in
                size[top] = -1
                while true {
                    if frame.next < frame.count {
                        let at = frame.start + frame.next * refSize
                        frame.next += 1
                        // References are one or two bytes in any model's archive (`uint`).
                        let ref: Int
                        if refSize == 1, at < count {
                            ref = Int(bytes[at])
                        } else if refSize == 2, at + 1 < count {
                            ref = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                        } else {
                            ref = uint(at: at, width: refSize) ?? objectCount
                        }
                        guard ref < objectCount else {
                            throw fail("object \(frame.object) of the binary property list refers past its \(objectCount) objects")
                        }
                        let known = size[ref]
                        if known == -1 { throw fail("object \(ref) of the binary property list contains itself") }
                        if known == 0 {
                            guard stack.count + 1 < BinaryPlistCheck.maximumDepth else {
                                throw fail("the property list nests deeper than \(BinaryPlistCheck.maximumDepth) levels")
                            }
                            size[ref] = -1
                            let inner = try container(at: offset(ref), object: ref, refSize: refSize)
                            if inner.count == 0 {
                                size[ref] = 1
                                frame.total += 1
                            } else {
                                stack.append(frame)
                                frame = inner
                            }
                        } else {
                            frame.total += Int(known)
                        }
                        continue
                    }
                    let total = frame.total
                    guard total <= budget else {
                        throw fail("its objects are shared so as to expand to more than \(budget) values (from \(count) bytes)")
                    }
                    size[frame.object] = Int32(total)
                    guard var outer = stack.popLast() else { break }
                    outer.total += total
                    frame = outer
                }
            }
        }

        /// A container being walked: where its references start, how many, the next to visit.
        package struct Frame {
            package let object: Int
            package let start: Int
            package let count: Int
            package var next = 0
            /// The container itself and its children's expanded sizes met so far.
            package var total = 1
        }

        /// The references of the object at `at`: an array's or set's elements, a
        /// dictionary's keys and values; none for a leaf.
        package func container(at: Int, object: Int, refSize: Int) throws -> Frame {
            let marker = bytes[at]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xB || kind == 0xC || kind == 0xD else { return Frame(object: object, start: at, count: 0) }
            var length = Int(marker & 0x0F)
            var start = at + 1
            if length == 0x0F {
                // The length is an integer object: 0x1n, then 2^n bytes.
                guard start < bytes.count, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3,
                    let n = uint(at: start + 1, width: 1 << Int(bytes[start] & 0x0F))
                else {
                    throw fail("object \(object) of the binary property list has an invalid length")
                }
                start += 1 + (1 << Int(bytes[start] & 0x0F))
                length = n
            }
            let slots = kind == 0xD ? 2 : 1
            guard start <= bytes.count, length <= (bytes.count - start) / (refSize * slots) else {
                throw fail("object \(object) of the binary property list runs past its end")
            }
            return Frame(object: object, start: start, count: length * slots)
        }
    }
}

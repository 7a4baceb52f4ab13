import Foundation

// fd_set's macros are not visible to Swift.
func fdZero(_ set: inout fd_set) {
    set = fd_set()
}

func fdSet(_ fd: Int32, _ set: inout fd_set) {
    let bits = MemoryLayout.size(ofValue: set.__fds_bits.0) * 8
    withUnsafeMutableBytes(of: &set.__fds_bits) { raw in
        let words = raw.bindMemory(to: Int.self)
        words[Int(fd) / bits] |= 1 << (Int(fd) % bits)
    }
}

func fdIsSet(_ fd: Int32, _ set: inout fd_set) -> Bool {
    let bits = MemoryLayout.size(ofValue: set.__fds_bits.0) * 8
    return withUnsafeMutableBytes(of: &set.__fds_bits) { raw in
        raw.bindMemory(to: Int.self)[Int(fd) / bits] & (1 << (Int(fd) % bits)) != 0
    }
}

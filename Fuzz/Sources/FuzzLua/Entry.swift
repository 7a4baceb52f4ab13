// libFuzzer's entry point: one input through LuaFuzzDriver; a finding traps, so libFuzzer
// keeps the input as a crash.
import Foundation

/// Scripts may print (help(), observers' notices): keep libFuzzer's output readable.
private let quietStandardOutput: Void = {
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, STDOUT_FILENO); close(null) }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    quietStandardOutput
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let finding = LuaFuzzDriver.run(bytes) { fatalError("fuzz finding: \(finding)") }
    return 0
}

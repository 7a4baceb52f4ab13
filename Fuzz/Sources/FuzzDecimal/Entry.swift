// libFuzzer's entry point: one input through DecimalFuzzDriver; a finding traps, so libFuzzer
// keeps the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let finding = DecimalFuzzDriver.run(bytes) { fatalError("fuzz finding: \(finding)") }
    return 0
}

// SwiftPM links each executable with `main` aliased to `<Module>_main`, which a Swift
// module built with -parse-as-library (as -sanitize=fuzzer needs) does not define.
// These hand the process to libFuzzer's driver, as libFuzzer's own main would.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

#define FUZZ_MAIN(name) \
    int name(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

FUZZ_MAIN(FuzzPredicates_main)
FUZZ_MAIN(FuzzCSV_main)
FUZZ_MAIN(FuzzLua_main)
FUZZ_MAIN(FuzzModel_main)
FUZZ_MAIN(FuzzSwift_main)
FUZZ_MAIN(FuzzDecimal_main)

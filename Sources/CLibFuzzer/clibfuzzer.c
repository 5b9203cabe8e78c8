#include "clibfuzzer.h"

// A weak reference: resolved when `-sanitize=fuzzer` links libFuzzer in, null in ordinary builds
// (which then only replay inputs). libFuzzer's own `main` is not used: the program's main calls
// the driver, so one executable serves both builds.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) __attribute__((weak));

int sdg_fuzz_available(void) { return LLVMFuzzerRunDriver != 0; }

int sdg_fuzz_run_driver(int *argc, char ***argv, sdg_fuzz_callback callback) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}

#ifndef SDG_CLIBFUZZER_H
#define SDG_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's per-input callback: returns 0 (-1 asks libFuzzer not to add the input to the corpus).
typedef int (*sdg_fuzz_callback)(const uint8_t *data, size_t size);

/// Whether libFuzzer is linked into this binary (a build with `-sanitize=fuzzer`).
int sdg_fuzz_available(void);

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`) with `argc`/`argv` as its command line; it
/// normally exits the process itself. Returns -1 without libFuzzer.
int sdg_fuzz_run_driver(int *argc, char ***argv, sdg_fuzz_callback callback);

#endif

#ifndef SDG_CPNG_H
#define SDG_CPNG_H
// Thin wrapper over libpng16 for Swift. libpng reports errors by longjmp, so every call that can jump
// stays inside C behind a setjmp in this target. Imported only by ImageCodecs. Prefix: sdg_png_.
#include <png.h>

/// libpng's runtime version number (10639 for 1.6.39).
unsigned long sdg_png_version_number(void);

#endif

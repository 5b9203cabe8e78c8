#ifndef SDG_CSIXEL_H
#define SDG_CSIXEL_H
// Thin wrapper over libsixel for Swift. Imported only by TerminalGraphics. Prefix: sdg_sixel_.
#include <sixel/sixel.h>

/// libsixel's version string, fixed at build time ("1.10.3").
const char *sdg_sixel_version(void);

#endif

#ifndef SDG_CGIF_H
#define SDG_CGIF_H
// Thin wrapper over giflib for Swift. Imported only by ImageCodecs. Prefix: sdg_gif_.
#include <gif_lib.h>

/// giflib's version (major*10000 + minor*100 + release), fixed at build time.
int sdg_gif_version_number(void);

#endif

#include "csixel.h"

const char *sdg_sixel_version(void) { return LIBSIXEL_VERSION; }

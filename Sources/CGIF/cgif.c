#include "cgif.h"

int sdg_gif_version_number(void) { return GIFLIB_MAJOR * 10000 + GIFLIB_MINOR * 100 + GIFLIB_RELEASE; }

#include "cjpeg.h"

long sdg_jpeg_turbo_version_number(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return 0;
#endif
}
int sdg_jpeg_lib_version(void) { return JPEG_LIB_VERSION; }

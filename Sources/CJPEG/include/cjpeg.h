#ifndef SDG_CJPEG_H
#define SDG_CJPEG_H
// Thin wrapper over libjpeg-turbo for Swift. libjpeg reports errors by longjmp, so every call that can
// jump stays inside C behind a setjmp in this target; Swift sees return codes and a message buffer.
// Imported only by the ImageCodecs module. Every symbol carries the sdg_jpeg_ prefix.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>

/// libjpeg-turbo's version as a number (2001005 for 2.1.5), fixed at build time (the library has no
/// runtime query); and the libjpeg API level it implements (62, 70 or 80).
long sdg_jpeg_turbo_version_number(void);
int sdg_jpeg_lib_version(void);

#endif

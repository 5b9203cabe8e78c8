#ifndef SDG_CGIF_H
#define SDG_CGIF_H
// Thin wrapper over giflib for Swift. Imported only by ImageCodecs. Prefix: sdg_gif_.
// giflib reports errors by return codes (no longjmp), so Swift drives the record loop itself.
#include <stddef.h>
#include <stdint.h>
#include <gif_lib.h>

/// giflib's version (major*10000 + minor*100 + release), fixed at build time.
int sdg_gif_version_number(void);

/// Opens a GIF held in memory (DGifOpen with a read callback over the bytes; the bytes are not copied
/// and must outlive the handle). NULL on failure with `*error` set (a D_GIF_ERR_ code).
GifFileType *sdg_gif_open_memory(const uint8_t *bytes, size_t length, int *error);
/// Closes a handle from sdg_gif_open_memory and frees its reader state.
void sdg_gif_close(GifFileType *gif);
/// giflib's text for an error code, never NULL.
const char *sdg_gif_error_string(int error);

#endif

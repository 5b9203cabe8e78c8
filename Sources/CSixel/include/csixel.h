#ifndef SDG_CSIXEL_H
#define SDG_CSIXEL_H
// Thin wrapper over libsixel for Swift. Imported only by TerminalGraphics. Prefix: sdg_sixel_.
#include <stddef.h>
#include <sixel/sixel.h>

/// libsixel's version string, fixed at build time ("1.10.3").
const char *sdg_sixel_version(void);

/// Encodes packed RGB888 pixels (`width * height * 3` bytes) as a 7-bit sixel stream
/// (`ESC P … ESC \`), with a palette of at most `colors` entries (clamped to 2…256) built from the
/// pixels and error diffusion `diffusion` (one of SIXEL_DIFFUSE_*). The bytes are collected by an
/// output write callback into a malloc'd buffer returned in `*out` / `*out_length`; free it with
/// `sdg_sixel_free`. Nothing is written to any file descriptor. `mask` (NULL for none) holds one byte
/// per pixel: the pixels marked nonzero are not drawn at all (libsixel's key colour; the palette then
/// has at most 255 other entries). Returns a SIXELSTATUS.
int sdg_sixel_encode_rgb(const unsigned char *rgb, const unsigned char *mask, int width, int height, int colors,
                         int diffusion, unsigned char **out, size_t *out_length);

/// Decodes a sixel stream to packed RGB888 pixels (malloc'd, `width * height * 3` bytes, free with
/// `sdg_sixel_free`) through `sixel_decode_raw` and its palette. Returns a SIXELSTATUS.
int sdg_sixel_decode_rgb(const unsigned char *data, size_t length, unsigned char **rgb, int *width,
                         int *height);

/// Frees a buffer returned by this shim.
void sdg_sixel_free(void *buffer);

#endif

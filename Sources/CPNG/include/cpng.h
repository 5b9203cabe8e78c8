#ifndef SDG_CPNG_H
#define SDG_CPNG_H
// Thin wrapper over libpng16 for Swift. libpng reports errors by longjmp, so every call that can jump
// stays inside C behind a setjmp in this target. Imported only by ImageCodecs. Prefix: sdg_png_.
#include <stddef.h>
#include <stdint.h>
#include <png.h>

/// libpng's runtime version number (10639 for 1.6.39).
unsigned long sdg_png_version_number(void);

/// Status codes of sdg_png_feed.
enum {
    SDG_PNG_TOO_LARGE = -2,  ///< the header announced more pixels than the limit; nothing was allocated
    SDG_PNG_ERROR = -1,      ///< libpng rejected the data; see sdg_png_message
    SDG_PNG_MORE = 0,        ///< consumed; the image is not complete yet
    SDG_PNG_DONE = 1,        ///< IEND reached: the image is complete
};

/// One progressive decode (png_process_data) to RGBA8 with straight alpha: palette, tRNS, gray,
/// gray+alpha and 16-bit are expanded or scaled; Adam7 passes are combined into the output.
typedef struct sdg_png sdg_png;

/// What the header says (valid once sdg_png_header returns 1).
typedef struct sdg_png_info {
    int width, height, bit_depth, color_type, interlaced;
} sdg_png_info;

/// Creates a decoder that rejects images over `pixel_limit` pixels from the header. NULL on failure.
sdg_png *sdg_png_create(uint64_t pixel_limit);
void sdg_png_destroy(sdg_png *p);
/// Feeds the next bytes (any length). Returns one of the SDG_PNG_ status codes.
int sdg_png_feed(sdg_png *p, const uint8_t *bytes, size_t length);
/// 1 and fills `info` once the header has been read, else 0.
int sdg_png_header(const sdg_png *p, sdg_png_info *info);
/// The RGBA output (width × height × 4, zero where nothing was decoded yet), or NULL before the header.
const uint8_t *sdg_png_pixels(const sdg_png *p);
/// Rows decoded so far in the current pass (non-interlaced: rows of the image).
int sdg_png_rows(const sdg_png *p);
/// Adam7 passes fully decoded so far (0–7; a finished non-interlaced image counts as 7).
int sdg_png_completed_passes(const sdg_png *p);
/// libpng's message for the last error, never NULL.
const char *sdg_png_message(const sdg_png *p);

#endif

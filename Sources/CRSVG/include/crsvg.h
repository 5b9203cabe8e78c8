#ifndef SDG_CRSVG_H
#define SDG_CRSVG_H
// Thin wrapper over librsvg 2.54 (+ cairo, glib) for Swift. Imported only by ImageCodecs. Prefix:
// sdg_svg_. librsvg is loaded lazily with dlopen on the first SVG (linking it pulls in ~45 shared
// libraries — cairo, pango, glib, fontconfig… — and slowed every start-up); its few functions are
// declared here by hand, so building needs no librsvg headers. glib's log output is dropped (a C
// library must never write to our stderr). SVGs load from memory with no base URL, so librsvg
// refuses every external reference (files, http); its default limits stay on.
#include <stddef.h>
#include <stdint.h>

typedef struct sdg_svg sdg_svg;

/// Loads librsvg if not yet loaded (once per process). Returns 0, or -1 (`sdg_svg_load_error` says why).
int sdg_svg_load(void);
/// Why librsvg could not be loaded ("" when it could).
const char *sdg_svg_load_error(void);
/// librsvg's version ("2.54.7"), or "" when it cannot be loaded.
const char *sdg_svg_version(void);
/// Whether librsvg is loaded already (without loading it): `sdgallery --version` is built at every
/// start-up, which must not pay for librsvg.
int sdg_svg_is_loaded(void);

/// Parses an SVG document (copied by librsvg). NULL on failure, `error` then holds librsvg's message.
sdg_svg *sdg_svg_open(const uint8_t *bytes, size_t length, char *error, size_t error_size);
void sdg_svg_close(sdg_svg *svg);

/// The document's intrinsic size. Returns 2 when it has an absolute width and height (in pixels at
/// 96 dpi, in `width`/`height`), 1 when only a viewBox gives its proportions (its size in
/// `width`/`height`), 0 when it has neither.
int sdg_svg_intrinsic(sdg_svg *svg, double *width, double *height);
/// Renders the whole document fitted into `width` × `height` into caller-owned RGBA8 (premultiplied
/// alpha, as cairo draws, `width * height * 4` bytes, transparent background). Returns 0, or -1
/// with librsvg's or cairo's message in `error`.
int sdg_svg_render(sdg_svg *svg, int width, int height, uint8_t *out, char *error, size_t error_size);

#endif

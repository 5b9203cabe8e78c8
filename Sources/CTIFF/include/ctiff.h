#ifndef SDG_CTIFF_H
#define SDG_CTIFF_H
// Thin wrapper over libtiff for Swift. Imported only by ImageCodecs. Prefix: sdg_tiff_.
// The file is read from memory (TIFFClientOpenExt over the caller's bytes, which must outlive the
// handle); errors and warnings go to per-handle handlers (libtiff never prints): the last error's
// text is kept for Swift. Only the first directory (page) is read.
#include <stddef.h>
#include <stdint.h>

typedef struct sdg_tiff sdg_tiff;

/// libtiff's version line ("LIBTIFF, Version 4.5.0"): the first line of TIFFGetVersion().
const char *sdg_tiff_version(void);

/// Opens the bytes. `max_alloc` caps every single allocation libtiff makes for this handle
/// (TIFFOpenOptionsSetMaxSingleMemAlloc). NULL only when out of memory; else check sdg_tiff_ok.
sdg_tiff *sdg_tiff_open(const uint8_t *bytes, size_t length, size_t max_alloc);
/// 1 when the first directory was read.
int sdg_tiff_ok(const sdg_tiff *t);
/// The last error libtiff reported on this handle ("" if none).
const char *sdg_tiff_error(const sdg_tiff *t);

/// The first page's stored size and Orientation tag (1–8; 1 when absent or invalid). Returns 0, or
/// -1 without a size.
int sdg_tiff_size(sdg_tiff *t, uint32_t *width, uint32_t *height, int *orientation);

/// Whether the page can be read as RGBA within the cap, and the bytes libtiff will allocate to read
/// it (one strip or tile buffer, per plane when separate). Returns 0, or -1 when it cannot be read as
/// RGBA or its strip/tile buffer is over `max_alloc` (the reason in sdg_tiff_error).
int sdg_tiff_check(sdg_tiff *t, size_t *work_bytes);

/// Reads the first page into `out` (`width` × `height` × 4 bytes, 4-byte aligned) as RGBA8 with
/// premultiplied alpha (255 when the image has none), in stored order (the Orientation tag not
/// applied: row 0 is the file's first row). Returns 0 or -1 (reason in sdg_tiff_error).
int sdg_tiff_read_rgba(sdg_tiff *t, uint8_t *out, size_t out_size);

/// Closes the handle.
void sdg_tiff_close(sdg_tiff *t);

#endif

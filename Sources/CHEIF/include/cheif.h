#ifndef SDG_CHEIF_H
#define SDG_CHEIF_H
// Thin wrapper over libheif for Swift. Imported only by ImageCodecs. Prefix: sdg_heif_.
// libheif never prints: errors come back as struct heif_error (code, subcode, message).
#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>

/// libheif's version ("1.15.1").
const char *sdg_heif_version(void);
/// Whether this libheif has a decoder for HEVC (libde265 on Debian).
int sdg_heif_has_hevc_decoder(void);
/// Whether the file's ftyp lists `brand` (four characters) as compatible.
int sdg_heif_has_brand(const uint8_t *bytes, size_t length, const char *brand);

/// Reads the container over `bytes` (not copied: they must outlive the context) with the size cap
/// (`dimension_limit` per side) and tile decoding on the calling thread, then gets the primary image's
/// handle. On success `*context` and `*handle` are set (free with sdg_heif_close); on failure both are
/// freed and NULL, and the error's text is copied into `message` (its `message` pointer belongs to
/// the freed context: it is set to `message`).
struct heif_error sdg_heif_open(const uint8_t *bytes, size_t length, int dimension_limit,
                                struct heif_context **context, struct heif_image_handle **handle,
                                char *message, size_t message_size);
/// Frees what sdg_heif_open made (either may be NULL).
void sdg_heif_close(struct heif_context *context, struct heif_image_handle *handle);
/// Decodes the primary image to interleaved RGBA8, straight alpha, with the file's transformations
/// (clap, irot, imir) applied, HDR reduced to 8 bits, strict decoding. `*image` is set on success
/// (free with heif_image_release); `*width`, `*height`, `*stride` and `*pixels` describe its plane.
/// On failure the error's text is copied into `message`, as for sdg_heif_open.
struct heif_error sdg_heif_decode_rgba(const struct heif_image_handle *handle, struct heif_image **image,
                                       int *width, int *height, int *stride, const uint8_t **pixels,
                                       char *message, size_t message_size);

#endif

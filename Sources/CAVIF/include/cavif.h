#ifndef SDG_CAVIF_H
#define SDG_CAVIF_H
// Thin wrapper over libavif for Swift. Imported only by ImageCodecs. Prefix: sdg_avif_.
// libavif never prints: errors come back as avifResult plus the decoder's diag.error text; dav1d,
// which libavif lets print, is silenced here (cavif.c).
#include <stddef.h>
#include <stdint.h>
#include <avif/avif.h>

/// Whether dav1d's logger is silenced (cavif.c replaces dav1d_default_settings for libavif).
int sdg_avif_dav1d_is_quiet(void);
/// libavif's version ("0.11.1").
const char *sdg_avif_version(void);
/// The AV1 codecs libavif was built with ("dav1d [dec]:1.0.0, aom [enc/dec]:3.6.0"), into `out`
/// (at least 256 bytes).
void sdg_avif_codec_versions(char *out);

/// A decoder over `bytes` (not copied: they must outlive it), with its limits set before anything is
/// parsed: at most `pixel_limit` pixels and `dimension_limit` pixels per side per image, at most
/// `count_limit` frames, strict parsing, one thread, Exif and XMP ignored. Then parses the container
/// (no pixels yet). Returns the decoder (free with avifDecoderDestroy) and sets `*result`; on failure
/// the decoder is returned too, for its diag text, unless it could not be made at all (NULL).
avifDecoder *sdg_avif_parse(const uint8_t *bytes, size_t length, uint32_t pixel_limit, uint32_t dimension_limit,
                            uint32_t count_limit, avifResult *result);
/// The decoder's last error text ("" when none).
const char *sdg_avif_diagnostics(const avifDecoder *decoder);
/// Converts the decoder's current image (after avifDecoderNextImage) to RGBA8, straight alpha, rows
/// of width × 4 bytes, into `out` of `out_size` bytes (at least width × height × 4). Opaque images get
/// alpha 255.
avifResult sdg_avif_rgba(const avifDecoder *decoder, uint8_t *out, size_t out_size);

#endif

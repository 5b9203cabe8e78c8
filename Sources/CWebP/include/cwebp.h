#ifndef SDG_CWEBP_H
#define SDG_CWEBP_H
// Thin wrapper over libwebp and libwebpdemux for Swift. Imported only by ImageCodecs. Prefix: sdg_webp_.
// libwebp's init functions are inline wrappers around versioned calls; these shims make them callable.
#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
#include <webp/demux.h>

/// libwebp decoder version, packed as (major << 16) | (minor << 8) | revision.
int sdg_webp_decoder_version(void);
/// libwebpdemux version, packed the same way.
int sdg_webp_demux_version(void);

/// Header facts: size, alpha, animation. Returns VP8_STATUS_OK (0) or a VP8StatusCode.
int sdg_webp_features(const uint8_t *bytes, size_t length, int *width, int *height, int *has_alpha,
                      int *has_animation);
/// Decodes a still WebP into caller-owned RGBA (straight alpha) of `width` × `height` (libwebp's own
/// scaler when that differs from the file's size). Returns VP8_STATUS_OK (0) or a VP8StatusCode.
int sdg_webp_decode_rgba(const uint8_t *bytes, size_t length, int width, int height, uint8_t *out,
                         size_t out_size);
/// Creates an animation decoder producing RGBA (straight alpha) frames; NULL if the data is invalid.
/// The bytes must outlive the decoder. Use WebPAnimDecoderGetInfo/GetNext/Delete on it.
WebPAnimDecoder *sdg_webp_anim_new(const uint8_t *bytes, size_t length);
/// Text for a VP8StatusCode.
const char *sdg_webp_status_string(int status);

#endif

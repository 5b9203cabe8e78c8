#include "cwebp.h"

int sdg_webp_decoder_version(void) { return WebPGetDecoderVersion(); }
int sdg_webp_demux_version(void) { return WebPGetDemuxVersion(); }

int sdg_webp_features(const uint8_t *bytes, size_t length, int *width, int *height, int *has_alpha,
                      int *has_animation) {
    WebPBitstreamFeatures f;
    VP8StatusCode s = WebPGetFeatures(bytes, length, &f);
    if (s != VP8_STATUS_OK) return (int)s;
    *width = f.width;
    *height = f.height;
    *has_alpha = f.has_alpha;
    *has_animation = f.has_animation;
    return VP8_STATUS_OK;
}

int sdg_webp_decode_rgba(const uint8_t *bytes, size_t length, int width, int height, uint8_t *out,
                         size_t out_size) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return VP8_STATUS_INVALID_PARAM;
    VP8StatusCode s = WebPGetFeatures(bytes, length, &config.input);
    if (s != VP8_STATUS_OK) return (int)s;
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = width * 4;
    config.output.u.RGBA.size = out_size;
    s = WebPDecode(bytes, length, &config);
    WebPFreeDecBuffer(&config.output);
    return (int)s;
}

WebPAnimDecoder *sdg_webp_anim_new(const uint8_t *bytes, size_t length) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return NULL;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData data = { bytes, length };
    return WebPAnimDecoderNew(&data, &options);
}

const char *sdg_webp_status_string(int status) {
    switch (status) {
    case VP8_STATUS_OK: return "ok";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "user abort";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data";
    default: return "unknown error";
    }
}

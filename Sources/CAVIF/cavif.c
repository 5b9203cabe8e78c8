#include "cavif.h"

const char *sdg_avif_version(void) { return avifVersion(); }

void sdg_avif_codec_versions(char *out) { avifCodecVersions(out); }

avifDecoder *sdg_avif_parse(const uint8_t *bytes, size_t length, uint32_t pixel_limit, uint32_t dimension_limit,
                            uint32_t count_limit, avifResult *result) {
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) { *result = AVIF_RESULT_OUT_OF_MEMORY; return NULL; }
    decoder->maxThreads = 1;
    decoder->imageSizeLimit = pixel_limit;
    decoder->imageDimensionLimit = dimension_limit;
    decoder->imageCountLimit = count_limit;
    decoder->strictFlags = AVIF_STRICT_ENABLED;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    decoder->allowProgressive = AVIF_FALSE;
    decoder->allowIncremental = AVIF_FALSE;
    *result = avifDecoderSetIOMemory(decoder, bytes, length);
    if (*result == AVIF_RESULT_OK) *result = avifDecoderParse(decoder);
    return decoder;
}

const char *sdg_avif_diagnostics(const avifDecoder *decoder) { return decoder->diag.error; }

avifResult sdg_avif_rgba(const avifDecoder *decoder, uint8_t *out, size_t out_size) {
    const avifImage *image = decoder->image;
    if (!image || (size_t)image->width * image->height * 4 > out_size) return AVIF_RESULT_INVALID_ARGUMENT;
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.alphaPremultiplied = AVIF_FALSE;
    rgb.pixels = out;
    rgb.rowBytes = image->width * 4;
    return avifImageYUVToRGB(image, &rgb);
}

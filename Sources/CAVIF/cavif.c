#define _GNU_SOURCE
#include "cavif.h"
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <dav1d/dav1d.h>

// libavif 0.11 creates its dav1d decoder with dav1d_default_settings() and never sets the logger,
// whose default prints bitstream errors ("Unknown OBU type…") to stderr, over the gallery's screen.
// This definition takes dav1d's place for libavif (and libheif's dav1d plugin): a symbol the
// executable defines, and a shared library of the link references, is exported and found first.
// It calls dav1d's own, then silences the logger.
static void sdg_dav1d_quiet(void *cookie, const char *format, va_list ap) {
    (void)cookie;
    (void)format;
    (void)ap;
}

DAV1D_API void dav1d_default_settings(Dav1dSettings *s) {
    typedef void (*defaults_fn)(Dav1dSettings *);
    static defaults_fn real;
    defaults_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!f) {
        f = (defaults_fn)dlsym(RTLD_NEXT, "dav1d_default_settings");
        if (!f) abort();  // libdav1d is loaded with libavif: cannot happen
        __atomic_store_n(&real, f, __ATOMIC_RELEASE);
    }
    f(s);
    s->logger.cookie = NULL;
    s->logger.callback = sdg_dav1d_quiet;
}

int sdg_avif_dav1d_is_quiet(void) {
    Dav1dSettings s;
    dav1d_default_settings(&s);
    return s.logger.callback == sdg_dav1d_quiet;
}

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

#define _GNU_SOURCE
#include "cjxl.h"

#include <dlfcn.h>
#include <jxl/decode.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Debian's libjxl 0.7 is built to print every internal failure ("./lib/jxl/fields.cc:840:
// JXL_FAILURE: …") to stderr through glibc's fortified printf family, with no switch to turn it
// off. A C library must not write to our terminal: these definitions, linked into the executable,
// come before glibc's, drop what libjxl writes and pass everything else on unchanged.
static int sdg_jxl_writes(const void *caller) {
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libjxl") != NULL;
}

typedef int (*sdg_vfprintf_chk_fn)(FILE *, int, const char *, va_list);
static sdg_vfprintf_chk_fn sdg_jxl_next_vfprintf_chk(void) {
    static sdg_vfprintf_chk_fn next;
    if (!next) next = (sdg_vfprintf_chk_fn)dlsym(RTLD_NEXT, "__vfprintf_chk");
    return next;
}

int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap) {
    if (sdg_jxl_writes(__builtin_return_address(0))) return 0;
    return sdg_jxl_next_vfprintf_chk()(stream, flag, format, ap);
}

int __fprintf_chk(FILE *stream, int flag, const char *format, ...) {
    if (sdg_jxl_writes(__builtin_return_address(0))) return 0;
    va_list ap;
    va_start(ap, format);
    int n = sdg_jxl_next_vfprintf_chk()(stream, flag, format, ap);
    va_end(ap);
    return n;
}

int __printf_chk(int flag, const char *format, ...) {
    if (sdg_jxl_writes(__builtin_return_address(0))) return 0;
    va_list ap;
    va_start(ap, format);
    int n = sdg_jxl_next_vfprintf_chk()(stdout, flag, format, ap);
    va_end(ap);
    return n;
}

struct sdg_jxl {
    JxlDecoder *dec;
    uint8_t *input;        // bytes not consumed by libjxl yet, then newly appended ones
    size_t length, capacity;
    int input_set;         // `input` is set on the decoder (libjxl holds a pointer to it)
    int closed;
    JxlBasicInfo info;
    int have_info;
    JxlFrameHeader frame;
};

static const JxlPixelFormat sdg_jxl_format = { 4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0 };

sdg_jxl *sdg_jxl_create(int progressive) {
    sdg_jxl *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->dec = JxlDecoderCreate(NULL);
    if (!d->dec) { free(d); return NULL; }
    int events = JXL_DEC_BASIC_INFO | JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE;
    if (progressive) events |= JXL_DEC_FRAME_PROGRESSION;
    if (JxlDecoderSubscribeEvents(d->dec, events) != JXL_DEC_SUCCESS
        || (progressive && JxlDecoderSetProgressiveDetail(d->dec, kDC) != JXL_DEC_SUCCESS)) {
        JxlDecoderDestroy(d->dec);
        free(d);
        return NULL;
    }
    // Orientation applied by libjxl (the default, said here), straight alpha out.
    JxlDecoderSetKeepOrientation(d->dec, JXL_FALSE);
    JxlDecoderSetUnpremultiplyAlpha(d->dec, JXL_TRUE);
    return d;
}

void sdg_jxl_destroy(sdg_jxl *d) {
    if (!d) return;
    JxlDecoderDestroy(d->dec);
    free(d->input);
    free(d);
}

/// Takes the input back from libjxl, keeping only the bytes it has not consumed.
static void sdg_jxl_release(sdg_jxl *d) {
    if (!d->input_set) return;
    size_t rest = JxlDecoderReleaseInput(d->dec);
    d->input_set = 0;
    if (rest > d->length) rest = d->length;
    memmove(d->input, d->input + (d->length - rest), rest);
    d->length = rest;
}

int sdg_jxl_append(sdg_jxl *d, const uint8_t *bytes, size_t length) {
    if (length == 0) return 0;
    sdg_jxl_release(d);
    if (d->length + length > d->capacity) {
        size_t capacity = d->capacity ? d->capacity : 4096;
        while (capacity < d->length + length) capacity *= 2;
        uint8_t *grown = realloc(d->input, capacity);
        if (!grown) return -1;
        d->input = grown;
        d->capacity = capacity;
    }
    memcpy(d->input + d->length, bytes, length);
    d->length += length;
    return 0;
}

void sdg_jxl_close_input(sdg_jxl *d) {
    d->closed = 1;
    if (d->input_set) JxlDecoderCloseInput(d->dec);
}

int sdg_jxl_process(sdg_jxl *d) {
    if (!d->input_set) {
        if (d->length == 0) return SDG_JXL_NEED_MORE;
        if (JxlDecoderSetInput(d->dec, d->input ? d->input : (const uint8_t *)"", d->length) != JXL_DEC_SUCCESS) return SDG_JXL_ERROR;
        d->input_set = 1;
        if (d->closed) JxlDecoderCloseInput(d->dec);
    }
    JxlDecoderStatus s = JxlDecoderProcessInput(d->dec);
    switch (s) {
    case JXL_DEC_NEED_MORE_INPUT:
        sdg_jxl_release(d);
        return SDG_JXL_NEED_MORE;
    case JXL_DEC_BASIC_INFO:
        if (JxlDecoderGetBasicInfo(d->dec, &d->info) != JXL_DEC_SUCCESS) return SDG_JXL_ERROR;
        d->have_info = 1;
        return SDG_JXL_BASIC_INFO;
    case JXL_DEC_FRAME:
        if (JxlDecoderGetFrameHeader(d->dec, &d->frame) != JXL_DEC_SUCCESS) return SDG_JXL_ERROR;
        return SDG_JXL_FRAME;
    case JXL_DEC_NEED_IMAGE_OUT_BUFFER: return SDG_JXL_NEED_BUFFER;
    case JXL_DEC_FRAME_PROGRESSION: return SDG_JXL_PROGRESSION;
    case JXL_DEC_FULL_IMAGE: return SDG_JXL_FULL_IMAGE;
    case JXL_DEC_SUCCESS: return SDG_JXL_SUCCESS;
    default: return SDG_JXL_ERROR;
    }
}

int sdg_jxl_get_info(sdg_jxl *d, sdg_jxl_info *info) {
    if (!d->have_info) return -1;
    const JxlBasicInfo *b = &d->info;
    int swapped = b->orientation >= JXL_ORIENT_TRANSPOSE;
    info->width = swapped ? b->ysize : b->xsize;
    info->height = swapped ? b->xsize : b->ysize;
    info->has_alpha = b->alpha_bits > 0;
    info->have_animation = b->have_animation != 0;
    info->tps_numerator = b->animation.tps_numerator;
    info->tps_denominator = b->animation.tps_denominator;
    info->num_loops = b->animation.num_loops;
    return 0;
}

uint32_t sdg_jxl_frame_duration(sdg_jxl *d) { return d->frame.duration; }

size_t sdg_jxl_buffer_size(sdg_jxl *d) {
    size_t size = 0;
    if (JxlDecoderImageOutBufferSize(d->dec, &sdg_jxl_format, &size) != JXL_DEC_SUCCESS) return 0;
    return size;
}

int sdg_jxl_set_buffer(sdg_jxl *d, uint8_t *out, size_t size) {
    return JxlDecoderSetImageOutBuffer(d->dec, &sdg_jxl_format, out, size) == JXL_DEC_SUCCESS ? 0 : -1;
}

int sdg_jxl_flush(sdg_jxl *d) { return JxlDecoderFlushImage(d->dec) == JXL_DEC_SUCCESS ? 0 : -1; }

int sdg_jxl_progression_ratio(sdg_jxl *d) { return (int)JxlDecoderGetIntendedDownsamplingRatio(d->dec); }

size_t sdg_jxl_pending(sdg_jxl *d) { return d->length; }

uint32_t sdg_jxl_version(void) { return JxlDecoderVersion(); }

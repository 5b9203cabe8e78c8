#include "csixel.h"

#include <stdlib.h>
#include <string.h>

const char *sdg_sixel_version(void) { return LIBSIXEL_VERSION; }

/// Growable byte buffer filled by libsixel's write callback.
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} sdg_sixel_sink;

static int sdg_sixel_write(char *data, int size, void *priv) {
    sdg_sixel_sink *sink = (sdg_sixel_sink *)priv;
    if (sink->failed || size <= 0) return size;
    size_t needed = sink->length + (size_t)size;
    if (needed > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < needed) capacity *= 2;
        unsigned char *grown = realloc(sink->bytes, capacity);
        if (!grown) { sink->failed = 1; return size; }
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->length, data, (size_t)size);
    sink->length = needed;
    return size;
}


/// Index of the palette entry nearest to `q` (squared RGB distance). `order` lists the entries by
/// ascending green; the search walks outwards from `q`'s green and stops once the green gap alone
/// exceeds the best distance.
static int sdg_sixel_nearest(const unsigned char *palette, const int *order, int ncolors, const int q[3]) {
    int lo = 0, hi = ncolors;
    while (lo < hi) {  // first entry with green >= q[1]
        int mid = (lo + hi) / 2;
        if (palette[order[mid] * 3 + 1] < q[1]) lo = mid + 1; else hi = mid;
    }
    int up = lo, down = lo - 1, best = order[lo < ncolors ? lo : ncolors - 1];
    long bestDistance = -1;
    while (up < ncolors || down >= 0) {
        long gapUp = up < ncolors ? (long)palette[order[up] * 3 + 1] - q[1] : 1L << 30;
        long gapDown = down >= 0 ? (long)q[1] - palette[order[down] * 3 + 1] : 1L << 30;
        int c;
        long gap;
        if (gapUp <= gapDown) { c = order[up++]; gap = gapUp; } else { c = order[down--]; gap = gapDown; }
        if (bestDistance >= 0 && gap * gap >= bestDistance) break;
        long dr = (long)palette[c * 3] - q[0], dg = (long)palette[c * 3 + 1] - q[1];
        long db = (long)palette[c * 3 + 2] - q[2];
        long d = dr * dr + dg * dg + db * db;
        if (bestDistance < 0 || d < bestDistance) { bestDistance = d; best = c; }
    }
    return best;
}

/// libsixel builds its palette from a histogram truncated to 5 bits per channel, so every entry is
/// biased down by up to 7 (white becomes 248). One Lloyd step fixes that: map each pixel to its
/// nearest entry (memoised per 5-bit bucket, searched from the bucket's centre) and move each entry
/// to the mean of its pixels.
static void sdg_sixel_refine_palette(sixel_dither_t *dither, const unsigned char *rgb, size_t count) {
    int ncolors = sixel_dither_get_num_of_palette_colors(dither);
    unsigned char *palette = sixel_dither_get_palette(dither);
    if (!palette || ncolors <= 0 || ncolors > 256) return;
    int order[256];
    for (int c = 0; c < ncolors; c++) {  // insertion sort by green
        int k = c;
        while (k > 0 && palette[order[k - 1] * 3 + 1] > palette[c * 3 + 1]) { order[k] = order[k - 1]; k--; }
        order[k] = c;
    }
    short *nearest = malloc(sizeof(short) * 32768);
    unsigned long *sums = calloc((size_t)ncolors * 4, sizeof(unsigned long));
    if (!nearest || !sums) { free(nearest); free(sums); return; }
    for (int i = 0; i < 32768; i++) nearest[i] = -1;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *p = rgb + i * 3;
        int bucket = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
        if (nearest[bucket] < 0) {
            const int centre[3] = {(p[0] & ~7) | 4, (p[1] & ~7) | 4, (p[2] & ~7) | 4};
            nearest[bucket] = (short)sdg_sixel_nearest(palette, order, ncolors, centre);
        }
        unsigned long *sum = sums + nearest[bucket] * 4;
        sum[0] += p[0]; sum[1] += p[1]; sum[2] += p[2]; sum[3] += 1;
    }
    unsigned char refined[256 * 3];
    for (int c = 0; c < ncolors; c++) {
        unsigned long *sum = sums + c * 4;
        for (int k = 0; k < 3; k++)
            refined[c * 3 + k] = sum[3] ? (unsigned char)((sum[k] + sum[3] / 2) / sum[3]) : palette[c * 3 + k];
    }
    sixel_dither_set_palette(dither, refined);
    free(nearest);
    free(sums);
}

/// Encodes `pixels` (`depth` bytes each) with `dither` into a new buffer: the one place that drives
/// libsixel's encoder, for both the opaque and the keyed pass.
static SIXELSTATUS sdg_sixel_emit(unsigned char *pixels, int width, int height, int depth, sixel_dither_t *dither,
                                  unsigned char **out, size_t *out_length) {
    sdg_sixel_sink sink = {0};
    sixel_output_t *output = NULL;
    SIXELSTATUS status = sixel_output_new(&output, sdg_sixel_write, &sink, NULL);
    if (SIXEL_FAILED(status)) goto done;
    sixel_output_set_8bit_availability(output, 0);
    status = sixel_encode(pixels, width, height, depth, dither, output);
    if (SIXEL_FAILED(status)) goto done;
    if (sink.failed) { status = SIXEL_BAD_ALLOCATION; goto done; }
    *out = sink.bytes;
    *out_length = sink.length;
    sink.bytes = NULL;
done:
    if (output) sixel_output_unref(output);
    free(sink.bytes);
    return status;
}

static int sdg_sixel_encode_opaque(const unsigned char *rgb, int width, int height, int colors, int diffusion,
                         unsigned char **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (!rgb || width <= 0 || height <= 0) return SIXEL_BAD_ARGUMENT;
    if (colors < 2) colors = 2;
    if (colors > 256) colors = 256;
    sixel_dither_t *dither = NULL;
    SIXELSTATUS status = sixel_dither_new(&dither, colors, NULL);
    if (SIXEL_FAILED(status)) goto done;
    // libsixel does not modify the pixels while building the palette or encoding.
    unsigned char *pixels = (unsigned char *)rgb;
    status = sixel_dither_initialize(dither, pixels, width, height, SIXEL_PIXELFORMAT_RGB888,
                                     SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO);
    if (SIXEL_FAILED(status)) goto done;
    sdg_sixel_refine_palette(dither, rgb, (size_t)width * (size_t)height);
    sixel_dither_set_diffusion_type(dither, diffusion);
    status = sdg_sixel_emit(pixels, width, height, 3, dither, out, out_length);
done:
    if (dither) sixel_dither_unref(dither);
    return status;
}

/// Writes `stream` again with the pixels `mask` marks as key colour: decode to indices, give the
/// marked pixels one extra palette entry, encode the indices (PAL8, no second quantisation) with
/// that entry as libsixel's key colour, which the encoder never draws.
static int sdg_sixel_key_out(const unsigned char *stream, size_t stream_length, const unsigned char *mask,
                             int width, int height, unsigned char **out, size_t *out_length) {
    unsigned char *indexed = NULL, *palette = NULL;
    int w = 0, h = 0, ncolors = 0;
    sixel_dither_t *dither = NULL;
    SIXELSTATUS status = sixel_decode_raw((unsigned char *)stream, (int)stream_length, &indexed, &w, &h,
                                          &palette, &ncolors, NULL);
    if (SIXEL_FAILED(status)) goto done;
    if (w != width || h != height || ncolors <= 0 || ncolors > 255) { status = SIXEL_BAD_INPUT; goto done; }
    unsigned char keyed_palette[256 * 3] = {0};
    memcpy(keyed_palette, palette, (size_t)ncolors * 3);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        if (mask[i]) indexed[i] = (unsigned char)ncolors;
    }
    status = sixel_dither_new(&dither, ncolors + 1, NULL);
    if (SIXEL_FAILED(status)) goto done;
    sixel_dither_set_palette(dither, keyed_palette);
    sixel_dither_set_pixelformat(dither, SIXEL_PIXELFORMAT_PAL8);
    sixel_dither_set_transparent(dither, ncolors);
    status = sdg_sixel_emit(indexed, w, h, 1, dither, out, out_length);
done:
    if (dither) sixel_dither_unref(dither);
    free(indexed);
    free(palette);
    return status;
}

int sdg_sixel_encode_rgb(const unsigned char *rgb, const unsigned char *mask, int width, int height, int colors,
                         int diffusion, unsigned char **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (!mask) return sdg_sixel_encode_opaque(rgb, width, height, colors, diffusion, out, out_length);
    unsigned char *opaque = NULL;
    size_t opaque_length = 0;
    int status = sdg_sixel_encode_opaque(rgb, width, height, colors > 255 ? 255 : colors, diffusion, &opaque,
                                         &opaque_length);
    if (SIXEL_FAILED(status)) return status;
    status = sdg_sixel_key_out(opaque, opaque_length, mask, width, height, out, out_length);
    free(opaque);
    return status;
}

int sdg_sixel_decode_rgb(const unsigned char *data, size_t length, unsigned char **rgb, int *width,
                         int *height) {
    *rgb = NULL;
    *width = 0;
    *height = 0;
    if (!data || length == 0 || length > 0x7fffffff) return SIXEL_BAD_ARGUMENT;
    unsigned char *indexed = NULL, *palette = NULL;
    int w = 0, h = 0, ncolors = 0;
    SIXELSTATUS status = sixel_decode_raw((unsigned char *)data, (int)length, &indexed, &w, &h,
                                          &palette, &ncolors, NULL);
    if (SIXEL_FAILED(status)) goto done;
    if (w <= 0 || h <= 0 || !indexed || !palette) { status = SIXEL_BAD_INPUT; goto done; }
    unsigned char *pixels = malloc((size_t)w * (size_t)h * 3);
    if (!pixels) { status = SIXEL_BAD_ALLOCATION; goto done; }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        int index = indexed[i];
        if (index >= ncolors) index = 0;
        // sixel_decode_raw's palette holds 3 bytes (R, G, B) per entry.
        memcpy(pixels + i * 3, palette + index * 3, 3);
    }
    *rgb = pixels;
    *width = w;
    *height = h;
done:
    free(indexed);
    free(palette);
    return status;
}

void sdg_sixel_free(void *buffer) { free(buffer); }

#include "cpng.h"
#include <stdlib.h>
#include <string.h>

unsigned long sdg_png_version_number(void) { return (unsigned long)png_access_version_number(); }

struct sdg_png {
    png_structp png;
    png_infop info;
    uint64_t limit;
    sdg_png_info header;
    int have_header, too_large, failed, done;
    int rows, pass, completed_passes;
    uint8_t *pixels;
    char message[256];
};

// Errors: keep libpng's message and jump back to the setjmp in sdg_png_feed. Warnings: ignored.
static void sdg_png_error_fn(png_structp png, png_const_charp message) {
    sdg_png *p = (sdg_png *)png_get_error_ptr(png);
    if (p) {
        strncpy(p->message, message ? message : "unknown error", sizeof p->message - 1);
        p->message[sizeof p->message - 1] = 0;
    }
    png_longjmp(png, 1);
}
static void sdg_png_warning_fn(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void sdg_png_info_cb(png_structp png, png_infop info) {
    sdg_png *p = (sdg_png *)png_get_progressive_ptr(png);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    p->header = (sdg_png_info){ (int)w, (int)h, depth, color, interlace != PNG_INTERLACE_NONE };
    p->have_header = 1;
    if ((uint64_t)w * (uint64_t)h > p->limit) {
        p->too_large = 1;
        png_error(png, "image exceeds the pixel limit");
    }
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unexpected row layout");
    p->pixels = calloc((size_t)w * h, 4);
    if (!p->pixels) png_error(png, "out of memory");
}

static void sdg_png_row_cb(png_structp png, png_bytep row, png_uint_32 row_num, int pass) {
    sdg_png *p = (sdg_png *)png_get_progressive_ptr(png);
    if (!row || row_num >= (png_uint_32)p->header.height) return;
    if (pass != p->pass) { p->pass = pass; p->completed_passes = pass; p->rows = 0; }
    png_progressive_combine_row(png, p->pixels + (size_t)row_num * (size_t)p->header.width * 4, row);
    if ((int)row_num + 1 > p->rows) p->rows = (int)row_num + 1;
}

static void sdg_png_end_cb(png_structp png, png_infop info) {
    (void)info;
    sdg_png *p = (sdg_png *)png_get_progressive_ptr(png);
    p->done = 1;
    p->completed_passes = 7;
}

sdg_png *sdg_png_create(uint64_t pixel_limit) {
    sdg_png *p = calloc(1, sizeof(sdg_png));
    if (!p) return NULL;
    p->limit = pixel_limit;
    p->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, p, sdg_png_error_fn, sdg_png_warning_fn);
    if (p->png) p->info = png_create_info_struct(p->png);
    if (!p->png || !p->info) { sdg_png_destroy(p); return NULL; }
    if (setjmp(png_jmpbuf(p->png))) { sdg_png_destroy(p); return NULL; }
    png_set_progressive_read_fn(p->png, p, sdg_png_info_cb, sdg_png_row_cb, sdg_png_end_cb);
    return p;
}

void sdg_png_destroy(sdg_png *p) {
    if (!p) return;
    if (p->png) png_destroy_read_struct(&p->png, p->info ? &p->info : NULL, NULL);
    free(p->pixels);
    free(p);
}

int sdg_png_feed(sdg_png *p, const uint8_t *bytes, size_t length) {
    if (p->too_large) return SDG_PNG_TOO_LARGE;
    if (p->failed) return SDG_PNG_ERROR;
    if (p->done) return SDG_PNG_DONE;
    if (setjmp(png_jmpbuf(p->png))) {
        p->failed = 1;
        return p->too_large ? SDG_PNG_TOO_LARGE : SDG_PNG_ERROR;
    }
    png_process_data(p->png, p->info, (png_bytep)bytes, length);
    return p->done ? SDG_PNG_DONE : SDG_PNG_MORE;
}

int sdg_png_header(const sdg_png *p, sdg_png_info *info) {
    if (!p->have_header) return 0;
    *info = p->header;
    return 1;
}
const uint8_t *sdg_png_pixels(const sdg_png *p) { return p->pixels; }
int sdg_png_rows(const sdg_png *p) { return p->rows; }
int sdg_png_completed_passes(const sdg_png *p) { return p->completed_passes; }
const char *sdg_png_message(const sdg_png *p) { return p->message; }

#include "cgif.h"
#include <stdlib.h>
#include <string.h>

int sdg_gif_version_number(void) { return GIFLIB_MAJOR * 10000 + GIFLIB_MINOR * 100 + GIFLIB_RELEASE; }

typedef struct sdg_gif_reader {
    const uint8_t *bytes;
    size_t length, position;
} sdg_gif_reader;

// giflib's InputFunc: copy up to `count` bytes; a short read makes giflib report D_GIF_ERR_READ_FAILED.
static int sdg_gif_read(GifFileType *gif, GifByteType *out, int count) {
    sdg_gif_reader *r = (sdg_gif_reader *)gif->UserData;
    if (count <= 0) return 0;
    size_t left = r->length - r->position;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(out, r->bytes + r->position, n);
    r->position += n;
    return (int)n;
}

GifFileType *sdg_gif_open_memory(const uint8_t *bytes, size_t length, int *error) {
    sdg_gif_reader *r = malloc(sizeof *r);
    if (!r) { *error = D_GIF_ERR_NOT_ENOUGH_MEM; return NULL; }
    *r = (sdg_gif_reader){ bytes, length, 0 };
    GifFileType *gif = DGifOpen(r, sdg_gif_read, error);
    if (!gif) free(r);
    return gif;
}

void sdg_gif_close(GifFileType *gif) {
    if (!gif) return;
    void *reader = gif->UserData;
    int error = 0;
    DGifCloseFile(gif, &error);
    free(reader);
}

const char *sdg_gif_error_string(int error) {
    const char *s = GifErrorString(error);
    return s ? s : "unknown GIF error";
}

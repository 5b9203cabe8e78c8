#include "ctiff.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <tiffio.h>

struct sdg_tiff {
    const uint8_t *bytes;
    size_t length;
    size_t position;
    size_t max_alloc;
    TIFF *tif;
    char error[256];
};

static tmsize_t read_proc(thandle_t h, void *buf, tmsize_t size) {
    struct sdg_tiff *t = (struct sdg_tiff *)h;
    if (size <= 0 || t->position >= t->length) return 0;
    size_t n = t->length - t->position;
    if ((size_t)size < n) n = (size_t)size;
    memcpy(buf, t->bytes + t->position, n);
    t->position += n;
    return (tmsize_t)n;
}

static tmsize_t write_proc(thandle_t h, void *buf, tmsize_t size) {
    (void)h; (void)buf; (void)size;
    return -1;
}

static toff_t seek_proc(thandle_t h, toff_t offset, int whence) {
    struct sdg_tiff *t = (struct sdg_tiff *)h;
    uint64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = t->position; break;
    case SEEK_END: base = t->length; break;
    default: return (toff_t)-1;
    }
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    uint64_t target = base + offset;
    // Past the end is allowed (reads there return 0 bytes), as for a file.
    if (target > (uint64_t)SIZE_MAX) return (toff_t)-1;
    t->position = (size_t)target;
    return (toff_t)target;
}

static int close_proc(thandle_t h) { (void)h; return 0; }
static toff_t size_proc(thandle_t h) { return (toff_t)((struct sdg_tiff *)h)->length; }

static int map_proc(thandle_t h, void **base, toff_t *size) {
    struct sdg_tiff *t = (struct sdg_tiff *)h;
    // Read-only: libtiff maps files PROT_READ and never writes a mapping opened for reading.
    *base = (void *)t->bytes;
    *size = (toff_t)t->length;
    return 1;
}

static void unmap_proc(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

static int error_handler(TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    struct sdg_tiff *t = (struct sdg_tiff *)user_data;
    if (t) vsnprintf(t->error, sizeof t->error, fmt, ap);
    return 1;  // handled: the global handler (stderr) is not called
}

static int warning_handler(TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user_data; (void)module; (void)fmt; (void)ap;
    return 1;
}

static pthread_once_t silence_once = PTHREAD_ONCE_INIT;
static void silence_globals(void) {
    // A safety net: nothing of libtiff's reaches stderr even through a path without a handle.
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

static char version_line[128];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static void copy_version(void) {
    const char *v = TIFFGetVersion();
    size_t n = strcspn(v, "\n");
    if (n >= sizeof version_line) n = sizeof version_line - 1;
    memcpy(version_line, v, n);
    version_line[n] = 0;
}

const char *sdg_tiff_version(void) {
    pthread_once(&version_once, copy_version);
    return version_line;
}

sdg_tiff *sdg_tiff_open(const uint8_t *bytes, size_t length, size_t max_alloc) {
    pthread_once(&silence_once, silence_globals);
    struct sdg_tiff *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->bytes = bytes;
    t->length = bytes ? length : 0;
    t->max_alloc = max_alloc;
    TIFFOpenOptions *opts = TIFFOpenOptionsAlloc();
    if (!opts) { free(t); return NULL; }
    TIFFOpenOptionsSetMaxSingleMemAlloc(opts, (tmsize_t)max_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(opts, error_handler, t);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, warning_handler, t);
    t->tif = TIFFClientOpenExt("memory", "r", (thandle_t)t, read_proc, write_proc, seek_proc, close_proc, size_proc,
                               map_proc, unmap_proc, opts);
    TIFFOpenOptionsFree(opts);
    if (!t->tif && !t->error[0]) snprintf(t->error, sizeof t->error, "not a readable TIFF");
    return t;
}

int sdg_tiff_ok(const sdg_tiff *t) { return t && t->tif != NULL; }
const char *sdg_tiff_error(const sdg_tiff *t) { return t ? t->error : ""; }

int sdg_tiff_size(sdg_tiff *t, uint32_t *width, uint32_t *height, int *orientation) {
    if (!t || !t->tif) return -1;
    uint32_t w = 0, h = 0;
    uint16_t o = ORIENTATION_TOPLEFT;
    if (!TIFFGetField(t->tif, TIFFTAG_IMAGEWIDTH, &w) || !TIFFGetField(t->tif, TIFFTAG_IMAGELENGTH, &h) || w == 0 || h == 0) {
        snprintf(t->error, sizeof t->error, "no image size");
        return -1;
    }
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_ORIENTATION, &o);
    *width = w;
    *height = h;
    *orientation = (o >= 1 && o <= 8) ? (int)o : 1;
    return 0;
}

int sdg_tiff_check(sdg_tiff *t, size_t *work_bytes) {
    if (!t || !t->tif) return -1;
    TIFF *tif = t->tif;
    uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    char emsg[1024] = {0};
    if (!TIFFRGBAImageOK(tif, emsg)) {
        snprintf(t->error, sizeof t->error, "%s", emsg[0] ? emsg : "cannot read as RGBA");
        return -1;
    }
    tmsize_t unit = TIFFIsTiled(tif) ? TIFFTileSize(tif) : TIFFStripSize(tif);
    if (unit <= 0) {
        if (!t->error[0]) snprintf(t->error, sizeof t->error, "invalid strip or tile size");
        return -1;
    }
    uint64_t work = (uint64_t)unit * (planar == PLANARCONFIG_SEPARATE ? 4u : 1u);
    if (work > t->max_alloc) {
        snprintf(t->error, sizeof t->error, "a %s of %llu bytes is over the %zu-byte cap", TIFFIsTiled(tif) ? "tile" : "strip",
                 (unsigned long long)work, t->max_alloc);
        return -1;
    }
    *work_bytes = (size_t)work;
    return 0;
}

int sdg_tiff_read_rgba(sdg_tiff *t, uint8_t *out, size_t out_size) {
    if (!t || !t->tif || !out) return -1;
    TIFFRGBAImage img;
    char emsg[1024] = {0};
    if (!TIFFRGBAImageBegin(&img, t->tif, 1, emsg)) {
        snprintf(t->error, sizeof t->error, "%s", emsg[0] ? emsg : "cannot read as RGBA");
        return -1;
    }
    uint32_t w = img.width, h = img.height;
    if (w == 0 || h == 0 || (uint64_t)w * h > out_size / 4) {
        TIFFRGBAImageEnd(&img);
        snprintf(t->error, sizeof t->error, "image size changed");
        return -1;
    }
    // Rows in stored order: the requested orientation is the file's own, so libtiff flips nothing
    // (it cannot rotate, and the Swift side applies all eight orientations).
    img.req_orientation = img.orientation;
    uint32_t *raster = (uint32_t *)out;
    int ok = TIFFRGBAImageGet(&img, raster, w, h);
    TIFFRGBAImageEnd(&img);
    if (!ok) {
        if (!t->error[0]) snprintf(t->error, sizeof t->error, "cannot read the pixels");
        return -1;
    }
    // Packed ABGR words → RGBA8 bytes, alpha still associated (libtiff premultiplies unassociated
    // alpha; without alpha it packs 255).
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = raster[i];
        uint8_t *o = out + i * 4;
        o[0] = (uint8_t)TIFFGetR(p); o[1] = (uint8_t)TIFFGetG(p); o[2] = (uint8_t)TIFFGetB(p); o[3] = (uint8_t)TIFFGetA(p);
    }
    return 0;
}

void sdg_tiff_close(sdg_tiff *t) {
    if (!t) return;
    if (t->tif) TIFFClose(t->tif);
    free(t);
}

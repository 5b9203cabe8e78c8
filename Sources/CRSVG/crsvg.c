#include "crsvg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The few types of librsvg, cairo and glib used here, as their headers (2.54, 1.16, 2.74) define them.
typedef struct { uint32_t domain; int code; char *message; } sdg_GError;
typedef struct { double length; int unit; } sdg_RsvgLength;
typedef struct { double x, y, width, height; } sdg_RsvgRectangle;
enum { SDG_CAIRO_FORMAT_ARGB32 = 0, SDG_CAIRO_STATUS_SUCCESS = 0 };
typedef void (*sdg_GLogFunc)(const char *domain, int level, const char *message, void *data);
typedef int (*sdg_GLogWriterFunc)(int level, const void *fields, size_t n_fields, void *data);

static struct {
    void *(*new_from_data)(const uint8_t *, size_t, sdg_GError **);
    int (*intrinsic_size_in_pixels)(void *, double *, double *);
    void (*intrinsic_dimensions)(void *, int *, sdg_RsvgLength *, int *, sdg_RsvgLength *, int *, sdg_RsvgRectangle *);
    int (*render_document)(void *, void *, const sdg_RsvgRectangle *, sdg_GError **);
    void (*object_unref)(void *);
    void (*error_free)(sdg_GError *);
    void *(*surface_create_for_data)(unsigned char *, int, int, int, int);
    int (*surface_status)(void *);
    void (*surface_flush)(void *);
    void (*surface_destroy)(void *);
    void *(*cairo_create)(void *);
    int (*cairo_status)(void *);
    void (*cairo_destroy)(void *);
    const char *(*status_to_string)(int);
} rsvg;

static pthread_once_t sdg_svg_once = PTHREAD_ONCE_INIT;
typedef void (*sdg_xml_error_fn)(void *, const char *, ...);
static void sdg_xml_drop(void *context, const char *message, ...) { (void)context; (void)message; }
static void (*sdg_xml_set_generic)(void *, sdg_xml_error_fn);
/// Drops libxml2's generic errors on the calling thread.
static void sdg_svg_silence_xml(void) { if (sdg_xml_set_generic) sdg_xml_set_generic(NULL, sdg_xml_drop); }
static int sdg_svg_loaded;  // set (atomically) once librsvg's functions are resolved
static char sdg_svg_error[256];
static char sdg_svg_version_text[32];

static void sdg_svg_drop_log(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)level; (void)message; (void)data;
}
static int sdg_svg_drop_structured(int level, const void *fields, size_t n_fields, void *data) {
    (void)level; (void)fields; (void)n_fields; (void)data;
    return 1;  // G_LOG_WRITER_HANDLED
}

static void sdg_svg_open_library(void) {
    void *lib = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(sdg_svg_error, sizeof sdg_svg_error, "librsvg-2.so.2 not found");
        return;
    }
    // dlsym on librsvg's handle finds its dependencies' symbols too (cairo, glib, gobject).
#define SDG_SYM(field, name) if (!(*(void **)&rsvg.field = dlsym(lib, name))) { \
        snprintf(sdg_svg_error, sizeof sdg_svg_error, "librsvg lacks %s", name); \
        memset(&rsvg, 0, sizeof rsvg); return; }
    SDG_SYM(new_from_data, "rsvg_handle_new_from_data")
    SDG_SYM(intrinsic_size_in_pixels, "rsvg_handle_get_intrinsic_size_in_pixels")
    SDG_SYM(intrinsic_dimensions, "rsvg_handle_get_intrinsic_dimensions")
    SDG_SYM(render_document, "rsvg_handle_render_document")
    SDG_SYM(object_unref, "g_object_unref")
    SDG_SYM(error_free, "g_error_free")
    SDG_SYM(surface_create_for_data, "cairo_image_surface_create_for_data")
    SDG_SYM(surface_status, "cairo_surface_status")
    SDG_SYM(surface_flush, "cairo_surface_flush")
    SDG_SYM(surface_destroy, "cairo_surface_destroy")
    SDG_SYM(cairo_create, "cairo_create")
    SDG_SYM(cairo_status, "cairo_status")
    SDG_SYM(cairo_destroy, "cairo_destroy")
    SDG_SYM(status_to_string, "cairo_status_to_string")
#undef SDG_SYM
    // glib's warnings (and librsvg's, through glib) would go to stderr: drop them, plain and structured.
    void (*set_default)(sdg_GLogFunc, void *) = (void (*)(sdg_GLogFunc, void *))dlsym(lib, "g_log_set_default_handler");
    void (*set_writer)(sdg_GLogWriterFunc, void *, void *) = (void (*)(sdg_GLogWriterFunc, void *, void *))dlsym(lib, "g_log_set_writer_func");
    if (set_default) set_default(sdg_svg_drop_log, NULL);
    if (set_writer) set_writer(sdg_svg_drop_structured, NULL, NULL);
    // libxml2 (librsvg's parser) prints encoding errors through its generic error function, which
    // is per thread: the default for threads to come, this thread, and each decode's thread as it
    // opens a document (`sdg_svg_silence_xml`). The fuzz run found "encoding error : input
    // conversion failed" on stderr.
    void *xml = dlopen("libxml2.so.2", RTLD_NOW | RTLD_NOLOAD);
    if (xml) {
        void (*thread_default)(void *, sdg_xml_error_fn) = (void (*)(void *, sdg_xml_error_fn))dlsym(xml, "xmlThrDefSetGenericErrorFunc");
        sdg_xml_set_generic = (void (*)(void *, sdg_xml_error_fn))dlsym(xml, "xmlSetGenericErrorFunc");
        if (thread_default) thread_default(NULL, sdg_xml_drop);
    }
    sdg_svg_silence_xml();
    const unsigned *major = dlsym(lib, "rsvg_major_version"), *minor = dlsym(lib, "rsvg_minor_version"),
                   *micro = dlsym(lib, "rsvg_micro_version");
    if (major && minor && micro) snprintf(sdg_svg_version_text, sizeof sdg_svg_version_text, "%u.%u.%u", *major, *minor, *micro);
    else snprintf(sdg_svg_version_text, sizeof sdg_svg_version_text, "2");
    __atomic_store_n(&sdg_svg_loaded, 1, __ATOMIC_RELEASE);
}

int sdg_svg_is_loaded(void) { return __atomic_load_n(&sdg_svg_loaded, __ATOMIC_ACQUIRE); }

int sdg_svg_load(void) {
    pthread_once(&sdg_svg_once, sdg_svg_open_library);
    return rsvg.new_from_data ? 0 : -1;
}

const char *sdg_svg_load_error(void) { return sdg_svg_error; }

const char *sdg_svg_version(void) {
    sdg_svg_load();
    return sdg_svg_version_text;
}

static void sdg_svg_take_error(sdg_GError *e, const char *fallback, char *error, size_t error_size) {
    if (error && error_size) snprintf(error, error_size, "%s", e && e->message ? e->message : fallback);
    if (e) rsvg.error_free(e);
}

sdg_svg *sdg_svg_open(const uint8_t *bytes, size_t length, char *error, size_t error_size) {
    if (sdg_svg_load() != 0) {
        if (error && error_size) snprintf(error, error_size, "%s", sdg_svg_error);
        return NULL;
    }
    sdg_svg_silence_xml();
    sdg_GError *e = NULL;
    // No base file or URI: librsvg then resolves no external reference (only data: URLs).
    void *handle = rsvg.new_from_data(bytes, length, &e);
    if (!handle) { sdg_svg_take_error(e, "invalid SVG", error, error_size); return NULL; }
    if (e) rsvg.error_free(e);
    return (sdg_svg *)handle;
}

void sdg_svg_close(sdg_svg *svg) {
    if (svg) rsvg.object_unref(svg);
}

int sdg_svg_intrinsic(sdg_svg *svg, double *width, double *height) {
    double w = 0, h = 0;
    if (rsvg.intrinsic_size_in_pixels(svg, &w, &h) && w > 0 && h > 0) {
        *width = w;
        *height = h;
        return 2;
    }
    int has_w = 0, has_h = 0, has_box = 0;
    sdg_RsvgLength lw, lh;
    sdg_RsvgRectangle box = { 0, 0, 0, 0 };
    rsvg.intrinsic_dimensions(svg, &has_w, &lw, &has_h, &lh, &has_box, &box);
    if (has_box && box.width > 0 && box.height > 0) {
        *width = box.width;
        *height = box.height;
        return 1;
    }
    return 0;
}

int sdg_svg_render(sdg_svg *svg, int width, int height, uint8_t *out, char *error, size_t error_size) {
    memset(out, 0, (size_t)width * (size_t)height * 4);
    void *surface = rsvg.surface_create_for_data(out, SDG_CAIRO_FORMAT_ARGB32, width, height, width * 4);
    int status = rsvg.surface_status(surface);
    if (status != SDG_CAIRO_STATUS_SUCCESS) {
        snprintf(error, error_size, "%s", rsvg.status_to_string(status));
        rsvg.surface_destroy(surface);
        return -1;
    }
    void *cr = rsvg.cairo_create(surface);
    sdg_RsvgRectangle viewport = { 0, 0, width, height };
    sdg_GError *e = NULL;
    int ok = rsvg.render_document(svg, cr, &viewport, &e);
    status = rsvg.cairo_status(cr);
    rsvg.cairo_destroy(cr);
    rsvg.surface_flush(surface);
    rsvg.surface_destroy(surface);
    if (!ok || status != SDG_CAIRO_STATUS_SUCCESS) {
        if (!ok) sdg_svg_take_error(e, "render failed", error, error_size);
        else { snprintf(error, error_size, "%s", rsvg.status_to_string(status)); if (e) rsvg.error_free(e); }
        return -1;
    }
    if (e) rsvg.error_free(e);
    // cairo's ARGB32: one native-endian 32-bit word per pixel → RGBA bytes, still premultiplied.
    uint32_t *words = (uint32_t *)out;
    size_t count = (size_t)width * (size_t)height;
    for (size_t i = 0; i < count; i++) {
        uint32_t p = words[i];
        uint8_t *o = out + i * 4;
        o[0] = (uint8_t)(p >> 16); o[1] = (uint8_t)(p >> 8); o[2] = (uint8_t)p; o[3] = (uint8_t)(p >> 24);
    }
    return 0;
}

#include "cjpeg.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

long sdg_jpeg_turbo_version_number(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return 0;
#endif
}
int sdg_jpeg_lib_version(void) { return JPEG_LIB_VERSION; }

#define SDG_JPEG_MAX_COMPONENTS 10  // libjpeg's limit (jmorecfg.h)
#define SDG_JPEG_SCAN_RECORDS 256

/// A block of memory for a decode's coefficient arrays (see "coefficient arrays from a reused arena").
typedef struct { void *base; size_t size; int fresh; } sdg_block;
struct sdg_barray;

struct sdg_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_source_mgr src;
    jmp_buf jump;
    uint8_t *buf;            // input not yet consumed by libjpeg starts at buf
    size_t capacity;
    size_t skip_pending;     // bytes libjpeg asked to skip that have not arrived yet
    int failed, configured, started, finished, buffered, cmyk, input_done;
    int rows;
    int scan_limit;          // most scans consumed (0: no limit); see sdg_jpeg_set_scan_limit
    int scan_limited;        // 1 once input stopped at scan_limit: the source then ends in EOI
    struct jpeg_progress_mgr progress;
    uint8_t *pixels;         // out_w × out_h × 4
    uint8_t *row4;           // one CMYK row
    long warnings;
    // Per component and zigzag coefficient: the successive-approximation low bits still missing
    // (Al of the last scan that carried it; 0xFF: not carried yet), from the scan headers seen.
    sdg_jpeg_scan_header scans[SDG_JPEG_SCAN_RECORDS];  // the first scans' headers (buffered mode)
    int scan_count;
    char message[JMSG_LENGTH_MAX + 1];
    // The whole-image coefficient arrays (buffered mode) and the block holding them; libjpeg's own
    // memory manager methods that the arena's wrap.
    struct sdg_barray *barrays;
    sdg_block block;
    void (*mem_realize)(j_common_ptr);
    void (*mem_free_pool)(j_common_ptr, int);
    void (*mem_self_destruct)(j_common_ptr);
};

// MARK: error manager: format the message, jump back into this file, never print.

static void sdg_note_scan(sdg_jpeg *d);

static void sdg_error_exit(j_common_ptr c) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    (*c->err->format_message)(c, d->message);
    longjmp(d->jump, 1);
}

static void sdg_emit_message(j_common_ptr c, int level) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    if (level < 0) {
        if (d->warnings == 0) (*c->err->format_message)(c, d->message);
        d->warnings++;
        c->err->num_warnings++;
    }
}

static void sdg_output_message(j_common_ptr c) { (void)c; }

// Single-pass decoding of a multi-scan file consumes every scan inside jpeg_start_decompress, which
// calls this monitor as it goes (libjpeg-turbo's advice against scan bombs, as `djpeg -maxscans`):
// past the limit the decode fails. Buffered mode stops at the limit instead (sdg_jpeg_advance).
static void sdg_progress_monitor(j_common_ptr c) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    if (c->is_decompressor && d->scan_limit > 0 && d->cinfo.input_scan_number > d->scan_limit) {
        snprintf(d->message, sizeof d->message, "too many scans (more than %d)", d->scan_limit);
        d->err.msg_code = 0;
        longjmp(d->jump, 1);
    }
}

// MARK: suspending memory source: libjpeg reads what has been appended; when it runs out it suspends
// and retries from its last restart point once more bytes are appended.

static void sdg_init_source(j_decompress_ptr c) { (void)c; }
static boolean sdg_fill_input_buffer(j_decompress_ptr c) { (void)c; return FALSE; }
static void sdg_skip_input_data(j_decompress_ptr c, long count) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    if (count <= 0) return;
    size_t n = (size_t)count;
    if (n > d->src.bytes_in_buffer) {
        d->skip_pending += n - d->src.bytes_in_buffer;
        n = d->src.bytes_in_buffer;
    }
    d->src.next_input_byte += n;
    d->src.bytes_in_buffer -= n;
}
static void sdg_term_source(j_decompress_ptr c) { (void)c; }

// MARK: coefficient arrays from a reused arena
//
// A progressive (buffered-mode) decode keeps every DCT coefficient of the image: about 36 MB for a
// 12 MP photo, whatever the output scale, zeroed before use. From malloc each such array is a fresh
// mapping (the gallery's heap tuning maps every buffer of 1 MB or more on its own, to give image
// buffers back to the kernel), so every image faulted its pages in again and the kernel zeroed
// them: 54% of a progressive contact sheet's CPU time. Here the whole-image coefficient arrays
// ("virtual block arrays", all in memory) come from one block per decode, taken from a small
// process-wide cache of blocks (at most SDG_ARENA_KEPT bytes kept, and only while some decode
// runs: when the last one ends every block goes back to the kernel; huge pages where the kernel has
// them); a reused block is zeroed with memset row by row as libjpeg first reaches each row (a new
// mapping is zero already); the block goes back when libjpeg frees the image's pool.

#define SDG_ARENA_SLOTS 4
#define SDG_ARENA_KEPT ((size_t)40 << 20)  // bytes of free blocks kept for the next decodes
#define SDG_ARENA_ALIGN ((size_t)2 << 20)   // a huge page


static pthread_mutex_t sdg_arena_lock = PTHREAD_MUTEX_INITIALIZER;
static sdg_block sdg_arena_free[SDG_ARENA_SLOTS];
static int sdg_arena_in_use;  // blocks held by decodes now; at 0 the kept ones go back to the kernel

static sdg_block sdg_arena_take(size_t size) {
    size = (size + SDG_ARENA_ALIGN - 1) & ~(SDG_ARENA_ALIGN - 1);
    sdg_block found = {NULL, 0, 0};
    pthread_mutex_lock(&sdg_arena_lock);
    int best = -1;
    for (int i = 0; i < SDG_ARENA_SLOTS; i++) {
        if (sdg_arena_free[i].base && sdg_arena_free[i].size >= size && sdg_arena_free[i].size <= size * 2
            && (best < 0 || sdg_arena_free[i].size < sdg_arena_free[best].size)) best = i;
    }
    if (best >= 0) {
        found = sdg_arena_free[best];
        sdg_arena_free[best] = (sdg_block){NULL, 0, 0};
    }
    sdg_arena_in_use++;
    pthread_mutex_unlock(&sdg_arena_lock);
    if (found.base) return found;
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        pthread_mutex_lock(&sdg_arena_lock);
        sdg_arena_in_use--;
        pthread_mutex_unlock(&sdg_arena_lock);
        return (sdg_block){NULL, 0, 0};
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(base, size, MADV_HUGEPAGE);
#endif
    return (sdg_block){base, size, 1};  // zero-filled by the kernel, page by page as it is touched
}

static void sdg_arena_give(sdg_block block) {
    if (!block.base) return;
    pthread_mutex_lock(&sdg_arena_lock);
    if (--sdg_arena_in_use == 0) {
        // No decode is running: nothing is kept while idle (what HeapTuning is for).
        sdg_block kept_blocks[SDG_ARENA_SLOTS];
        memcpy(kept_blocks, sdg_arena_free, sizeof kept_blocks);
        memset(sdg_arena_free, 0, sizeof sdg_arena_free);
        pthread_mutex_unlock(&sdg_arena_lock);
        for (int i = 0; i < SDG_ARENA_SLOTS; i++) if (kept_blocks[i].base) munmap(kept_blocks[i].base, kept_blocks[i].size);
        munmap(block.base, block.size);
        return;
    }
    size_t kept = 0;
    int empty = -1, smallest = -1;
    for (int i = 0; i < SDG_ARENA_SLOTS; i++) {
        if (!sdg_arena_free[i].base) { if (empty < 0) empty = i; continue; }
        kept += sdg_arena_free[i].size;
        if (smallest < 0 || sdg_arena_free[i].size < sdg_arena_free[smallest].size) smallest = i;
    }
    sdg_block drop = block;
    if (block.size <= SDG_ARENA_KEPT) {
        // Keep the newest block; make room by dropping the smallest kept ones.
        while (smallest >= 0 && (empty < 0 || kept + block.size > SDG_ARENA_KEPT)) {
            sdg_block old = sdg_arena_free[smallest];
            sdg_arena_free[smallest] = (sdg_block){NULL, 0, 0};
            kept -= old.size;
            pthread_mutex_unlock(&sdg_arena_lock);
            munmap(old.base, old.size);
            pthread_mutex_lock(&sdg_arena_lock);
            empty = -1; smallest = -1; kept = 0;
            for (int i = 0; i < SDG_ARENA_SLOTS; i++) {
                if (!sdg_arena_free[i].base) { if (empty < 0) empty = i; continue; }
                kept += sdg_arena_free[i].size;
                if (smallest < 0 || sdg_arena_free[i].size < sdg_arena_free[smallest].size) smallest = i;
            }
        }
        if (empty >= 0 && kept + block.size <= SDG_ARENA_KEPT) {
            block.fresh = 0;
            sdg_arena_free[empty] = block;
            drop = (sdg_block){NULL, 0, 0};
        }
    }
    pthread_mutex_unlock(&sdg_arena_lock);
    if (drop.base) munmap(drop.base, drop.size);
}

/// One whole-image coefficient array, all in memory.
struct sdg_barray {
    JBLOCKARRAY rows;       // row pointers into the decoder's block
    JDIMENSION blocksperrow, numrows;
    JDIMENSION first_undef_row;  // rows from here on are zeroed when first accessed (a reused block)
    struct sdg_barray *next;
};

static jvirt_barray_ptr sdg_request_virt_barray(j_common_ptr c, int pool_id, boolean pre_zero,
                                                JDIMENSION blocksperrow, JDIMENSION numrows, JDIMENSION maxaccess) {
    (void)pre_zero; (void)maxaccess;  // every array is zeroed; all of it is in memory
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    if (pool_id != JPOOL_IMAGE) ERREXIT1(c, JERR_BAD_POOL_ID, pool_id);
    struct sdg_barray *a = (*c->mem->alloc_small)(c, JPOOL_IMAGE, sizeof(struct sdg_barray));
    a->rows = NULL;
    a->first_undef_row = 0;
    a->blocksperrow = blocksperrow;
    a->numrows = numrows;
    a->next = d->barrays;
    d->barrays = a;
    return (jvirt_barray_ptr)a;
}

static void sdg_realize_virt_arrays(j_common_ptr c) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    (*d->mem_realize)(c);  // libjpeg's own (sample arrays; it knows nothing of ours)
    size_t total = 0;
    for (struct sdg_barray *a = d->barrays; a; a = a->next) {
        if (a->rows) continue;
        total += (size_t)a->blocksperrow * a->numrows * sizeof(JBLOCK);
    }
    if (total == 0) return;
    if (d->block.base) ERREXIT(c, JERR_VIRTUAL_BUG);
    if ((long)total > c->mem->max_memory_to_use && c->mem->max_memory_to_use > 0) ERREXIT1(c, JERR_OUT_OF_MEMORY, 20);
    d->block = sdg_arena_take(total);
    if (!d->block.base) ERREXIT1(c, JERR_OUT_OF_MEMORY, 21);
    uint8_t *next = d->block.base;
    for (struct sdg_barray *a = d->barrays; a; a = a->next) {
        if (a->rows) continue;
        a->rows = (*c->mem->alloc_small)(c, JPOOL_IMAGE, (size_t)a->numrows * sizeof(JBLOCKROW));
        for (JDIMENSION r = 0; r < a->numrows; r++) {
            a->rows[r] = (JBLOCKROW)next;
            next += (size_t)a->blocksperrow * sizeof(JBLOCK);
        }
        // A fresh mapping reads as zeros already; a reused block is zeroed row by row as libjpeg
        // first reaches it (as its own manager does), so a decode cancelled early touches little.
        a->first_undef_row = d->block.fresh ? a->numrows : 0;
    }
}

static JBLOCKARRAY sdg_access_virt_barray(j_common_ptr c, jvirt_barray_ptr ptr, JDIMENSION start_row,
                                          JDIMENSION num_rows, boolean writable) {
    (void)writable;
    struct sdg_barray *a = (struct sdg_barray *)ptr;
    if (!a->rows || start_row > a->numrows || num_rows > a->numrows - start_row) ERREXIT(c, JERR_BAD_VIRTUAL_ACCESS);
    JDIMENSION end_row = start_row + num_rows;
    if (a->first_undef_row < end_row) {
        size_t row_bytes = (size_t)a->blocksperrow * sizeof(JBLOCK);
        memset(a->rows[a->first_undef_row], 0, (size_t)(end_row - a->first_undef_row) * row_bytes);
        a->first_undef_row = end_row;
    }
    return a->rows + start_row;
}

/// The image's pool (and with it the arrays' headers) goes: the block goes back to the arena.
static void sdg_release_barrays(sdg_jpeg *d) {
    d->barrays = NULL;
    sdg_arena_give(d->block);
    d->block = (sdg_block){NULL, 0, 0};
}

static void sdg_free_pool(j_common_ptr c, int pool_id) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    if (pool_id == JPOOL_IMAGE) sdg_release_barrays(d);
    (*d->mem_free_pool)(c, pool_id);
}

static void sdg_self_destruct(j_common_ptr c) {
    sdg_jpeg *d = (sdg_jpeg *)c->client_data;
    sdg_release_barrays(d);
    (*d->mem_self_destruct)(c);
}

static void sdg_install_memory_hooks(sdg_jpeg *d) {
    struct jpeg_memory_mgr *m = d->cinfo.mem;
    d->mem_realize = m->realize_virt_arrays;
    d->mem_free_pool = m->free_pool;
    d->mem_self_destruct = m->self_destruct;
    m->request_virt_barray = sdg_request_virt_barray;
    m->realize_virt_arrays = sdg_realize_virt_arrays;
    m->access_virt_barray = sdg_access_virt_barray;
    m->free_pool = sdg_free_pool;
    m->self_destruct = sdg_self_destruct;
}

sdg_jpeg *sdg_jpeg_create(void) {
    sdg_jpeg *d = calloc(1, sizeof(sdg_jpeg));
    if (!d) return NULL;
    d->cinfo.err = jpeg_std_error(&d->err);
    d->err.error_exit = sdg_error_exit;
    d->err.emit_message = sdg_emit_message;
    d->err.output_message = sdg_output_message;
    d->cinfo.client_data = d;
    d->progress.progress_monitor = sdg_progress_monitor;
    d->cinfo.progress = &d->progress;
    if (setjmp(d->jump)) {
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    sdg_install_memory_hooks(d);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    d->src.init_source = sdg_init_source;
    d->src.fill_input_buffer = sdg_fill_input_buffer;
    d->src.skip_input_data = sdg_skip_input_data;
    d->src.resync_to_restart = jpeg_resync_to_restart;
    d->src.term_source = sdg_term_source;
    d->cinfo.src = &d->src;
    return d;
}

void sdg_jpeg_destroy(sdg_jpeg *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);
    free(d->buf);
    free(d->pixels);
    free(d->row4);
    free(d);
}

// What libjpeg reads after the last scan allowed: the end of the image. Whatever libjpeg consumes
// from then on (jpeg_finish_output, jpeg_read_scanlines and jpeg_finish_decompress all read input
// on their own) is this marker, so the scans left out are never parsed, and the decoder ends the
// image as at a real EOI.
static const JOCTET sdg_eoi[2] = {0xFF, JPEG_EOI};

static void sdg_end_input_at_limit(sdg_jpeg *d) {
    d->scan_limited = 1;
    // The entropy decoder may already have read the next scan's marker (libjpeg keeps it in
    // unread_marker, its public field for that): the marker read next is the EOI instead.
    if (d->cinfo.unread_marker != 0) d->cinfo.unread_marker = JPEG_EOI;
    d->src.next_input_byte = sdg_eoi;
    d->src.bytes_in_buffer = sizeof sdg_eoi;
    d->skip_pending = 0;
    free(d->buf);
    d->buf = NULL;
    d->capacity = 0;
}

int sdg_jpeg_append(sdg_jpeg *d, const uint8_t *bytes, size_t length) {
    if (d->scan_limited) return 1;  // input past the scan limit is dropped (sdg_end_input_at_limit)
    if (d->skip_pending) {
        size_t n = length < d->skip_pending ? length : d->skip_pending;
        bytes += n; length -= n; d->skip_pending -= n;
    }
    // Unconsumed input lives at next_input_byte; new bytes go after it. Only when they do not fit is
    // the unconsumed part moved to the front (and the buffer grown), so appends are amortised O(n)
    // and the buffer stays about as large as the most input libjpeg ever had to hold back.
    size_t keep = d->src.bytes_in_buffer;
    size_t start = keep ? (size_t)(d->src.next_input_byte - d->buf) : 0;
    if (start + keep + length > d->capacity) {
        if (keep && start) memmove(d->buf, d->buf + start, keep);
        start = 0;
        if (keep + length > d->capacity) {
            size_t cap = d->capacity ? d->capacity : 8192;
            while (cap < keep + length) cap *= 2;
            uint8_t *grown = realloc(d->buf, cap);
            if (!grown) return 0;
            d->buf = grown;
            d->capacity = cap;
        }
    }
    if (length) memcpy(d->buf + start + keep, bytes, length);
    d->src.next_input_byte = d->buf + start;
    d->src.bytes_in_buffer = keep + length;
    return 1;
}

int sdg_jpeg_borrow(sdg_jpeg *d, const uint8_t *bytes, size_t length) {
    if (d->buf || d->src.bytes_in_buffer || d->skip_pending) return 0;
    d->src.next_input_byte = bytes;
    d->src.bytes_in_buffer = length;
    return 1;
}

int sdg_jpeg_read_header(sdg_jpeg *d, sdg_jpeg_info *info) {
    if (d->failed) return SDG_JPEG_ERROR;
    if (setjmp(d->jump)) { d->failed = 1; return SDG_JPEG_ERROR; }
    int r = jpeg_read_header(&d->cinfo, TRUE);
    if (r == JPEG_SUSPENDED) return SDG_JPEG_SUSPENDED;
    if (r != JPEG_HEADER_OK) {
        strcpy(d->message, "no image in JPEG datastream");
        d->failed = 1;
        return SDG_JPEG_ERROR;
    }
    info->width = (int)d->cinfo.image_width;
    info->height = (int)d->cinfo.image_height;
    info->components = d->cinfo.num_components;
    info->jpeg_color_space = (int)d->cinfo.jpeg_color_space;
    info->progressive = jpeg_has_multiple_scans(&d->cinfo) ? 1 : 0;
    info->saw_adobe = d->cinfo.saw_Adobe_marker ? 1 : 0;
    info->arithmetic = d->cinfo.arith_code ? 1 : 0;
    // As jdcoefct.c sizes its virtual arrays: each component's blocks rounded up to its sampling.
    size_t coefficients = 0;
    for (int i = 0; i < d->cinfo.num_components; i++) {
        const jpeg_component_info *comp = &d->cinfo.comp_info[i];
        size_t w = ((size_t)comp->width_in_blocks + comp->h_samp_factor - 1) / comp->h_samp_factor * comp->h_samp_factor;
        size_t h = ((size_t)comp->height_in_blocks + comp->v_samp_factor - 1) / comp->v_samp_factor * comp->v_samp_factor;
        coefficients += w * h * DCTSIZE2 * sizeof(JCOEF);
    }
    info->coefficient_bytes = coefficients;
    return SDG_JPEG_OK;
}

const uint8_t *sdg_jpeg_exif(sdg_jpeg *d, size_t *length) {
    for (jpeg_saved_marker_ptr m = d->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *length = m->data_length;
            return m->data;
        }
    }
    *length = 0;
    return NULL;
}

int sdg_jpeg_configure(sdg_jpeg *d, int scale_denom, int buffered, int *out_width, int *out_height) {
    if (d->failed || d->configured) return SDG_JPEG_ERROR;
    if (setjmp(d->jump)) { d->failed = 1; return SDG_JPEG_ERROR; }
    struct jpeg_decompress_struct *c = &d->cinfo;
    d->cmyk = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    c->out_color_space = d->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    c->scale_num = 1;
    c->scale_denom = (unsigned)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    c->buffered_image = buffered ? TRUE : FALSE;
    d->buffered = buffered ? 1 : 0;
    jpeg_calc_output_dimensions(c);
    size_t w = c->output_width, h = c->output_height;
    d->pixels = calloc(w * h, 4);
    d->row4 = d->cmyk ? malloc(w * 4) : NULL;
    if (!d->pixels || (d->cmyk && !d->row4)) {
        strcpy(d->message, "out of memory");
        d->failed = 1;
        return SDG_JPEG_ERROR;
    }
    d->configured = 1;
    if (d->buffered) sdg_note_scan(d);  // jpeg_read_header stopped at the first scan's header
    *out_width = (int)w;
    *out_height = (int)h;
    return SDG_JPEG_OK;
}

// Converts one libjpeg CMYK row to RGBA. Adobe files store inverted values (255 = no ink).
static void sdg_cmyk_row(const sdg_jpeg *d, const uint8_t *in, uint8_t *out, size_t width) {
    int inverted = d->cinfo.saw_Adobe_marker;
    for (size_t x = 0; x < width; x++, in += 4, out += 4) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        out[0] = (uint8_t)((c * k + 127) / 255);
        out[1] = (uint8_t)((m * k + 127) / 255);
        out[2] = (uint8_t)((y * k + 127) / 255);
        out[3] = 255;
    }
}

// Reads output rows until the pass ends (1) or the input runs out (0). Called under a setjmp.
static int sdg_read_rows(sdg_jpeg *d) {
    struct jpeg_decompress_struct *c = &d->cinfo;
    size_t stride = (size_t)c->output_width * 4;
    while (c->output_scanline < c->output_height) {
        JDIMENSION row = c->output_scanline;
        JDIMENSION n;
        if (d->cmyk) {
            JSAMPROW rows[1] = { d->row4 };
            n = jpeg_read_scanlines(c, rows, 1);
            if (n) sdg_cmyk_row(d, d->row4, d->pixels + row * stride, c->output_width);
        } else {
            JSAMPROW rows[16];
            JDIMENSION count = c->output_height - row < 16 ? c->output_height - row : 16;
            for (JDIMENSION i = 0; i < count; i++) rows[i] = d->pixels + (row + i) * stride;
            n = jpeg_read_scanlines(c, rows, count);
        }
        if (!d->buffered) d->rows = (int)c->output_scanline;
        if (n == 0) return 0;
    }
    return 1;
}

int sdg_jpeg_advance(sdg_jpeg *d) {
    if (d->failed || !d->configured) return SDG_JPEG_ERROR;
    if (setjmp(d->jump)) {
        d->failed = 1;
        // The arithmetic decoder errors out where the others suspend: the input ended early.
        return d->err.msg_code == JERR_CANT_SUSPEND ? SDG_JPEG_SUSPENDED : SDG_JPEG_ERROR;
    }
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (!d->started) {
        if (!jpeg_start_decompress(c)) return SDG_JPEG_SUSPENDED;
        d->started = 1;
    }
    if (d->buffered) {
        while (!d->input_done) {
            int r = jpeg_consume_input(c);
            if (r == JPEG_SUSPENDED) return SDG_JPEG_SUSPENDED;
            if (r == JPEG_REACHED_SOS) sdg_note_scan(d);
            if (r == JPEG_REACHED_EOI) d->input_done = 1;
            if (r == JPEG_SCAN_COMPLETED && d->scan_limit > 0 && c->input_scan_number >= d->scan_limit
                && !d->scan_limited) {
                // Enough scans: the input ends here (the next consume reads the EOI).
                sdg_end_input_at_limit(d);
            }
        }
        return d->finished ? SDG_JPEG_DONE : SDG_JPEG_OK;
    }
    if (!sdg_read_rows(d)) return SDG_JPEG_SUSPENDED;
    if (!d->finished) {
        if (!jpeg_finish_decompress(c)) return SDG_JPEG_SUSPENDED;
        d->finished = 1;
    }
    return SDG_JPEG_DONE;
}

// Records the header of the scan just read (its components, band Ss..Se and point transform Al) for
// JPEGSession, which decides from them when a scale is final (JPEGScaleCoverage).
static void sdg_note_scan(sdg_jpeg *d) {
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (d->scan_count >= SDG_JPEG_SCAN_RECORDS) return;
    sdg_jpeg_scan_header *h = &d->scans[d->scan_count++];
    memset(h, 0, sizeof *h);
    h->valid = c->Ss >= 0 && c->Se <= DCTSIZE2 - 1 && c->Ss <= c->Se;
    h->ss = (uint8_t)(c->Ss & 0xFF);
    h->se = (uint8_t)(c->Se & 0xFF);
    h->al = (uint8_t)(c->Al & 0xFF);
    for (int i = 0; i < c->comps_in_scan && i < MAX_COMPS_IN_SCAN && i < 4; i++) {
        int ci = c->cur_comp_info[i] ? c->cur_comp_info[i]->component_index : -1;
        if (ci < 0 || ci >= SDG_JPEG_MAX_COMPONENTS) continue;
        h->components[h->count++] = (uint8_t)ci;
    }
}

int sdg_jpeg_scan_count(const sdg_jpeg *d) { return d->configured && d->buffered ? d->scan_count : 0; }

int sdg_jpeg_scan_at(const sdg_jpeg *d, int index, sdg_jpeg_scan_header *out) {
    if (index < 0 || index >= sdg_jpeg_scan_count(d)) return 0;
    *out = d->scans[index];
    return 1;
}

int sdg_jpeg_rows(const sdg_jpeg *d) { return d->rows; }

void sdg_jpeg_set_scan_limit(sdg_jpeg *d, int scans) { d->scan_limit = scans > 0 ? scans : 0; }
int sdg_jpeg_scan_limited(const sdg_jpeg *d) { return d->scan_limited; }

int sdg_jpeg_completed_scans(const sdg_jpeg *d) {
    if (!d->started) return 0;
    return d->input_done ? d->cinfo.input_scan_number : d->cinfo.input_scan_number - 1;
}

int sdg_jpeg_render_scan(sdg_jpeg *d, int scan) {
    if (d->failed || !d->buffered || !d->started) return SDG_JPEG_ERROR;
    if (scan < 1 || scan > sdg_jpeg_completed_scans(d)) return SDG_JPEG_SUSPENDED;
    if (setjmp(d->jump)) { d->failed = 1; return SDG_JPEG_ERROR; }
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (!jpeg_start_output(c, scan)) return SDG_JPEG_SUSPENDED;
    if (!sdg_read_rows(d)) return SDG_JPEG_SUSPENDED;
    if (!jpeg_finish_output(c)) return SDG_JPEG_SUSPENDED;
    if (d->input_done && scan == c->input_scan_number) {
        if (!jpeg_finish_decompress(c)) return SDG_JPEG_SUSPENDED;
        d->finished = 1;
        return SDG_JPEG_DONE;
    }
    return SDG_JPEG_OK;
}

const uint8_t *sdg_jpeg_pixels(const sdg_jpeg *d) { return d->pixels; }
const char *sdg_jpeg_message(const sdg_jpeg *d) { return d->message; }
long sdg_jpeg_warnings(const sdg_jpeg *d) { return d->warnings; }
size_t sdg_jpeg_input_capacity(const sdg_jpeg *d) { return d->capacity; }

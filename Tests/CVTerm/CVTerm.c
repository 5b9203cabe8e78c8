#include "CVTerm.h"
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

struct cvt_terminal {
  VTerm *vt;
  VTermState *state;
  int rows, cols;
  cvt_cell *cells;
  cvt_event *events;
  size_t event_count, event_capacity;
};

static cvt_cell blank_cell(uint32_t background) {
  cvt_cell c;
  memset(&c, 0, sizeof c);
  c.width = 1;
  c.foreground = 0x2000000u;
  c.background = background;
  return c;
}

/// Default colours → 0x2000000; indexed → 0x1000000 | index; RGB → 0xRRGGBB.
static uint32_t pack_color(const VTermColor *c, int background) {
  if (background ? VTERM_COLOR_IS_DEFAULT_BG(c) : VTERM_COLOR_IS_DEFAULT_FG(c)) return 0x2000000u;
  if (VTERM_COLOR_IS_INDEXED(c)) return 0x1000000u | c->indexed.idx;
  return ((uint32_t)c->rgb.red << 16) | ((uint32_t)c->rgb.green << 8) | c->rgb.blue;
}

static uint32_t pen_background(cvt_terminal *t) {
  VTermValue v;
  vterm_state_get_penattr(t->state, VTERM_ATTR_BACKGROUND, &v);
  return pack_color(&v.color, 1);
}

static void log_event(cvt_terminal *t, int kind, VTermRect r, int down, int right) {
  if (t->event_count == t->event_capacity) {
    size_t capacity = t->event_capacity ? t->event_capacity * 2 : 256;
    cvt_event *grown = realloc(t->events, capacity * sizeof *grown);
    if (!grown) return;
    t->events = grown;
    t->event_capacity = capacity;
  }
  cvt_event e = { kind, r.start_row, r.end_row, r.start_col, r.end_col, down, right };
  t->events[t->event_count++] = e;
}

static cvt_cell *cell(cvt_terminal *t, int row, int col) { return &t->cells[row * t->cols + col]; }

static int on_putglyph(VTermGlyphInfo *info, VTermPos pos, void *user) {
  cvt_terminal *t = user;
  if (pos.row < 0 || pos.row >= t->rows || pos.col < 0 || pos.col >= t->cols) return 1;
  cvt_cell c = blank_cell(0);
  for (int i = 0; i < 4 && info->chars[i]; i++) c.chars[i] = info->chars[i];
  c.width = (uint8_t)info->width;
  VTermValue v;
  vterm_state_get_penattr(t->state, VTERM_ATTR_FOREGROUND, &v);
  c.foreground = pack_color(&v.color, 0);
  vterm_state_get_penattr(t->state, VTERM_ATTR_BACKGROUND, &v);
  c.background = pack_color(&v.color, 1);
  static const VTermAttr bits[] = { VTERM_ATTR_BOLD, VTERM_ATTR_UNDERLINE, VTERM_ATTR_ITALIC,
                                    VTERM_ATTR_BLINK, VTERM_ATTR_REVERSE, VTERM_ATTR_STRIKE };
  for (int i = 0; i < 6; i++) {
    vterm_state_get_penattr(t->state, bits[i], &v);
    if (bits[i] == VTERM_ATTR_UNDERLINE ? v.number != 0 : v.boolean) c.attributes |= (uint8_t)(1 << i);
  }
  *cell(t, pos.row, pos.col) = c;
  int width = info->width > 1 ? info->width : 1;
  for (int i = 1; i < width && pos.col + i < t->cols; i++) {
    cvt_cell half = c;
    memset(half.chars, 0, sizeof half.chars);
    half.width = 0;
    *cell(t, pos.row, pos.col + i) = half;
  }
  VTermRect r = { pos.row, pos.row + 1, pos.col, pos.col + width };
  log_event(t, CVT_PUT, r, 0, 0);
  return 1;
}

static void clip(cvt_terminal *t, VTermRect *r) {
  if (r->start_row < 0) r->start_row = 0;
  if (r->start_col < 0) r->start_col = 0;
  if (r->end_row > t->rows) r->end_row = t->rows;
  if (r->end_col > t->cols) r->end_col = t->cols;
}

static int on_erase(VTermRect r, int selective, void *user) {
  (void)selective;
  cvt_terminal *t = user;
  clip(t, &r);
  uint32_t bg = pen_background(t);
  for (int row = r.start_row; row < r.end_row; row++)
    for (int col = r.start_col; col < r.end_col; col++) *cell(t, row, col) = blank_cell(bg);
  log_event(t, CVT_ERASE, r, 0, 0);
  return 1;
}

static int on_scrollrect(VTermRect r, int down, int right, void *user) {
  cvt_terminal *t = user;
  clip(t, &r);
  int height = r.end_row - r.start_row, width = r.end_col - r.start_col;
  if (height <= 0 || width <= 0) return 1;
  uint32_t bg = pen_background(t);
  cvt_cell *copy = malloc(sizeof(cvt_cell) * (size_t)(height * width));
  if (!copy) return 1;
  for (int row = 0; row < height; row++)
    for (int col = 0; col < width; col++) copy[row * width + col] = *cell(t, r.start_row + row, r.start_col + col);
  for (int row = 0; row < height; row++) {
    for (int col = 0; col < width; col++) {
      int sr = row + down, sc = col + right;
      *cell(t, r.start_row + row, r.start_col + col) =
          (sr >= 0 && sr < height && sc >= 0 && sc < width) ? copy[sr * width + sc] : blank_cell(bg);
    }
  }
  free(copy);
  log_event(t, CVT_SCROLL, r, down, right);
  return 1;
}

static int on_resize(int rows, int cols, VTermPos *delta, void *user) {
  (void)delta;
  cvt_terminal *t = user;
  cvt_cell *cells = malloc(sizeof(cvt_cell) * (size_t)(rows * cols));
  if (!cells) return 1;
  for (int row = 0; row < rows; row++)
    for (int col = 0; col < cols; col++)
      cells[row * cols + col] = (row < t->rows && col < t->cols) ? *cell(t, row, col) : blank_cell(0x2000000u);
  free(t->cells);
  t->cells = cells;
  t->rows = rows;
  t->cols = cols;
  VTermRect r = { 0, rows, 0, cols };
  log_event(t, CVT_RESIZE, r, 0, 0);
  return 1;
}

static const VTermStateCallbacks callbacks = {
  .putglyph = on_putglyph, .erase = on_erase, .scrollrect = on_scrollrect, .resize = on_resize,
};

cvt_terminal *cvt_new(int rows, int cols) {
  if (rows <= 0 || cols <= 0) return NULL;
  cvt_terminal *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->rows = rows;
  t->cols = cols;
  t->cells = malloc(sizeof(cvt_cell) * (size_t)(rows * cols));
  t->vt = vterm_new(rows, cols);
  if (!t->cells || !t->vt) { cvt_free(t); return NULL; }
  for (int i = 0; i < rows * cols; i++) t->cells[i] = blank_cell(0x2000000u);
  vterm_set_utf8(t->vt, 1);
  t->state = vterm_obtain_state(t->vt);
  vterm_state_set_callbacks(t->state, &callbacks, t);
  vterm_state_reset(t->state, 1);
  t->event_count = 0;
  return t;
}

void cvt_free(cvt_terminal *t) {
  if (!t) return;
  if (t->vt) vterm_free(t->vt);
  free(t->cells);
  free(t->events);
  free(t);
}

void cvt_write(cvt_terminal *t, const char *bytes, size_t len) { vterm_input_write(t->vt, bytes, len); }
void cvt_resize(cvt_terminal *t, int rows, int cols) { if (rows > 0 && cols > 0) vterm_set_size(t->vt, rows, cols); }
void cvt_size(const cvt_terminal *t, int *rows, int *cols) { *rows = t->rows; *cols = t->cols; }

void cvt_cursor(const cvt_terminal *t, int *row, int *col) {
  VTermPos pos;
  vterm_state_get_cursorpos(t->state, &pos);
  *row = pos.row;
  *col = pos.col;
}

cvt_cell cvt_cell_at(const cvt_terminal *t, int row, int col) {
  if (row < 0 || row >= t->rows || col < 0 || col >= t->cols) return blank_cell(0x2000000u);
  return t->cells[row * t->cols + col];
}

size_t cvt_event_count(const cvt_terminal *t) { return t->event_count; }

size_t cvt_take_events(cvt_terminal *t, cvt_event *out, size_t capacity) {
  size_t n = t->event_count;
  if (out) memcpy(out, t->events, sizeof(cvt_event) * (n < capacity ? n : capacity));
  t->event_count = 0;
  return n;
}

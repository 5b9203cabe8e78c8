#ifndef CVTERM_H
#define CVTERM_H
// Test-only wrapper of libvterm (Debian's libvterm-dev): the VT parser and state machine (cursor,
// margins, wrap, SGR, erase, scroll) drive a cell grid kept here, and every operation that touches
// cells is logged as an event, so the test oracle's image layer knows what text erased or moved.
// Imported by the one Swift module TerminalModel. Prefix: cvt_.
#include <stdint.h>
#include <stddef.h>

typedef struct cvt_terminal cvt_terminal;

/// One cell: up to 4 code points (0 = empty), width (1, 2, or 0 for the right half of a wide
/// character), colours packed by `cvt_color` rules, attribute bits (1 bold, 2 underline, 4 italic,
/// 8 blink, 16 reverse, 32 strike).
typedef struct {
  uint32_t chars[4];
  uint32_t foreground;
  uint32_t background;
  uint8_t width;
  uint8_t attributes;
} cvt_cell;

/// What touched cells: text written (`CVT_PUT`), erased (`CVT_ERASE`), scrolled (`CVT_SCROLL`:
/// `downward` > 0 moves content up), or resized. Rectangles are half-open, 0-based.
enum { CVT_PUT = 1, CVT_ERASE = 2, CVT_SCROLL = 3, CVT_RESIZE = 4 };
typedef struct {
  int kind;
  int start_row, end_row, start_col, end_col;
  int downward, rightward;
} cvt_event;

/// A terminal of `rows` × `cols` cells in UTF-8 mode. Nil on allocation failure.
cvt_terminal *cvt_new(int rows, int cols);
void cvt_free(cvt_terminal *t);
/// Feeds bytes (text and controls; no DCS/APC strings: the caller splits those out).
void cvt_write(cvt_terminal *t, const char *bytes, size_t len);
void cvt_resize(cvt_terminal *t, int rows, int cols);
void cvt_size(const cvt_terminal *t, int *rows, int *cols);
void cvt_cursor(const cvt_terminal *t, int *row, int *col);
/// The cell at (row, col); a blank cell when out of range.
cvt_cell cvt_cell_at(const cvt_terminal *t, int row, int col);
/// Events logged since the last call: copies up to `capacity` into `out`, returns how many there
/// were in all (the log is cleared).
size_t cvt_take_events(cvt_terminal *t, cvt_event *out, size_t capacity);
size_t cvt_event_count(const cvt_terminal *t);

#endif

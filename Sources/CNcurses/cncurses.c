#include "cncurses.h"

const char *sdg_curses_version(void) { return curses_version(); }
WINDOW *sdg_curses_stdscr(void) { return stdscr; }
int sdg_curses_lines(void) { return LINES; }
int sdg_curses_cols(void) { return COLS; }
int sdg_curses_colors(void) { return COLORS; }
int sdg_curses_color_pairs(void) { return COLOR_PAIRS; }
attr_t sdg_curses_attr_bold(void) { return A_BOLD; }
attr_t sdg_curses_attr_reverse(void) { return A_REVERSE; }
attr_t sdg_curses_attr_dim(void) { return A_DIM; }
attr_t sdg_curses_attr_underline(void) { return A_UNDERLINE; }
void sdg_curses_getmaxyx(WINDOW *win, int *y, int *x) { int yy, xx; getmaxyx(win, yy, xx); *y = yy; *x = xx; }

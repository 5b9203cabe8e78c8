#ifndef SDG_CNCURSES_H
#define SDG_CNCURSES_H
// Thin wrapper over ncursesw for Swift: accessors for the macros and globals Swift cannot use.
// Imported only by the Gallery module (CursesScreen). Every symbol carries the sdg_curses_ prefix.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>

/// ncurses' version string ("ncurses 6.4.20221231").
const char *sdg_curses_version(void);
WINDOW *sdg_curses_stdscr(void);
int sdg_curses_lines(void);
int sdg_curses_cols(void);
int sdg_curses_colors(void);
int sdg_curses_color_pairs(void);
attr_t sdg_curses_attr_bold(void);
attr_t sdg_curses_attr_reverse(void);
attr_t sdg_curses_attr_dim(void);
attr_t sdg_curses_attr_underline(void);
void sdg_curses_getmaxyx(WINDOW *win, int *y, int *x);

#endif

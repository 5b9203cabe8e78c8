#ifndef SDG_CNCURSES_H
#define SDG_CNCURSES_H
// Thin wrapper over ncursesw for Swift: accessors for the macros and globals Swift cannot use, and
// the few calls that need C (setcchar with an extended pair, signal handlers, ioctl).
// Imported only by the Gallery module (CursesScreen). Every symbol carries the sdg_curses_ prefix.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <stddef.h>
#include <wchar.h>
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

/// newterm(NULL, stdout, stdin) (never initscr, which exits on an unknown TERM), then raw mode, no
/// echo, no newline translation, hidden cursor. Returns NULL when the terminal cannot be used.
/// Opens curses on stdin/stdout for terminal type `term` (NULL: $TERM).
SCREEN *sdg_curses_open(const char *term);
/// Starts colours when the terminal has them (`has_colors` and `start_color() == OK`, so TERM=dumb
/// never reaches the pair allocator) with default colours -1. Returns the number of colours, 0 if none.
int sdg_curses_start_colors(void);
/// A colour pair for (fg, bg) through alloc_pair (extended pairs); -1 when it cannot.
int sdg_curses_pair(int fg, int bg);
/// Writes one wide character cell (NUL-terminated, at most 5 wchar_t) with attributes and an extended
/// pair at (y, x) of stdscr. Returns ERR/OK.
int sdg_curses_put(int y, int x, const wchar_t *wch, attr_t attrs, int pair);
/// Marks rows [row, row+count) of the physical screen as garbage so the next doupdate rewrites them.
int sdg_curses_redraw_rows(int row, int count);
/// wnoutrefresh(stdscr) + doupdate().
int sdg_curses_update(void);
/// clearok(curscr) so the next update repaints everything.
void sdg_curses_force_repaint(void);
/// The terminal's rows top..bottom-1 were scrolled by `lines` (positive: up) by the program; curses'
/// record of the screen follows. ERR for a bad region.
int sdg_curses_scrolled(int top, int bottom, int lines);
/// Ctrl-Z: endwin, stop the process group (SIGTSTP with its default action), and take the terminal
/// back in program mode when continued.
void sdg_curses_suspend(void);
/// Writes raw bytes to the terminal through the FILE that curses writes to (so the order is kept).
void sdg_curses_write(const void *bytes, size_t count);
/// Flushes that FILE.
void sdg_curses_flush(void);
/// Resizes curses to rows × cols.
int sdg_curses_resize(int rows, int cols);
/// endwin() and delscreen(); safe to call once per open.
void sdg_curses_close(SCREEN *screen);

/// Installs handlers: SIGWINCH sets the resize flag, SIGINT/SIGTERM/SIGHUP set the quit flag; both
/// write one byte to `wake_fd` (async-signal-safe). SIGPIPE is ignored.
int sdg_curses_install_signals(int wake_fd);
/// Returns and clears the resize flag.
int sdg_curses_take_resize(void);
/// Returns the quit flag (the signal number, 0 if none).
int sdg_curses_quit_signal(void);
/// TIOCGWINSZ on `fd`: rows, columns and the pixel size of the text area. Returns 0 on success.

/// Sends standard output (curses' and ours) into a pipe, so that writing a frame never waits for the
/// terminal: fd 1 becomes the pipe's write end (1 MB where the kernel allows). On success returns 0
/// with the pipe's read end, a new non-blocking write descriptor on the same terminal (its own open
/// file description: the shell's and stdin's stay blocking) and a copy of the original fd 1; all
/// close-on-exec. On failure (fd 1 is no named terminal, no descriptors) returns -1, nothing changed.
int sdg_curses_output_to_pipe(int *pipe_read, int *terminal_nonblocking, int *saved_stdout);
/// Flushes stdio and makes `saved_stdout` fd 1 again (which closes the pipe's write end).
int sdg_curses_output_to_terminal(int saved_stdout);

/// Makes /dev/tty the process's standard input (when the list came through stdin). 0 on success.
int sdg_curses_stdin_from_tty(void);
/// isatty(fd).
int sdg_curses_isatty(int fd);

#endif

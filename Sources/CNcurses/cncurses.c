#define _GNU_SOURCE 1
#include "cncurses.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <locale.h>
#include <unistd.h>
#include <pthread.h>

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

SCREEN *sdg_curses_open(const char *term) {
    /* ncursesw draws non-ASCII text only under a UTF-8 locale: take the user's, else C.UTF-8. */
    const char *ctype = setlocale(LC_CTYPE, "");
    if (ctype == NULL || strcmp(ctype, "C") == 0 || strcmp(ctype, "POSIX") == 0) setlocale(LC_CTYPE, "C.UTF-8");
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) return NULL;
    set_term(screen);
    raw();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, FALSE);
    leaveok(stdscr, TRUE);
    idlok(stdscr, FALSE);
    scrollok(stdscr, FALSE);
    curs_set(0);
    return screen;
}

int sdg_curses_start_colors(void) {
    if (!has_colors()) return 0;
    if (start_color() != OK) return 0;
    use_default_colors();
    return COLORS > 0 ? COLORS : 0;
}

int sdg_curses_pair(int fg, int bg) {
    if (!has_colors() || COLOR_PAIRS <= 0) return -1;
    return alloc_pair(fg, bg);
}

int sdg_curses_put(int y, int x, const wchar_t *wch, attr_t attrs, int pair) {
    cchar_t cell;
    int p = pair < 0 ? 0 : pair;
    if (setcchar(&cell, wch, attrs, 0, &p) == ERR) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}

int sdg_curses_redraw_rows(int row, int count) { return wredrawln(stdscr, row, count); }
int sdg_curses_update(void) { wnoutrefresh(stdscr); return doupdate(); }
void sdg_curses_force_repaint(void) { clearok(curscr, TRUE); }

int sdg_curses_scrolled(int top, int bottom, int lines) {
    // The program scrolled rows top..bottom-1 of the terminal itself: curses' record of the
    // physical screen (curscr) moves the same way, so doupdate() neither scrolls again nor rewrites
    // what is already there.
    if (top < 0 || bottom > LINES || top >= bottom - 1) return ERR;
    wsetscrreg(curscr, top, bottom - 1);
    scrollok(curscr, TRUE);
    int status = wscrl(curscr, lines);
    scrollok(curscr, FALSE);
    wsetscrreg(curscr, 0, LINES - 1);
    return status;
}
void sdg_curses_write(const void *bytes, size_t count) { if (count > 0) fwrite(bytes, 1, count, stdout); }
void sdg_curses_flush(void) { fflush(stdout); }
int sdg_curses_resize(int rows, int cols) { return resizeterm(rows, cols); }

void sdg_curses_close(SCREEN *screen) {
    if (screen == NULL) return;
    endwin();
    fflush(stdout);
    delscreen(screen);
}

static volatile sig_atomic_t sdg_resize_flag = 0;
static volatile sig_atomic_t sdg_quit_flag = 0;
static int sdg_wake_fd = -1;

static void sdg_signal_handler(int signo) {
    int saved = errno;
    if (signo == SIGWINCH) sdg_resize_flag = 1; else sdg_quit_flag = signo;
    if (sdg_wake_fd >= 0) { char b = 'S'; ssize_t r = write(sdg_wake_fd, &b, 1); (void)r; }
    errno = saved;
}

int sdg_curses_install_signals(int wake_fd) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sdg_wake_fd = wake_fd;
    action.sa_handler = sdg_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGWINCH, &action, NULL) != 0) return -1;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    if (sigaction(SIGTERM, &action, NULL) != 0) return -1;
    if (sigaction(SIGHUP, &action, NULL) != 0) return -1;
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

void sdg_curses_suspend(void) {
    endwin();
    fflush(stdout);
    // The default action (stop) for this one signal, whatever ncurses installed, and unblocked.
    struct sigaction stop, previous;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, &previous);
    sigset_t tstp, mask;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, &mask);
    kill(0, SIGTSTP);  /* the whole job stops here (an orphaned one ignores it) until SIGCONT */
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
    reset_prog_mode();
    doupdate();
}

int sdg_curses_take_resize(void) { int v = sdg_resize_flag; sdg_resize_flag = 0; return v; }
int sdg_curses_quit_signal(void) { return sdg_quit_flag; }

int sdg_curses_stdin_from_tty(void) {
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0) return -1;
    if (dup2(fd, 0) < 0) { close(fd); return -1; }
    close(fd);
    clearerr(stdin);
    return 0;
}

int sdg_curses_isatty(int fd) { return isatty(fd); }

int sdg_curses_output_to_pipe(int *pipe_read, int *terminal_nonblocking, int *saved_stdout) {
    const char *name = ttyname(1);
    if (name == NULL) return -1;
    int terminal = open(name, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (terminal < 0) return -1;
    int saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
    int fds[2];
    if (saved < 0 || pipe2(fds, O_CLOEXEC) != 0) {
        close(terminal);
        if (saved >= 0) close(saved);
        return -1;
    }
    (void)fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);  /* a smaller pipe only means more wake-ups */
    fflush(stdout);
    if (dup2(fds[1], 1) < 0) {
        close(terminal); close(saved); close(fds[0]); close(fds[1]);
        return -1;
    }
    close(fds[1]);
    *pipe_read = fds[0];
    *terminal_nonblocking = terminal;
    *saved_stdout = saved;
    return 0;
}

int sdg_curses_output_to_terminal(int saved_stdout) {
    fflush(stdout);
    return dup2(saved_stdout, 1) < 0 ? -1 : 0;
}

#define _GNU_SOURCE
#include "csystem.h"
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <unistd.h>
#include <wchar.h>
#if defined(__GLIBC__)
#include <malloc.h>
int sdg_sys_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1; }
#else
int sdg_sys_set_mmap_threshold(int bytes) { (void)bytes; return 0; }
#endif

int sdg_sys_pipe_cloexec_nonblock(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;
static void make_utf8_locale(void) { utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

int sdg_sys_wcwidth_utf8(unsigned int codepoint) {
    pthread_once(&utf8_once, make_utf8_locale);
    if (!utf8_locale) return -1;
    locale_t previous = uselocale(utf8_locale);
    int columns = wcwidth((wchar_t)codepoint);
    uselocale(previous);
    return columns;
}

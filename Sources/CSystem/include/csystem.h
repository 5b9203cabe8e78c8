#ifndef SDG_CSYSTEM_H
#define SDG_CSYSTEM_H
// glibc calls that Swift's Glibc module does not import (<malloc.h>, _GNU_SOURCE declarations).
// Imported only by Gallery. Prefix: sdg_sys_.

/// Sets glibc's mmap threshold (`mallopt(M_MMAP_THRESHOLD, bytes)`); 1 on success, 0 where it
/// failed or glibc is not the allocator.
int sdg_sys_set_mmap_threshold(int bytes);

/// `pipe2(fds, O_CLOEXEC | O_NONBLOCK)`: both ends close-on-exec and non-blocking from the start.
/// Returns 0, or -1 with errno set.
int sdg_sys_pipe_cloexec_nonblock(int fds[2]);

/// Columns glibc's `wcwidth` gives `codepoint` under a UTF-8 character type (C.UTF-8, set on the
/// calling thread for the call only: the process's locale is untouched); -1 when not printable.
int sdg_sys_wcwidth_utf8(unsigned int codepoint);

#endif

/*
 * harness_file.h: for the self-fuzzing harnesses whose parser reads a file
 * (tests/selffuzz/cgofuzz: dict, obj, records, merge, launcher, gocover). The
 * input is written to one memfd per process and named by its /proc/self/fd
 * path, so no file is made per exec; a parser's own error messages can be sent
 * to /dev/null while the sanitizers keep reporting on the real stderr.
 */
#ifndef CGOFUZZ_HARNESS_FILE_H
#define CGOFUZZ_HARNESS_FILE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../libfuzzer/harness_check.h"

/* data as a file: its path (valid until the next call). */
static inline const char *harness_file(const uint8_t *data, size_t size) {
  static int memfd = -1;
  static char path[64];
  if (memfd < 0) {
    memfd = memfd_create("selffuzz-input", MFD_CLOEXEC);
    CHECK(memfd >= 0);
    snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);
  }
  CHECK(ftruncate(memfd, 0) == 0);
  CHECK(pwrite(memfd, data, size, 0) == (ssize_t)size);
  return path;
}

/* Between harness_mute(1) and harness_mute(0), stderr is /dev/null; the
 * sanitizers report on the stderr there was before the first call. */
static inline void harness_mute(int on) {
  static int devnull = -1, real_stderr = -1;
  if (devnull < 0) {
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    real_stderr = fcntl(2, F_DUPFD_CLOEXEC, 3);
    CHECK(devnull >= 0 && real_stderr >= 0);
    __sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
  }
  fflush(stderr);
  CHECK(dup2(on ? devnull : real_stderr, 2) == 2);
}

#endif

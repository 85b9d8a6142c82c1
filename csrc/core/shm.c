/*
 * shm.c: the memory-mapped file a coordinator shares with one worker.
 *
 * The coordinator makes a file with no name where the system has them (a
 * memfd on Linux), else, as Go's internal/fuzz does, a temporary file named
 * fuzz-* in $TMPDIR (or /tmp) whose name is removed at once; it sizes it to
 * the 40-byte header plus the value capacity and maps it MAP_SHARED
 * read/write; the worker inherits it as fd 5 and maps its whole size as given
 * by fstat. The mapping is never resized: when a larger value is needed, the
 * coordinator makes a new file. Access is serialised by the call/response
 * protocol, not by locks.
 *
 * Why not $TMPDIR first: the file is sparse (100 MiB of capacity, a few
 * pages used), so a full file system there is not seen when it is made, but
 * later, as a SIGBUS in whichever process first writes a page that cannot be
 * allocated (the coordinator copying a value in, or a worker). A memfd takes
 * its pages from memory, where running out ends in the OOM killer's hands
 * like any other allocation.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkostemp */
#endif
#include "shm.h"

#include "os.h"
#include "scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The header must be byte-compatible with Go's sharedMemHeader (checked
 * against unsafe.Offsetof on linux/amd64 with go1.26). */
_Static_assert(offsetof(cgofuzz_shm_header, count) == 0, "count");
_Static_assert(offsetof(cgofuzz_shm_header, value_len) == 8, "valueLen");
_Static_assert(offsetof(cgofuzz_shm_header, rand_state) == 16, "randState");
_Static_assert(offsetof(cgofuzz_shm_header, rand_inc) == 24, "randInc");
_Static_assert(offsetof(cgofuzz_shm_header, raw_in_mem) == 32, "rawInMem");
_Static_assert(sizeof(cgofuzz_shm_header) == CGOFUZZ_SHM_HEADER_SIZE, "size");

static void shm_reset(cgofuzz_shm *m) {
  m->fd = -1;
  m->region = NULL;
  m->size = 0;
  m->path = NULL;
}

static int map_whole(cgofuzz_shm *m, int fd, size_t size, const char *name,
                     cgofuzz_err *err) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return cgofuzz_errf(err, 0, "mmap %s: %s", name, strerror(errno));
  m->fd = fd;
  m->region = p;
  m->size = size;
  return 0;
}

int cgofuzz_shm_create(cgofuzz_shm *m, size_t value_cap, cgofuzz_err *err) {
  shm_reset(m);
  if (value_cap > (size_t)INT64_MAX - CGOFUZZ_SHM_HEADER_SIZE)
    return cgofuzz_errf(err, 0, "shared memory capacity %zu too large",
                        value_cap);
#ifdef __linux__
  size_t size = CGOFUZZ_SHM_HEADER_SIZE + value_cap;
  int afd = cgofuzz_os_anon_file("fuzz-mem");
  if (afd >= 0) {
    if (ftruncate(afd, (off_t)size) == 0 &&
        map_whole(m, afd, size, "memfd fuzz-mem", err) == 0)
      return 0;
    close(afd); /* a file in $TMPDIR may still do */
    shm_reset(m);
  }
#endif
  return cgofuzz_shm_create_file(m, value_cap, err);
}

int cgofuzz_shm_create_file(cgofuzz_shm *m, size_t value_cap,
                            cgofuzz_err *err) {
  shm_reset(m);
  if (value_cap > (size_t)INT64_MAX - CGOFUZZ_SHM_HEADER_SIZE)
    return cgofuzz_errf(err, 0, "shared memory capacity %zu too large",
                        value_cap);
  size_t size = CGOFUZZ_SHM_HEADER_SIZE + value_cap;
  const char *dir = cgofuzz_tmpdir();
  size_t dlen = strlen(dir);
  char *path = malloc(dlen + sizeof "/fuzz-XXXXXX");
  if (!path)
    return cgofuzz_errf(err, 0, "out of memory");
  memcpy(path, dir, dlen);
  memcpy(path + dlen, "/fuzz-XXXXXX", sizeof "/fuzz-XXXXXX");
  /* Close-on-exec so other workers don't inherit it; the coordinator dup2s
   * it to fd 5 in its own worker, which clears the flag there. */
  int fd = mkostemp(path, O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    cgofuzz_errf(err, 0, "create temp file %s: %s", path, strerror(e));
    free(path);
    return -1;
  }
  if (ftruncate(fd, (off_t)size) != 0) {
    cgofuzz_errf(err, 0, "truncate %s: %s", path, strerror(errno));
    goto fail;
  }
  if (map_whole(m, fd, size, path, err) != 0)
    goto fail;
  /* Workers get the descriptor, never the name, so the file can go at
   * once: nothing is left in $TMPDIR even when the coordinator is killed
   * (Go's coordinator leaves its fuzz-* files then). */
  unlink(path);
  m->path = path;
  return 0;
fail:
  close(fd);
  unlink(path);
  free(path);
  shm_reset(m);
  return -1;
}

int cgofuzz_shm_map_fd(cgofuzz_shm *m, int fd, cgofuzz_err *err) {
  shm_reset(m);
  struct stat st;
  if (fstat(fd, &st) != 0)
    return cgofuzz_errf(err, 0, "stat fuzz_mem (fd %d): %s", fd,
                        strerror(errno));
  /* Go would map a smaller file and then fault reading the header; refuse
   * it instead. */
  if (st.st_size < CGOFUZZ_SHM_HEADER_SIZE)
    return cgofuzz_errf(err, 0,
                        "fuzz_mem (fd %d) is %lld bytes, smaller than the "
                        "%d-byte header",
                        fd, (long long)st.st_size, CGOFUZZ_SHM_HEADER_SIZE);
  if ((uint64_t)st.st_size > SIZE_MAX)
    return cgofuzz_errf(err, 0, "fuzz temp file exceeds maximum size");
  char name[32];
  snprintf(name, sizeof name, "fuzz_mem (fd %d)", fd);
  return map_whole(m, fd, (size_t)st.st_size, name, err);
}

void cgofuzz_shm_close(cgofuzz_shm *m) {
  if (m->region)
    munmap(m->region, m->size);
  if (m->fd >= 0)
    close(m->fd);
  free(m->path);
  shm_reset(m);
}

int cgofuzz_shm_set_value(cgofuzz_shm *m, const uint8_t *b, size_t len,
                          cgofuzz_err *err) {
  size_t cap = cgofuzz_shm_value_cap(m);
  if (len > cap)
    return cgofuzz_errf(err, 0,
                        "value length %zu larger than shared memory "
                        "capacity %zu",
                        len, cap);
  if (len)
    memcpy(cgofuzz_shm_value(m), b, len);
  cgofuzz_shm_hdr(m)->value_len = (int64_t)len;
  return 0;
}

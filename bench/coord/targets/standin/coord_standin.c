/*
 * coord_standin.c: a C target whose workers answer every call at once, to
 * measure `cgofuzz fuzz`'s coordinator alone (bench/coord/coord_scale.py).
 *
 * Build: build/bin/cgofuzz cc -O2 coord_standin.c -o coord_standin
 * (this file has its own main, so libcgofuzz_main's is not linked).
 *
 * Run without -test.fuzzworker it is an ordinary C target, FuzzEmpty([]byte)
 * with an empty body and one seed, served by the runtime (cgofuzz_test_main):
 * `cgofuzz fuzz` lists and discovers it as it would any C target.
 *
 * Run as a worker (argv[1] == "-test.fuzzworker", as every coordinator
 * starts its workers) it does not run the runtime's worker, which fuzzes
 * for the whole 10 ms of each call: it speaks the protocol of
 * docs/go-coordinator.md §2 itself, on fds 3 (calls), 4 (replies) and 5
 * (shared memory), and runs nothing:
 *  - Ping: "{}";
 *  - Fuzz: count 1 in shm (the coordinator reads the execs from shm), a
 *    reply with Count 1 and, for a warm-up call, CoverageData of
 *    STANDIN_COV bytes (default 4096; the coordinator learns the mask's size
 *    from a C worker's first warm-up reply) with one bit set; no later reply
 *    has coverage, so the run is in the steady state of a long campaign;
 *  - Minimize (never sent: nothing is ever new): WroteToMem false.
 * So execs == calls. The reply comes at once, or, with
 * STANDIN_DELAY=timeout in the environment (workers inherit it), after the
 * call's own Timeout (10 ms for a plain call of cgofuzz's; a warm-up call,
 * one exec, is answered at once), slept, not spent:
 * the pace of a real worker given a core of its own, without the CPU, so
 * that on a small machine the coordinator sees what 256 real workers would
 * send it. STANDIN_DELAY=<microseconds> sleeps that long instead.
 * STANDIN_SEEDS=K gives the target K seeds, so the corpus has K entries
 * (all alike in coverage: one bit, so all but the first are redundant).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgofuzz/target.h"

/* STANDIN_SEEDS=K: K seeds (default 1), for a corpus of that size. */
static void empty_seeds(cgofuzz_f *f) {
  const char *k = getenv("STANDIN_SEEDS");
  long n = k ? atol(k) : 1;
  for (long i = 0; i < (n > 0 ? n : 1); i++) {
    char b[24];
    int len = snprintf(b, sizeof b, "seed%07ld", i);
    cgofuzz_add(f, b, (size_t)len);
  }
}
static void empty_body(cgofuzz_t *t, const cgofuzz_value *v) {
  (void)t;
  (void)v;
}
CGOFUZZ_TARGET(FuzzEmpty, empty_seeds, empty_body, CGOFUZZ_BYTES)

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* The integer after "key": in line, or -1. */
static long long field(const char *line, const char *key) {
  const char *p = strstr(line, key);
  if (!p)
    return -1;
  p += strlen(key);
  return strtoll(p, NULL, 10);
}

static void nap(long long us) {
  if (us <= 0)
    return;
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

static int serve(void) {
  struct stat st;
  if (fstat(5, &st) != 0 || st.st_size < 40)
    return 2;
  uint8_t *mem =
      mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
  if (mem == MAP_FAILED)
    return 2;
  const char *d = getenv("STANDIN_DELAY");
  int delay_timeout = d && strcmp(d, "timeout") == 0;
  long long delay_us = d && !delay_timeout ? atoll(d) : 0;
  const char *cv = getenv("STANDIN_COV");
  size_t cov = cv ? (size_t)atol(cv) : 4096;
  if (cov < 3)
    cov = 3;
  /* The warm-up reply: base64 of cov bytes, the first 1, the rest 0. */
  size_t b64 = (cov + 2) / 3 * 4;
  char *warm = malloc(b64 + 256);
  if (!warm)
    return 2;
  int wn = sprintf(warm, "{\"TotalDuration\":1000,\"InterestingDuration\":0,"
                         "\"Count\":1,\"CoverageData\":\"");
  memcpy(warm + wn, "AQAA", 4); /* 01 00 00 */
  memset(warm + wn + 4, 'A', b64 - 4);
  wn += (int)b64;
  size_t pad = (3 - cov % 3) % 3; /* the last group's padding */
  for (size_t i = 0; i < pad; i++)
    warm[wn - 1 - i] = '=';
  wn += sprintf(warm + wn, "\",\"Err\":null,\"InternalErr\":null}\n");
  static const char plain[] =
      "{\"TotalDuration\":1000,\"InterestingDuration\":0,\"Count\":1,"
      "\"CoverageData\":null,\"Err\":null,\"InternalErr\":null}\n";
  static const char minr[] = "{\"WroteToMem\":false,\"Err\":null,"
                             "\"CoverageData\":null,\"Duration\":0,"
                             "\"Count\":0}\n";
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  if (!buf)
    return 2;
  for (;;) {
    if (len == cap) {
      char *nb = realloc(buf, 2 * cap + 1);
      if (!nb)
        return 2;
      buf = nb;
      cap *= 2;
    }
    ssize_t k = read(3, buf + len, cap - len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return 0; /* the coordinator closed the pipe: stop */
    len += (size_t)k;
    size_t at = 0;
    for (;;) {
      char *nl = memchr(buf + at, '\n', len - at);
      if (!nl)
        break;
      *nl = '\0';
      const char *line = buf + at;
      at = (size_t)(nl - buf) + 1;
      if (strstr(line, "\"Ping\":{")) {
        if (write_all(4, "{}\n", 3) != 0)
          return 0;
      } else if (strstr(line, "\"Fuzz\":{")) {
        int warmup = strstr(line, "\"Warmup\":true") != NULL;
        long long us = warmup ? 0 : delay_us;
        if (delay_timeout && !warmup) {
          long long ns = field(line, "\"Timeout\":");
          us = ns > 0 ? ns / 1000 : 0;
        }
        nap(us);
        *(int64_t *)mem = 1; /* count, at offset 0 of the header */
        if (warmup ? write_all(4, warm, (size_t)wn)
                   : write_all(4, plain, sizeof plain - 1))
          return 0;
      } else if (strstr(line, "\"Minimize\":{")) {
        if (write_all(4, minr, sizeof minr - 1) != 0)
          return 0;
      }
    }
    memmove(buf, buf + at, len - at);
    len -= at;
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "-test.fuzzworker") == 0)
    return serve();
  return cgofuzz_test_main(argc, argv);
}

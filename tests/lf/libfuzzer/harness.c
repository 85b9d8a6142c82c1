/*
 * harness.c: a libFuzzer harness with one planted bug, chosen at build time
 * (tests/lf/libfuzzer/test_libfuzzer_cli.py builds it with `cgofuzz cc`):
 *   default  "FUZZ" at the start: a heap-buffer-overflow read (ASan);
 *   -DHANG   "HANG": an endless loop (a timeout);
 *   -DOOM    "OOM!": a resident set far above -rss_limit_mb (an OOM);
 *   -DOVERWRITE "OVER": writes to its const input;
 *   -DLEAK   "LEAK": allocates 32 bytes and loses them (LeakSanitizer);
 *   -DTWO    the default bug, and a second one in another function:
 *            "BUGS" reads past its copy in second_bug (fork mode's
 *            -ignore_crashes; a crash's site is its function);
 *   -DNOBUG  "NONE": the same four compares and no bug (runs that must not
 *            find anything, whatever the seed: the others' bugs are found
 *            in a few thousand execs);
 *   -DNOISY  no bug either, and every input writes a line to stdout and
 *            one to stderr (what -close_fd_mask silences);
 *   -DSLOW   "SLOW" and nothing more: the first time in a process it
 *            sleeps 1.2 s, no bug (a slow unit of -report_slow_units=1);
 *   -DCRASHY every input that does not start with 'n' aborts (most
 *            mutants of the seed "none" crash: a fork-mode run with
 *            -ignore_crashes must go on through them).
 * Each byte is compared on its own so coverage leads the fuzzer to it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(HANG)
static const char magic[4] = {'H', 'A', 'N', 'G'};
#elif defined(OOM)
static const char magic[4] = {'O', 'O', 'M', '!'};
#elif defined(OVERWRITE)
static const char magic[4] = {'O', 'V', 'E', 'R'};
#elif defined(LEAK)
static const char magic[4] = {'L', 'E', 'A', 'K'};
#elif defined(NOBUG) || defined(NOISY)
static const char magic[4] = {'N', 'O', 'N', 'E'};
#elif defined(SLOW)
static const char magic[4] = {'S', 'L', 'O', 'W'};
#else
static const char magic[4] = {'F', 'U', 'Z', 'Z'};
#endif

static volatile char sink;
static char *volatile keep;

#if defined(TWO)
__attribute__((noinline)) static void second_bug(const uint8_t *data,
                                                 size_t size) {
  char *q = malloc(size);
  memcpy(q, data, size);
  sink = q[size + 8]; /* the second site */
  free(q);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#if defined(CRASHY)
  if (size == 0 || data[0] != 'n')
    abort();
#endif
#if defined(NOISY)
  printf("noisy target: stdout\n");
  fprintf(stderr, "noisy target: stderr\n");
  fflush(stdout);
#endif
#if defined(TWO)
  if (size >= 1 && data[0] == 'B' && size >= 2 && data[1] == 'U' && size >= 3 &&
      data[2] == 'G' && size >= 4 && data[3] == 'S') {
    second_bug(data, size);
    return 0;
  }
#endif
  /* A size check before each byte keeps the compiler from merging the
   * four compares into one (clang's MergeICmps), so each is an edge. */
  if (size < 1 || data[0] != magic[0])
    return 0;
  if (size < 2 || data[1] != magic[1])
    return 0;
  if (size < 3 || data[2] != magic[2])
    return 0;
  if (size < 4 || data[3] != magic[3])
    return 0;
#if defined(HANG)
  for (;;)
    sink++;
#elif defined(OOM)
  for (int i = 0; i < 64; i++) {
    char *p = malloc(16 << 20);
    if (p)
      memset(p, i, 16 << 20); /* resident, not just reserved */
    keep = p;                 /* escapes: the allocation cannot be elided */
  }
#elif defined(OVERWRITE)
  ((uint8_t *)data)[0] = 'X';
#elif defined(LEAK)
  keep = malloc(32); /* escapes, then is lost: a direct leak */
  keep = NULL;
#elif defined(NOBUG) || defined(NOISY)
  sink++;
#elif defined(SLOW)
  static int slept; /* once: runs that find it again stay fast */
  if (size == 4 && !slept) {
    struct timespec ts = {1, 200000000};
    slept = 1;
    nanosleep(&ts, NULL);
  }
#else
  char *p = malloc(size);
  memcpy(p, data, size);
  sink = p[size]; /* one past the end */
  free(p);
#endif
  return 0;
}

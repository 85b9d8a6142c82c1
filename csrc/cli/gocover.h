/*
 * gocover.h: the reader of Go coverage profiles that gocover.c merges
 * (OSS-Fuzz's coverage run, when an input ends a run before the test
 * binary writes its profile). Only gocover.c and the self-fuzzing harness
 * (tests/selffuzz/cgofuzz/fuzz_gocover.c) use it: the profile is a file a test
 * binary of outside wrote, so its reader is fuzzed on its own.
 */
#ifndef CGOFUZZ_CLI_GOCOVER_H
#define CGOFUZZ_CLI_GOCOVER_H

#include <stddef.h>

/* "mode: M" then "FILE:L.C,L.C NSTMT COUNT" lines. */
typedef struct cli_prof_line {
  char *key; /* up to the last space */
  unsigned long long count;
} cli_prof_line;

typedef struct cli_prof {
  char mode[16];
  cli_prof_line *l;
  size_t n, cap;
} cli_prof;

/* Reads the profile at path, its lines sorted by key. 0; 1 when there is
 * none (or it has no mode line; p is then empty); -1 when out of memory.
 * Free p with cli_prof_free whatever it returns. */
int cli_prof_read(const char *path, cli_prof *p);

/* Frees p's lines and empties it. */
void cli_prof_free(cli_prof *p);

#endif

/*
 * goverflag.c: the `-go 1.N` flag of the commands that work on corpus files
 * alone (corpus fmt, corpus convert, corpus stats, mutate), and the release
 * they follow without it: the user's (cli_gover_default). Nothing in a file
 * says which Go wrote it, so these commands follow the Go the user works
 * with (gover.h). Commands that run a Go test binary read the release from
 * the binary instead (cgofuzz_gobin_gover).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gobin.h"
#include "gover.h"

int cli_gover_flag_set(void *dst, const char *value, cgofuzz_err *why) {
  cgofuzz_gover g;
  if (cgofuzz_gover_parse(value, strlen(value), &g) != 0)
    return cgofuzz_errf(why, 0, "want a Go release such as 1.%d",
                        CGOFUZZ_GOVER_NEWEST);
  if (!cgofuzz_gover_known(g))
    return cgofuzz_errf(why, 0, "go1.%d is not supported (1.%d ... 1.%d)", g,
                        CGOFUZZ_GOVER_OLDEST, CGOFUZZ_GOVER_NEWEST);
  *(cgofuzz_gover *)dst = g;
  return 0;
}

/* The release in `go env GOVERSION`'s output: "go1.26.8", "go1.27rc1",
 * "go1.25.0 X:nodwarf5" (GOEXPERIMENTs after a space) or a development
 * build's "devel go1.27-5a1b2c3 Tue Nov 3 ..." (up to the '-'). */
static int parse_goversion(const char *s, cgofuzz_gover *g) {
  if (strncmp(s, "devel ", 6) == 0)
    s += 6;
  size_t n = strcspn(s, " \t-");
  return cgofuzz_gover_parse(s, n, g);
}

/* The release `go env GOVERSION` names: the go on PATH, or the toolchain
 * it switches to (GOTOOLCHAIN, a go.mod's toolchain line). 0 when there is
 * no go on PATH or it fails. */
static cgofuzz_gover from_go_env(void) {
  char *argv[] = {"go", "env", "GOVERSION", NULL};
  char *line = NULL;
  cgofuzz_gover g = 0;
  if (cgofuzz_gobin_cmd_line(argv, &line) == 0 &&
      parse_goversion(line, &g) != 0)
    g = 0;
  free(line);
  return g;
}

/* The word after directive dir ("toolchain", "go") on a go.mod line, or
 * NULL: line without its leading blanks, word up to a blank or "//". */
static const char *directive(const char *line, const char *dir, size_t *n) {
  size_t l = strlen(dir);
  if (strncmp(line, dir, l) != 0 || (line[l] != ' ' && line[l] != '\t'))
    return NULL;
  const char *w = line + l;
  while (*w == ' ' || *w == '\t')
    w++;
  *n = strcspn(w, " \t\r\n/");
  return *n ? w : NULL;
}

/* The release the nearest go.mod (in the current directory or above)
 * names: its toolchain line, else its go line. 0 without a go.mod or
 * without either line. */
static cgofuzz_gover from_go_mod(void) {
  char dir[PATH_MAX], path[PATH_MAX + 8];
  if (!getcwd(dir, sizeof dir))
    return 0;
  FILE *f = NULL;
  for (;;) {
    snprintf(path, sizeof path, "%s/go.mod", strcmp(dir, "/") ? dir : "");
    if ((f = fopen(path, "r")) != NULL)
      break;
    char *slash = strrchr(dir, '/');
    if (!slash || strcmp(dir, "/") == 0)
      return 0;
    if (slash == dir)
      slash[1] = '\0';
    else
      *slash = '\0';
  }
  cgofuzz_gover tool = 0, go = 0;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    const char *s = line, *w;
    size_t n;
    while (*s == ' ' || *s == '\t')
      s++;
    cgofuzz_gover g;
    if ((w = directive(s, "toolchain", &n)) && !tool &&
        cgofuzz_gover_parse(w, n, &g) == 0)
      tool = g;
    else if ((w = directive(s, "go", &n)) && !go &&
             cgofuzz_gover_parse(w, n, &g) == 0)
      go = g;
  }
  fclose(f);
  return tool ? tool : go;
}

cgofuzz_gover cli_gover_default(void) {
  static cgofuzz_gover found;
  if (!found) {
    cgofuzz_gover g = from_go_env();
    if (!g)
      g = from_go_mod();
    found = g ? cgofuzz_gover_clamp(g) : CGOFUZZ_GOVER_NEWEST;
  }
  return found;
}

/*
 * pytool.c: runs one of the report tools (the Python scripts in tools/report)
 * for a thin cgofuzz command (`cgofuzz cover`, `cgofuzz plot`).
 *
 * The reports are not linked into fuzz targets, so they are written in
 * Python on well-kept libraries (matplotlib, jinja2, pygments) instead of
 * by hand in C; this file only finds them and execs the interpreter.
 *
 * The tools directory, first match wins (it must hold the script):
 *  1. $CGOFUZZ_TOOLS_DIR;
 *  2. <exe dir>/../share/cgofuzz/report, <exe dir> from the executable's
 *     real path (an install tree, `cmake --install`, wherever it was
 *     moved, also through a symbolic link to bin/cgofuzz);
 *  3. CGOFUZZ_TOOLS_DIR, defined at compile time by CMake as
 *     <source>/tools/report (a build tree).
 * The interpreter is $CGOFUZZ_PYTHON, else python3 from PATH; the scripts
 * themselves move to Debian's /usr/bin/python3 when the first one lacks
 * their modules, and name the missing Debian package otherwise.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "os.h"

/* Writes dir/script to path and reports whether it is readable. */
static bool tool_at(const char *dir, const char *script, char *path, size_t n) {
  if (!dir || !*dir)
    return false;
  int k = snprintf(path, n, "%s/%s", dir, script);
  return k > 0 && (size_t)k < n && access(path, R_OK) == 0;
}

/* <exe dir>/../share/cgofuzz/report (/proc/self/exe is the real path). */
static bool installed_tool(const char *script, char *path, size_t n) {
  char exe[PATH_MAX];
  if (cgofuzz_os_self_exe(exe, sizeof exe) != 0)
    return false;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return false;
  *slash = 0;
  char share[PATH_MAX + 32];
  if (snprintf(share, sizeof share, "%s/../share/cgofuzz/report", exe) >=
      (int)sizeof share)
    return false;
  return tool_at(share, script, path, n);
}

static bool find_tool(const char *script, char *path, size_t n) {
  if (tool_at(getenv("CGOFUZZ_TOOLS_DIR"), script, path, n))
    return true;
  if (installed_tool(script, path, n))
    return true;
#ifdef CGOFUZZ_TOOLS_DIR
  if (tool_at(CGOFUZZ_TOOLS_DIR, script, path, n))
    return true;
#endif
  return false;
}

int cli_run_pytool(const char *cmd, const char *script, int argc, char **argv) {
  static char path[PATH_MAX + 64];
  if (!find_tool(script, path, sizeof path)) {
    fprintf(stderr,
            "cgofuzz %s: cannot find the report tools (%s, in a CMake "
            "install's share/cgofuzz/report or the source tree's "
            "tools/report; `go install` gives only the tool): set "
            "CGOFUZZ_TOOLS_DIR to that directory\n",
            cmd, script);
    return CLI_EXIT_FAIL;
  }
  const char *py = getenv("CGOFUZZ_PYTHON");
  if (!py || !*py)
    py = "python3";
  char prog[64];
  snprintf(prog, sizeof prog, "cgofuzz %s", cmd);
  char **av = calloc((size_t)argc + 5, sizeof *av);
  if (!av)
    return CLI_EXIT_FAIL;
  size_t n = 0;
  av[n++] = (char *)py;
  av[n++] = path;
  av[n++] = "--prog";
  av[n++] = prog;
  for (int i = 0; i < argc; i++)
    av[n++] = argv[i];
  av[n] = NULL;
  execvp(py, av);
  fprintf(stderr,
          "cgofuzz %s: cannot run %s: cgofuzz %s needs python3 (Debian: "
          "python3; or set CGOFUZZ_PYTHON)\n",
          cmd, py, cmd);
  free(av);
  return CLI_EXIT_FAIL;
}

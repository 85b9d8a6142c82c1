/*
 * cmd_cover.c: `cgofuzz cover [-o report.html] [-fuzz T] [-corpus DIR]...
 * PKG|BINARY`: the coverage of a fuzz corpus, as a text summary on stdout
 * and, with -o, one HTML page with per-file percentages and highlighted
 * source. Go lines come from Go's coverage tooling (go test -cover, go tool
 * covdata, go tool cover), C lines from llvm-cov (a `cgofuzz cc -cover`
 * binary, or the C files of a cgo package). The work is
 * tools/report/cover.py; docs/reports.md has the details.
 */
#include "cli.h"

int cli_cmd_cover(int argc, char **argv) {
  return cli_run_pytool("cover", "cover.py", argc, argv);
}

/*
 * cmd_plot.c: `cgofuzz plot FILE [-o run.svg]`: draws a -fuzzstats time
 * series (coverage and execs/s over elapsed time, one line per target,
 * failures marked) as an SVG, like afl-plot, viewable without a server.
 * The drawing is tools/report/plot.py (matplotlib); docs/reports.md has
 * the details.
 */
#include "cli.h"

int cli_cmd_plot(int argc, char **argv) {
  return cli_run_pytool("plot", "plot.py", argc, argv);
}

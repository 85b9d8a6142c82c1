/*
 * main.c: the cgofuzz command: dispatches to subcommands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "coord.h"

static const char usage_text[] =
    "cgofuzz: Go's native fuzzing, reimplemented in C.\n"
    "\n"
    "usage: cgofuzz COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  corpus fmt [-w] FILE...   print (or rewrite) corpus files in the\n"
    "                            canonical \"go test fuzz v1\" form\n"
    "  corpus convert [-to go|raw] (-launcher FILE | -types LIST) [-o DIR]\n"
    "                 FILE...    raw fuzzer inputs to corpus files, or back\n"
    "                            (-from go118: go-118-fuzz-build's layout)\n"
    "  corpus merge -o OUTDIR BINARY [-fuzz RE] DIR...\n"
    "                            a minimal set of the inputs with all their\n"
    "                            coverage (libFuzzer -merge=1, resumable)\n"
    "  corpus prune BINARY [-fuzz RE] DIR...\n"
    "                            the same, in place: deletes what adds\n"
    "                            nothing\n"
    "  corpus stats [-v] DIR...  counts, sizes, types, duplicates, files Go\n"
    "                            would reject\n"
    "  mutate -rand-state S -rand-inc I -n K [-cap BYTES] FILE\n"
    "                            replay K of Go's chained mutations\n"
    "  fuzz [-fuzz RE] [-fuzztime D|Nx] [-parallel N] ... BINARY|PKG...\n"
    "                            fuzz Go test binaries or packages (go list\n"
    "                            patterns) like go test -fuzz\n"
    "  BINARY [-test.* ARGS]     go test -exec=cgofuzz: run a test binary as\n"
    "                            it would run; with -test.fuzz, its target is\n"
    "                            fuzzed by cgofuzz (options: CGOFUZZ_FLAGS)\n"
    "  cc|c++ ARGS...            clang with cgofuzz's instrumentation and\n"
    "                            runtime (builds C fuzz targets)\n"
    "  cgo-env                   print CC=... CXX=...: the compilers that\n"
    "                            make a cgo package's own C coverage and\n"
    "                            compares visible to go test -fuzz\n"
    "                            (eval $(cgofuzz cgo-env); no source change)\n"
    "  compile-go-fuzzer PKG FuzzFunc NAME [TAGS]\n"
    "                            build $OUT/NAME, a libFuzzer-style fuzz\n"
    "                            target for ClusterFuzz/OSS-Fuzz from a Go\n"
    "                            package's fuzz test\n"
    "  cover [-o report.html] [-fuzz T] [-corpus DIR]... PKG|BINARY\n"
    "                            coverage of a fuzz corpus: Go and C lines,\n"
    "                            text summary, HTML page (tools/report)\n"
    "  plot FILE [-o run.svg]    draw a -fuzzstats file: coverage and\n"
    "                            execs/s over time, as an SVG\n"
    "  version                   print the version\n"
    "  help                      print this help\n";

int main(int argc, char **argv) {
  /* Called as cgofuzz-cgo-cc or cgofuzz-cgo-c++ (links to this program):
   * the cgo compilers. CC must be one executable: the go command's linker
   * probes its flags with CC's first word alone. */
  int cgocc = cli_cgocc_by_name(argc, argv);
  if (cgocc >= 0)
    return cgocc;
  /* A Go test binary we run for argument discovery starts its workers as
   * argv[0] -test.fuzzworker ...: with argv[0] pointing at us, we are the
   * worker. */
  if (argc >= 2 && strcmp(argv[1], "-test.fuzzworker") == 0 &&
      getenv(CGOFUZZ_GOBIN_DISCOVER_ENV) != NULL)
    return cli_fake_worker();
  /* A copy of this program with a Go test binary appended (written by
   * compile-go-fuzzer) is that fuzz target's launcher (golaunch.c). */
  int launched = cli_golaunch_main(argc, argv);
  if (launched >= 0)
    return launched;
  if (argc < 2) {
    fputs(usage_text, stderr);
    return CLI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "corpus") == 0)
    return cli_cmd_corpus(argc - 2, argv + 2);
  if (strcmp(cmd, "mutate") == 0)
    return cli_cmd_mutate(argc - 2, argv + 2);
  if (strcmp(cmd, "fuzz") == 0)
    return cli_cmd_fuzz(argc - 2, argv + 2);
  if (strcmp(cmd, "compile-go-fuzzer") == 0)
    return cli_cmd_gofuzzer(argc - 2, argv + 2);
  if (strcmp(cmd, "cgo-env") == 0)
    return cli_cmd_cgoenv(argc - 2, argv + 2);
  if (strcmp(cmd, "cgo-cc") == 0 || strcmp(cmd, "cgo-c++") == 0)
    return cli_cmd_cgocc(argc - 2, argv + 2, cmd[5] == '+');
  if (strcmp(cmd, "cc") == 0 || strcmp(cmd, "c++") == 0)
    return cli_cmd_cc(argc - 2, argv + 2, cmd[1] == '+');
  if (strcmp(cmd, "cover") == 0)
    return cli_cmd_cover(argc - 2, argv + 2);
  if (strcmp(cmd, "plot") == 0)
    return cli_cmd_plot(argc - 2, argv + 2);
  if (strcmp(cmd, "version") == 0) {
    printf("cgofuzz %s\n", cli_version);
    return CLI_EXIT_OK;
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "-h") == 0 ||
      strcmp(cmd, "--help") == 0 || strcmp(cmd, "-help") == 0) {
    fputs(usage_text, stdout);
    return CLI_EXIT_OK;
  }
  /* go test -exec=cgofuzz: a test binary where a command belongs. */
  if (cli_exec_wanted(cmd))
    return cli_exec_main(argc - 1, argv + 1);
  fprintf(stderr, "cgofuzz: unknown command \"%s\"\n\n%s", cmd, usage_text);
  return CLI_EXIT_USAGE;
}

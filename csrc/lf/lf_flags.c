/*
 * lf_flags.c: libFuzzer's command line: -name=value flags and positional
 * corpus directories or files.
 *
 * libFuzzer's rules, kept here: a flag is exactly "-name=value" (one dash);
 * an unknown flag, or one without "=", is ignored with a warning, because
 * engines pass flags newer or older than the binary they run; integers
 * are decimal and may be negative; any argument not starting with '-' is an
 * input. Go's -test.* flags are not libFuzzer's and never reach here
 * (cgofuzz_lf_wanted).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lf_internal.h"
#include "strconv.h"

typedef struct lf_flag {
  const char *name;
  bool is_int;
  size_t off; /* of the int64_t or const char * in lf_opts */
  const char *help;
} lf_flag;

#define I(n, h)                                                                \
  { #n, true, offsetof(lf_opts, n), h }
#define S(n, h)                                                                \
  { #n, false, offsetof(lf_opts, n), h }

static const lf_flag flags[] = {
    I(runs, "number of inputs to run; -1: no limit"),
    I(max_total_time, "stop after this many seconds; 0: no limit"),
    I(timeout, "an input running longer than this many seconds is a timeout"),
    I(rss_limit_mb, "an input making the resident set exceed this is an OOM"),
    I(malloc_limit_mb, "a single malloc this large is an OOM (default: "
                       "-rss_limit_mb)"),
    I(max_len, "cut inputs read from files to this many bytes"),
    I(len_control, "accepted (Go's mutator bounds lengths itself)"),
    I(seed, "random seed; 0: a random one"),
    S(dict, "dictionary file (C targets)"),
    I(use_value_profile, "count comparison distances as coverage (C)"),
    S(artifact_prefix, "prefix of crash-, timeout- and oom- files"),
    S(exact_artifact_path, "write the one artifact to this path"),
    I(print_final_stats, "print stat:: lines at the end"),
    I(report_slow_units, "an input running this many seconds is written as "
                         "a slow-unit- file (each 10% slower than the last)"),
    I(merge, "merge the inputs of the other directories into the first"),
    S(merge_control_file, "accepted (the merge restarts a crashed worker)"),
    I(minimize_crash, "minimize the crashing input given"),
    I(cleanse_crash, "replace bytes of the crashing input that do not matter"),
    I(close_fd_mask, "1: close the target's stdout, 2: stderr"),
    I(detect_leaks, "with LeakSanitizer: an input that leaks is a leak- "
                    "artifact (1, the default), or nothing (0)"),
    I(jobs, "run this many whole fuzzing processes, output in fuzz-<i>.log"),
    I(workers, "with -jobs: how many run at a time (default jobs, at most "
               "half the cores)"),
    I(fork, "fuzz with this many worker processes sharing one corpus"),
    I(ignore_crashes, "with -fork: write a crash and go on fuzzing"),
    I(ignore_timeouts, "with -fork: write a timeout and go on (default 1)"),
    I(ignore_ooms, "with -fork: write an OOM and go on (default 1)"),
    I(error_exitcode, "exit status after a crash"),
    I(timeout_exitcode, "exit status after a timeout"),
    I(verbosity, "accepted"),
    I(help, "print this help"),
};

void cgofuzz_lf_print_help(const char *argv0) {
  fprintf(
      stderr,
      "Usage:\n\nTo run fuzzing pass 0 or more directories.\n%s [-flag1=val1 "
      "[-flag2=val2 ...] ] [dir1 [dir2 ...] ]\n\nTo run individual tests "
      "without fuzzing pass 1 or more files:\n%s [-flag1=val1 "
      "[-flag2=val2 ...] ] file1 [file2 ...]\n\nFlags (cgofuzz's engine "
      "behind libFuzzer's command line):\n",
      argv0, argv0);
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
    fprintf(stderr, " %-20s %s\n", flags[i].name, flags[i].help);
}

static void defaults(lf_opts *o) {
  memset(o, 0, sizeof *o);
  o->runs = -1;
  o->timeout = 1200;
  o->report_slow_units = 10;
  o->rss_limit_mb = 2048;
  o->len_control = 100;
  o->artifact_prefix = "./"; /* libFuzzer's default */
  o->detect_leaks = 1;
  o->ignore_timeouts = 1;
  o->ignore_ooms = 1;
  o->error_exitcode = LF_EXIT_ERROR;
  o->timeout_exitcode = LF_EXIT_TIMEOUT;
  o->verbosity = 1;
}

int cgofuzz_lf_parse_flags(int argc, char **argv, lf_opts *o) {
  defaults(o);
  o->inputs = calloc((size_t)argc + 1, sizeof *o->inputs);
  if (!o->inputs) {
    fprintf(stderr, "ERROR: out of memory\n");
    return -1;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      o->inputs[o->n_inputs++] = argv[i];
      continue;
    }
    const char *eq = strchr(a, '=');
    const lf_flag *f = NULL;
    if (eq && a[1] != '-')
      for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
        if (strlen(flags[k].name) == (size_t)(eq - a - 1) &&
            strncmp(flags[k].name, a + 1, (size_t)(eq - a - 1)) == 0)
          f = &flags[k];
    if (!f) {
      fprintf(stderr,
              "WARNING: unrecognized flag '%s'; use -help=1 to list all "
              "flags\n",
              a);
      continue;
    }
    char *field = (char *)o + f->off;
    if (!f->is_int) {
      const char *v = eq + 1;
      memcpy(field, &v, sizeof v);
      continue;
    }
    int64_t v;
    if (cgofuzz_parse_int(eq + 1, strlen(eq + 1), 64, &v) != 0) {
      fprintf(stderr, "ERROR: flag -%s: \"%s\" is not an integer\n", f->name,
              eq + 1);
      return -1;
    }
    memcpy(field, &v, sizeof v);
  }
  return 0;
}

void cgofuzz_lf_free_flags(lf_opts *o) {
  free(o->inputs);
  o->inputs = NULL;
}

static int push(char ***v, size_t *n, const char *fmt, int64_t x) {
  char tmp[64];
  snprintf(tmp, sizeof tmp, fmt, x);
  char **nv = realloc(*v, (*n + 2) * sizeof **v);
  if (!nv)
    return -1;
  *v = nv;
  if (!(nv[*n] = strdup(tmp)))
    return -1;
  nv[++*n] = NULL;
  return 0;
}

int cgofuzz_lf_worker_flags(const lf_opts *o, const cgofuzz_lf_target *t,
                            char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  for (size_t i = 0; i < t->n_worker_args; i++) {
    char **nv = realloc(*out, (*n + 2) * sizeof **out);
    if (!nv || !(nv[*n] = strdup(t->worker_args[i])))
      return -1;
    *out = nv;
    nv[++*n] = NULL;
  }
  /* A Go test binary has no such flags (it would reject them); its own
   * worker applies Go's limits. */
  if (t->go)
    return 0;
  if (push(out, n, "-test.fuzztimeout=%" PRId64 "s",
           o->timeout > 0 ? o->timeout : 0) != 0 ||
      push(out, n, "-test.fuzzrsslimitmb=%" PRId64,
           o->rss_limit_mb > 0 ? o->rss_limit_mb : 0) != 0 ||
      push(out, n, "-test.fuzzmalloclimitmb=%" PRId64,
           o->malloc_limit_mb > 0 ? o->malloc_limit_mb
           : o->rss_limit_mb > 0  ? o->rss_limit_mb
                                  : 0) != 0)
    return -1;
  /* libFuzzer checks for leaks while fuzzing and running files, not
   * while merging. */
  if ((o->detect_leaks == 0 || o->merge > 0) &&
      push(out, n, "-test.fuzzdetectleaks=false", 0) != 0)
    return -1;
  if (o->use_value_profile > 0) {
    char **nv = realloc(*out, (*n + 2) * sizeof **out);
    if (!nv || !(nv[*n] = strdup("-test.fuzzvalueprofile")))
      return -1;
    *out = nv;
    nv[++*n] = NULL;
  }
  if (o->dict && *o->dict) {
    char **nv = realloc(*out, (*n + 2) * sizeof **out);
    size_t len = strlen(o->dict) + sizeof "-test.fuzzdict=";
    char *s = malloc(len);
    if (!nv || !s) {
      free(s);
      return -1;
    }
    *out = nv;
    snprintf(s, len, "-test.fuzzdict=%s", o->dict);
    nv[(*n)++] = s;
    nv[*n] = NULL;
  }
  return 0;
}

bool cgofuzz_lf_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

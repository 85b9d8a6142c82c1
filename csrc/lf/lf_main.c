/*
 * lf_main.c: libFuzzer's command line: which mode argv asks for, and the
 * simplest one, running the files given (how engines reproduce a crash).
 *
 * Modes, as libFuzzer chooses them: -help=1; -jobs=N (lf_jobs.c: N runs
 * of this command line, each a process); -merge=1 (cgofuzz_lf_merge.c);
 * -minimize_crash=1 and -cleanse_crash=1 (lf_min.c); inputs that are all
 * files: run each -runs times (at least once); else fuzz (cgofuzz_lf_fuzz.c)
 * with the directories as the corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "lf_internal.h"

bool cgofuzz_lf_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "-test.", 6) == 0 || strncmp(a, "--test.", 7) == 0)
      return false; /* Go's flags: a Go test binary's command line */
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-')
      return true; /* a corpus directory or a file */
    if (a[1] != '-' && strchr(a, '=') && a[1] != '=')
      return true; /* -name=value */
  }
  return false;
}

int cgofuzz_lf_run_files(const cgofuzz_lf_target *t, const lf_opts *o) {
  lf_exec x;
  int rc = 0;
  int64_t runs = o->runs > 1 ? o->runs : 1;
  fprintf(stderr, "INFO: Seed: %lld\n", (long long)o->seed);
  fprintf(stderr, "Running with %zu input(s)\n", o->n_inputs);
  if (cgofuzz_lf_exec_init(&x, t, o, 2) != 0) {
    cgofuzz_lf_exec_free(&x);
    return LF_EXIT_USAGE;
  }
  for (size_t i = 0; i < o->n_inputs && rc == 0; i++) {
    lf_input in;
    if (cgofuzz_lf_read_input(t, o->inputs[i], 0, &in) != 0) {
      rc = LF_EXIT_USAGE;
      break;
    }
    fprintf(stderr, "Running: %s\n", o->inputs[i]);
    fflush(stderr);
    int64_t t0 = cgofuzz_mono_ns();
    for (int64_t k = 0; k < runs && rc == 0; k++) {
      lf_outcome oc;
      if (cgofuzz_lf_exec_run(&x, in.enc.data, in.enc.len, &oc) != 0)
        rc = LF_EXIT_USAGE;
      else if (oc != LF_OK)
        rc = cgofuzz_lf_report_failure(o, oc, (const char *)x.msg.data,
                                       x.msg.len, x.status);
    }
    if (rc == 0)
      fprintf(stderr, "Executed %s in %lld ms\n", o->inputs[i],
              (long long)((cgofuzz_mono_ns() - t0) / 1000000));
    free(in.path);
    cgofuzz_buf_free(&in.enc);
  }
  if (rc == 0)
    fprintf(stderr, "*** NOTE: fuzzing was not performed, you have only\n"
                    "***       executed the target code on a fixed set of "
                    "inputs.\n");
  fflush(stderr);
  cgofuzz_lf_exec_free(&x);
  return rc;
}

int cgofuzz_lf_main(int argc, char **argv, const cgofuzz_lf_target *t) {
  lf_opts o;
  if (cgofuzz_lf_parse_flags(argc, argv, &o) != 0) {
    cgofuzz_lf_free_flags(&o);
    return LF_EXIT_USAGE;
  }
  int rc;
  if (o.help) {
    cgofuzz_lf_print_help(argv[0]);
    rc = 0;
  } else if (o.jobs > 0) {
    rc = cgofuzz_lf_jobs(argc, argv, &o);
  } else if (o.merge) {
    rc = cgofuzz_lf_merge(t, &o);
  } else if (o.minimize_crash) {
    rc = cgofuzz_lf_minimize_crash(t, &o);
  } else if (o.cleanse_crash) {
    rc = cgofuzz_lf_cleanse_crash(t, &o);
  } else {
    /* libFuzzer's AllInputsAreFiles: every input a regular file. */
    bool files = o.n_inputs > 0;
    for (size_t i = 0; i < o.n_inputs && files; i++) {
      struct stat st;
      files = stat(o.inputs[i], &st) == 0 && S_ISREG(st.st_mode);
    }
    rc = files ? cgofuzz_lf_run_files(t, &o) : cgofuzz_lf_fuzz(t, &o);
  }
  cgofuzz_lf_free_flags(&o);
  return rc;
}

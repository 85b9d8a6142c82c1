/*
 * cmd_exec.c: cgofuzz as go test's -exec program.
 *
 * `go test -exec=cgofuzz` (or GOFLAGS=-exec=cgofuzz) runs, from the
 * package directory,
 *
 *   cgofuzz /tmp/go-build.../pkg.test -test.paniconexit0
 *       -test.timeout=10m0s [-test.fuzzcachedir=DIR -test.fuzz=RE ...]
 *       [the arguments after go test's -args]
 *
 * and takes that command's output and exit status for the test binary's.
 * So cgofuzz, given an executable where a command belongs, does what the
 * binary would do:
 *
 *  - Without -test.fuzz (plain go test, -run, -list, -bench, examples, go
 *    run -exec) or as a fuzz worker, it execs the binary with the same
 *    arguments: one exec, nothing else read or run.
 *  - With -test.fuzz, the binary itself first runs what go test runs
 *    before fuzzing (the tests, the seed corpora of the fuzz targets that
 *    are not fuzzed, examples, benchmarks; -test.fuzz left out and the
 *    fuzzed targets skipped, its final PASS held back). If that fails, its
 *    output and status are the answer, as with go test. Then the one
 *    matching fuzz target is fuzzed by cgofuzz's coordinator with the
 *    binary's own workers (cmd_fuzz.c), which prints go test's lines and
 *    writes failures and the cache where go test does; a target that
 *    cannot be fuzzed (it returns without calling f.Fuzz, fails or skips
 *    first) is reported by the binary's own words from the discovery run.
 *
 * Every -test.* flag is the binary's own, so the binary checks and
 * honours each of them in the test pass (-test.count, -test.shuffle,
 * -test.timeout, -test.cpu, -test.failfast, ...); the fuzzing flags
 * (-test.fuzz, -test.fuzztime, -test.fuzzminimizetime, -test.parallel,
 * -test.fuzzcachedir, -test.v) become cgofuzz fuzz's. As in the testing
 * package, -test.fuzz matching several targets is refused ("will not
 * fuzz"): `cgofuzz fuzz` is the command that fuzzes many.
 *
 * cgofuzz's own options reach it two ways (README, "go test -exec"):
 * CGOFUZZ_FLAGS in the environment ("-fuzzcontinue -dict=x.dict", split
 * at white space), and after go test's -args: every argument named like
 * one of the flags in exec_flags below is taken by cgofuzz and not passed
 * on to the binary (a test's own flag of the same name would therefore
 * have to be renamed; none of Go's is).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "spawn.h"

/* cgofuzz fuzz's flags that make sense under go test -exec, and whether
 * each is a boolean (never consumes the next argument). */
static const struct {
  const char *name;
  bool is_bool;
} exec_flags[] = {
    {"fuzzcontinue", true}, {"autodict", true},     {"dict", false},
    {"dictout", false},     {"fuzztimeout", false}, {"fuzzrsslimitmb", false},
    {"junit", false},       {"fuzzstats", false},   {"fuzztimeper", false},
};

/* The -test.* flags that take no value (Go's bool flags of package
 * testing, and -test.v whose value is optional). */
static const char *const test_bools[] = {
    "v",        "short",    "failfast",   "paniconexit0",
    "fullpath", "benchmem", "fuzzworker",
};

bool cli_exec_wanted(const char *arg) {
  struct stat sb;
  return arg[0] != '-' && stat(arg, &sb) == 0 && S_ISREG(sb.st_mode) &&
         access(arg, X_OK) == 0;
}

/* An argument "-name[=value]" or "--name[=value]": *name and its length,
 * *value (NULL without '='). false when arg is not a flag. */
static bool split_flag(const char *arg, const char **name, size_t *nlen,
                       const char **value) {
  if (arg[0] != '-' || arg[1] == '\0')
    return false;
  const char *n = arg + 1 + (arg[1] == '-');
  if (*n == '\0' || *n == '-' || *n == '=')
    return false;
  const char *eq = strchr(n, '=');
  *name = n;
  *nlen = eq ? (size_t)(eq - n) : strlen(n);
  *value = eq ? eq + 1 : NULL;
  return true;
}

static bool name_is(const char *name, size_t nlen, const char *want) {
  return strlen(want) == nlen && memcmp(name, want, nlen) == 0;
}

/* The test binary's arguments, sorted into what cgofuzz needs. */
typedef struct exec_args {
  char **bin; /* the binary's arguments, cgofuzz's own taken out */
  size_t nbin;
  char **own; /* cgofuzz's own flags, "-name=value" or "-name" */
  size_t nown;
  /* The values of -test.* flags that steer fuzzing (last one wins, as
   * in Go's flag package); NULL when not given. */
  const char *fuzz, *skip, *fuzztime, *mintime, *parallel, *cachedir, *v;
  bool worker, list;
} exec_args;

static void free_args(exec_args *a) {
  free(a->bin);
  for (size_t i = 0; i < a->nown; i++)
    free(a->own[i]);
  free(a->own);
}

static int add_own(exec_args *a, const char *name, size_t nlen,
                   const char *value) {
  cgofuzz_buf b = {0};
  cgofuzz_buf_printf(&b, "-%.*s", (int)nlen, name);
  if (value)
    cgofuzz_buf_printf(&b, "=%s", value);
  if (cgofuzz_buf_putc(&b, 0) != 0) {
    cgofuzz_buf_free(&b);
    return -1;
  }
  a->own[a->nown++] = (char *)b.data;
  return 0;
}

/* Sorts argv[0..argc) (the binary's arguments): cgofuzz's flags go to
 * a->own (args is true: they came on the command line, where "--" ends
 * them), the rest to a->bin, and the -test.* values are noted. Returns 0,
 * or -1 when memory runs out. */
static int sort_args(exec_args *a, int argc, char **argv) {
  a->bin = calloc((size_t)argc + 1, sizeof *a->bin);
  a->own = realloc(a->own, (a->nown + (size_t)argc + 1) * sizeof *a->own);
  if (!a->bin || !a->own)
    return -1;
  bool rest = false; /* after "--": nothing more is a flag */
  for (int i = 0; i < argc; i++) {
    const char *name, *value;
    size_t nlen;
    if (rest || !split_flag(argv[i], &name, &nlen, &value)) {
      rest = rest || strcmp(argv[i], "--") == 0;
      a->bin[a->nbin++] = argv[i];
      continue;
    }
    bool own = false, own_bool = false;
    for (size_t k = 0; k < sizeof exec_flags / sizeof exec_flags[0]; k++)
      if (name_is(name, nlen, exec_flags[k].name)) {
        own = true;
        own_bool = exec_flags[k].is_bool;
      }
    if (own) {
      if (!value && !own_bool && i + 1 < argc)
        value = argv[++i];
      if (add_own(a, name, nlen, value) != 0)
        return -1;
      continue;
    }
    a->bin[a->nbin++] = argv[i];
    if (nlen < 5 || memcmp(name, "test.", 5) != 0)
      continue;
    name += 5;
    nlen -= 5;
    bool is_bool = false;
    for (size_t k = 0; k < sizeof test_bools / sizeof test_bools[0]; k++)
      is_bool = is_bool || name_is(name, nlen, test_bools[k]);
    if (!value && !is_bool && i + 1 < argc) /* -test.run RE */
      value = a->bin[a->nbin++] = argv[++i];
    struct {
      const char *n;
      const char **dst;
    } vals[] = {{"fuzz", &a->fuzz},
                {"skip", &a->skip},
                {"fuzztime", &a->fuzztime},
                {"fuzzminimizetime", &a->mintime},
                {"parallel", &a->parallel},
                {"fuzzcachedir", &a->cachedir},
                {"v", &a->v},
                {"list", NULL}};
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++)
      if (name_is(name, nlen, vals[k].n)) {
        if (vals[k].dst)
          *vals[k].dst = value ? value : "true";
        else
          a->list = true;
      }
    if (name_is(name, nlen, "fuzzworker"))
      a->worker = true;
  }
  return 0;
}

/* CGOFUZZ_FLAGS: cgofuzz's flags from the environment, split at white
 * space. An argument that is not one of exec_flags is refused (2). */
static int env_flags(exec_args *a) {
  const char *env = getenv("CGOFUZZ_FLAGS");
  if (!env || !*env)
    return 0;
  char *copy = strdup(env);
  size_t max = strlen(env) / 2 + 2;
  char **v = calloc(max, sizeof *v);
  if (!copy || !v) {
    free(copy);
    free(v);
    return -1;
  }
  size_t n = 0;
  for (char *tok = strtok(copy, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
    v[n++] = tok;
  int rc = 0;
  a->own = realloc(a->own, (a->nown + n + 1) * sizeof *a->own);
  for (size_t i = 0; a->own && i < n && rc == 0; i++) {
    const char *name, *value;
    size_t nlen;
    bool known = false, is_bool = false;
    if (split_flag(v[i], &name, &nlen, &value))
      for (size_t k = 0; k < sizeof exec_flags / sizeof exec_flags[0]; k++)
        if (name_is(name, nlen, exec_flags[k].name)) {
          known = true;
          is_bool = exec_flags[k].is_bool;
        }
    if (!known) {
      fprintf(stderr,
              "cgofuzz: CGOFUZZ_FLAGS: %s is not one of cgofuzz's flags for "
              "go test -exec\n",
              v[i]);
      rc = 2;
      break;
    }
    if (!value && !is_bool && i + 1 < n)
      value = v[++i];
    if (add_own(a, name, nlen, value) != 0)
      rc = -1;
  }
  if (!a->own)
    rc = -1;
  free(v);
  free(copy);
  return rc;
}

/* CGOFUZZ_EXEC_LOG=FILE: one line per run appended to FILE, saying what
 * cgofuzz did with it ("exec BINARY" or "fuzz BINARY TARGET STATUS"), so
 * that a script can tell a fuzzing run cgofuzz coordinated from one the
 * binary ran itself (scripts/fuzztest.sh counts them). */
static void exec_log(const char *what, const char *binary, const char *target,
                     int status) {
  const char *path = getenv("CGOFUZZ_EXEC_LOG");
  if (!path || !*path)
    return;
  FILE *f = fopen(path, "a");
  if (!f)
    return;
  if (target)
    fprintf(f, "%s %s %s %d\n", what, binary, target, status);
  else
    fprintf(f, "%s %s\n", what, binary);
  fclose(f);
}

/* Ends this process the way a child ended (its exit status, or the same
 * signal), as the binary's own end would look to go test. */
int cli_exit_like(int st) {
  fflush(stdout);
  fflush(stderr);
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : CLI_EXIT_FAIL;
}

/* Whether line (without its newline) is the binary's closing PASS
 * (with -test.v=test2json it carries the 0x16 framing byte first). */
static bool is_pass_line(const char *p, size_t n) {
  if (n && p[0] == 0x16)
    p++, n--;
  return n == 4 && memcmp(p, "PASS", 4) == 0;
}

/* Runs the binary's test pass (see the top of this file), passing its
 * output on as it comes, the closing PASS and go's "no tests to run"
 * warning (which a run with -test.fuzz does not print) held back. Returns
 * the wait status, or -1 if it could not be started. */
static int test_pass(const char *binary, char **argv) {
  int p[2];
  if (pipe(p) != 0)
    return -1;
  fflush(stdout);
  fflush(stderr);
  cgofuzz_spawn s = {
      .path = binary, .argv = argv, .stdout_fd = p[1], .stderr_fd = p[1]};
  pid_t pid = cgofuzz_spawn_start(&s);
  close(p[1]);
  if (pid < 0) {
    close(p[0]);
    return -1;
  }
  cgofuzz_buf line = {0};
  bool held = false; /* a PASS line read, not yet passed on */
  static const char warn[] = "testing: warning: no tests to run";
  char tmp[4096];
  for (;;) {
    ssize_t k = read(p[0], tmp, sizeof tmp);
    if (k < 0 && errno == EINTR)
      continue;
    for (ssize_t i = 0; i < k; i++) {
      cgofuzz_buf_putc(&line, (uint8_t)tmp[i]);
      if (tmp[i] != '\n')
        continue;
      const char *l = (const char *)line.data;
      size_t n = line.len - 1;
      if (held) {
        fputs("PASS\n", stdout);
        held = false;
      }
      if (is_pass_line(l, n))
        held = true;
      else if (!(n == sizeof warn - 1 && memcmp(l, warn, n) == 0))
        fwrite(l, 1, line.len, stdout);
      line.len = 0;
    }
    if (k <= 0)
      break;
    fflush(stdout);
  }
  close(p[0]);
  int st = cgofuzz_spawn_wait(pid, -1, NULL);
  bool passed = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (held && !passed)
    fputs("PASS\n", stdout);
  if (line.len)
    fwrite(line.data, 1, line.len, stdout);
  fflush(stdout);
  cgofuzz_buf_free(&line);
  return st;
}

/* The fuzz targets of binary whose names the binary's own regexp (Go's
 * syntax, through -test.list) matches: *names, *n. 0, or -1 after
 * printing why. */
static int list_fuzz_targets(const char *binary, const exec_args *a,
                             char ***names, size_t *n) {
  char **av = calloc(a->nbin + 3, sizeof *av);
  cgofuzz_buf arg = {0}, out = {0};
  *names = NULL;
  *n = 0;
  if (!av || cgofuzz_buf_printf(&arg, "-test.list=%s", a->fuzz) != 0 ||
      cgofuzz_buf_putc(&arg, 0) != 0) {
    free(av);
    cgofuzz_buf_free(&arg);
    return -1;
  }
  size_t k = 0;
  av[k++] = (char *)binary;
  for (size_t i = 0; i < a->nbin; i++)
    av[k++] = a->bin[i];
  av[k++] = (char *)arg.data;
  cgofuzz_spawn s = {.path = binary, .argv = av, .stderr_fd = 2};
  int st = cgofuzz_spawn_run(&s, &out, false, -1);
  int rc = 0;
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "cgofuzz: %s -test.list failed\n", binary);
    rc = -1;
  }
  cgofuzz_buf_putc(&out, 0);
  for (char *l = (char *)out.data; rc == 0 && l && *l;) {
    char *nl = strchr(l, '\n');
    if (nl)
      *nl = '\0';
    if (strncmp(l, "Fuzz", 4) == 0) {
      char **nn = realloc(*names, (*n + 1) * sizeof *nn);
      if (!nn || !(nn[*n] = strdup(l))) {
        if (nn)
          *names = nn;
        rc = -1;
        break;
      }
      *names = nn;
      (*n)++;
    }
    l = nl ? nl + 1 : NULL;
  }
  free(av);
  cgofuzz_buf_free(&arg);
  cgofuzz_buf_free(&out);
  return rc;
}

/* "-test.skip=^(A|B)$", or "(USER)|^(A|B)$" with the user's own -test.skip
 * (which must then have no '/': a pattern for subtests cannot be joined
 * with ours, and is left as the user gave it). NULL: none to add. */
static char *skip_arg(const char *user, char **names, size_t n) {
  if (user && strchr(user, '/'))
    return NULL;
  cgofuzz_buf b = {0};
  cgofuzz_buf_puts(&b, "-test.skip=");
  if (user && *user)
    cgofuzz_buf_printf(&b, "(%s)|", user);
  cgofuzz_buf_puts(&b, "^(");
  for (size_t i = 0; i < n; i++)
    cgofuzz_buf_printf(&b, "%s%s", i ? "|" : "", names[i]);
  cgofuzz_buf_puts(&b, ")$");
  if (cgofuzz_buf_putc(&b, 0) != 0) {
    cgofuzz_buf_free(&b);
    return NULL;
  }
  return (char *)b.data;
}

/* Whether the -test.* argument arg is one of those the test pass runs
 * without (fuzzing's own) or that the coordinator sets for its workers. */
static bool drop_for_tests(const char *arg) {
  const char *name, *value;
  size_t nlen;
  if (!split_flag(arg, &name, &nlen, &value))
    return false;
  static const char *const drop[] = {"test.fuzz", "test.fuzztime",
                                     "test.fuzzminimizetime"};
  for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
    if (name_is(name, nlen, drop[i]))
      return true;
  return false;
}
static bool drop_for_workers(const char *arg) {
  const char *name, *value;
  size_t nlen;
  if (!split_flag(arg, &name, &nlen, &value))
    return false;
  static const char *const drop[] = {
      "test.fuzz",         "test.run",
      "test.skip",         "test.list",
      "test.fuzztime",     "test.parallel",
      "test.fuzzcachedir", "test.fuzzworker",
      "test.paniconexit0", "test.fuzzminimizetime"};
  for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
    if (name_is(name, nlen, drop[i]))
      return true;
  return false;
}

/* Whether a is one of the -test.* flags that take a separate value when
 * given without '=' (so that both words are dropped together). */
static bool takes_next(const char *arg) {
  const char *name, *value;
  size_t nlen;
  if (!split_flag(arg, &name, &nlen, &value) || value || nlen < 5 ||
      memcmp(name, "test.", 5) != 0)
    return false;
  for (size_t k = 0; k < sizeof test_bools / sizeof test_bools[0]; k++)
    if (name_is(name + 5, nlen - 5, test_bools[k]))
      return false;
  return true;
}

static int exec_fuzz(const char *binary, exec_args *a) {
  int rc = CLI_EXIT_FAIL;
  char **names = NULL, **av = NULL;
  size_t n = 0;
  char *skip = NULL;
  cgofuzz_buf fz = {0}, cache = {0}, ft = {0}, mt = {0}, par = {0}, vb = {0};
  /* Without a cache directory the binary refuses -test.fuzz with its own
   * usage message: let it say so. */
  if (!a->cachedir || !*a->cachedir)
    goto run_binary;
  if (list_fuzz_targets(binary, a, &names, &n) != 0)
    goto done;
  /* 1. The test pass: the binary, fuzzing's flags left out. */
  av = calloc(a->nbin + 4, sizeof *av);
  if (!av)
    goto done;
  size_t k = 0;
  av[k++] = (char *)binary;
  for (size_t i = 0; i < a->nbin; i++) {
    if (strcmp(a->bin[i], "--") == 0) { /* the rest is positional */
      while (i < a->nbin)
        av[k++] = a->bin[i++];
      break;
    }
    if (drop_for_tests(a->bin[i])) {
      i += takes_next(a->bin[i]);
      continue;
    }
    const char *name, *value;
    size_t nlen;
    if (n && split_flag(a->bin[i], &name, &nlen, &value) &&
        name_is(name, nlen, "test.skip") &&
        (!a->skip || !strchr(a->skip, '/'))) {
      i += takes_next(a->bin[i]);
      continue; /* joined with ours below */
    }
    av[k++] = a->bin[i];
  }
  if (n && (skip = skip_arg(a->skip, names, n)) != NULL)
    av[k++] = skip;
  av[k] = NULL;
  int st = test_pass(binary, av);
  if (st < 0) {
    fprintf(stderr, "cgofuzz: cannot run %s: %s\n", binary, strerror(errno));
    goto done;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    rc = cli_exit_like(st);
    goto done;
  }
  /* 2. Fuzzing, as the testing package decides it. */
  if (n == 0) {
    fprintf(stderr, "testing: warning: no fuzz tests to fuzz\n");
    printf("%sPASS\n", a->v && strcmp(a->v, "test2json") == 0 ? "\x16" : "");
    rc = CLI_EXIT_OK;
    goto done;
  }
  if (n > 1) {
    fputs("testing: will not fuzz, -fuzz matches more than one fuzz test: [",
          stderr);
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "%s%s", i ? " " : "", names[i]);
    fputs("]\n", stderr);
    printf("%sFAIL\n", a->v && strcmp(a->v, "test2json") == 0 ? "\x16" : "");
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  free(av);
  av = calloc(a->nown + a->nbin + 12, sizeof *av);
  if (!av)
    goto done;
  k = 0;
  cgofuzz_buf_printf(&fz, "-fuzz=^%s$", names[0]);
  cgofuzz_buf_printf(&cache, "-fuzzcachedir=%s", a->cachedir);
  if (cgofuzz_buf_putc(&fz, 0) || cgofuzz_buf_putc(&cache, 0))
    goto done;
  av[k++] = (char *)fz.data;
  av[k++] = (char *)cache.data;
  if (a->fuzztime) {
    cgofuzz_buf_printf(&ft, "-fuzztime=%s", a->fuzztime);
    if (cgofuzz_buf_putc(&ft, 0))
      goto done;
    av[k++] = (char *)ft.data;
  }
  if (a->mintime) {
    cgofuzz_buf_printf(&mt, "-fuzzminimizetime=%s", a->mintime);
    if (cgofuzz_buf_putc(&mt, 0))
      goto done;
    av[k++] = (char *)mt.data;
  }
  /* The testing package's default -test.parallel is GOMAXPROCS. */
  const char *gmp = getenv("GOMAXPROCS");
  const char *parallel = a->parallel            ? a->parallel
                         : gmp && atoi(gmp) > 0 ? gmp
                                                : NULL;
  if (parallel) {
    cgofuzz_buf_printf(&par, "-parallel=%s", parallel);
    if (cgofuzz_buf_putc(&par, 0))
      goto done;
    av[k++] = (char *)par.data;
  }
  if (a->v) { /* as given: a boolean or "test2json" */
    cgofuzz_buf_printf(&vb, "-v=%s", a->v);
    if (cgofuzz_buf_putc(&vb, 0))
      goto done;
    av[k++] = (char *)vb.data;
  }
  for (size_t i = 0; i < a->nown; i++)
    av[k++] = a->own[i];
  av[k++] = (char *)binary;
  av[k++] = "--";
  /* The workers get the rest, as Go's coordinator passes its own
   * arguments on to them. */
  for (size_t i = 0; i < a->nbin; i++) {
    if (drop_for_workers(a->bin[i])) {
      i += takes_next(a->bin[i]);
      continue;
    }
    av[k++] = a->bin[i];
  }
  av[k] = NULL;
  rc = cli_fuzz_main((int)k, av, true);
  exec_log("fuzz", binary, names[0], rc);
  goto done;
run_binary:
  free_args(a);
  return -1; /* the caller execs the binary */
done:
  cgofuzz_coord_free_names(names, n);
  free(av);
  free(skip);
  cgofuzz_buf *bufs[] = {&fz, &cache, &ft, &mt, &par, &vb};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
  free_args(a);
  return rc;
}

int cli_exec_main(int argc, char **argv) {
  const char *binary = argv[0];
  exec_args a;
  memset(&a, 0, sizeof a);
  if (sort_args(&a, argc - 1, argv + 1) != 0) {
    free_args(&a);
    return CLI_EXIT_FAIL;
  }
  if (a.fuzz && *a.fuzz && !a.worker && !a.list) {
    /* Again, CGOFUZZ_FLAGS first so that the command line's win. */
    free_args(&a);
    memset(&a, 0, sizeof a);
    int e = env_flags(&a);
    if (e == 0 && sort_args(&a, argc - 1, argv + 1) != 0)
      e = -1;
    if (e != 0) {
      if (e < 0)
        fprintf(stderr, "cgofuzz: out of memory\n");
      free_args(&a);
      return e < 0 ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    }
    int rc = exec_fuzz(binary, &a);
    if (rc >= 0)
      return rc;
    memset(&a, 0, sizeof a);
    if (sort_args(&a, argc - 1, argv + 1) != 0) {
      free_args(&a);
      return CLI_EXIT_FAIL;
    }
  }
  /* Not fuzzing: the binary, as if run directly, cgofuzz's flags out. */
  exec_log("exec", binary, NULL, 0);
  char **av = calloc(a.nbin + 2, sizeof *av);
  if (!av) {
    free_args(&a);
    return CLI_EXIT_FAIL;
  }
  av[0] = argv[0];
  memcpy(av + 1, a.bin, a.nbin * sizeof *av);
  fflush(stdout);
  fflush(stderr);
  execv(binary, av);
  fprintf(stderr, "cgofuzz: cannot run %s: %s\n", binary, strerror(errno));
  free(av);
  free_args(&a);
  return CLI_EXIT_FAIL;
}

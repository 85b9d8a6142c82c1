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
 *  - With -test.fuzz, the binary runs once as its target's coordinator,
 *    with the user's flags, exactly as under go test -fuzz: TestMain once,
 *    the tests, the seed corpora of the targets not fuzzed, examples,
 *    benchmarks, then the target's body up to f.Fuzz, and its own answer
 *    when -test.fuzz matches no target or several. Only its workers are
 *    ours: argv[0] is this program, so Go starts cgofuzz's fake workers
 *    (coord_discover.c), which record the target's seeds and the
 *    environment its body set, and name the target (Go's coordinator
 *    writes the input they call interesting to <private cache>/<target>/);
 *    a private empty cache, no minimization. Its output is
 *    passed on up to the first line of Go's fuzzing engine. If it never
 *    fuzzed (a test failed, the target failed, skipped or returned before
 *    f.Fuzz), its output and exit status are go test's answer. Otherwise
 *    cgofuzz's coordinator fuzzes that target with the binary's own
 *    workers (cmd_fuzz.c), printing go test's lines from there and writing
 *    failures and the cache where go test does.
 *
 * So every -test.* flag is the binary's own and honoured by it
 * (-test.count, -test.shuffle, -test.timeout, -test.cpu, -test.failfast,
 * -test.parallel, ...); the fuzzing flags (-test.fuzz, -test.fuzztime,
 * -test.fuzzminimizetime, -test.parallel, -test.fuzzcachedir, -test.v)
 * become cgofuzz fuzz's. As in the testing package, -test.fuzz matching
 * several targets is refused: `cgofuzz fuzz` is the command that fuzzes
 * many.
 *
 * cgofuzz's own options reach it two ways (docs/go-users.md):
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
#include "dir.h"
#include "gobin.h"
#include "gobin_patch.h"
#include "os.h"
#include "scratch.h"
#include "spawn.h"

/* cgofuzz fuzz's flags that make sense under go test -exec, and whether
 * each is a boolean (never consumes the next argument). */
static const struct {
  const char *name;
  bool is_bool;
} exec_flags[] = {
    {"fuzzcontinue", true},    {"autodict", true},  {"cmpfeedback", true},
    {"dict", false},           {"dictout", false},  {"fuzztimeout", false},
    {"fuzzrsslimitmb", false}, {"junit", false},    {"fuzzstats", false},
    {"fuzztimeper", false},    {"panic-on", false}, {"racereplay", true},
    {"focus", false},          {"goleaks", true},
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
  const char *fuzz, *fuzztime, *mintime, *parallel, *cachedir, *v;
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

/* Sorts argv[0..argc) (the binary's arguments, up to a "--" after which
 * nothing is a flag): cgofuzz's flags go to a->own, the rest to a->bin,
 * and the -test.* values that steer fuzzing are noted. Returns 0, or -1
 * when memory runs out. */
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
    if (takes_next(argv[i]) && i + 1 < argc) /* -test.run RE */
      value = a->bin[a->nbin++] = argv[++i];
    struct {
      const char *n;
      const char **dst;
    } vals[] = {{"fuzz", &a->fuzz},
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
 * cgofuzz did with it: "exec BINARY" (run unchanged), "tests BINARY -
 * STATUS" (its run as coordinator ended before fuzzing, and was the
 * answer) or "fuzz BINARY TARGET STATUS" (cgofuzz's coordinator fuzzed),
 * so that a script can tell the runs cgofuzz fuzzed from those the binary
 * answered itself (scripts/fuzztest.py counts them). */
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

/* Whether a line of the binary's output (without its newline) is the
 * first one of Go's fuzzing engine: from there on the binary's run is
 * cgofuzz's business. */
static bool engine_line(const char *p, size_t n) {
  static const char *const first[] = {
      "fuzz: elapsed: ", "warning: starting with empty corpus",
      "warning: the test binary was not built with coverage"};
  for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
    size_t k = strlen(first[i]);
    if (n >= k && memcmp(p, first[i], k) == 0)
      return true;
  }
  return false;
}

/* Runs the binary as its target's coordinator (the top of this file):
 * argv[0] is this program, so that the workers Go starts are cgofuzz's
 * fake workers, and env adds the discovery's variables. Its output
 * (stdout and stderr in one stream, as go test reads it) is passed on as
 * it comes up to the first line of Go's fuzzing engine; the rest is kept
 * in *tail. Returns the wait status, or -1 if it could not be started. */
static int coordinator_run(const char *binary, char **argv, char **env,
                           cgofuzz_buf *tail) {
  int p[2];
  if (pipe(p) != 0)
    return -1;
  fflush(stdout);
  fflush(stderr);
  cgofuzz_spawn s = {.path = binary,
                     .argv = argv,
                     .envp = env,
                     .stdout_fd = p[1],
                     .stderr_fd = p[1],
                     .reset_signals = true};
  /* ^C reaches the binary too (go test's process group): it ends its run
   * in its own way, and we pass that on and clean up instead of dying. */
  struct sigaction ign = {.sa_handler = SIG_IGN}, old[3];
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &ign, &old[i]);
  pid_t pid = cgofuzz_spawn_start(&s);
  close(p[1]);
  if (pid < 0) {
    close(p[0]);
    for (int i = 0; i < 3; i++)
      sigaction(sigs[i], &old[i], NULL);
    return -1;
  }
  cgofuzz_buf line = {0};
  bool cut = false;
  char tmp[4096];
  for (;;) {
    ssize_t k = read(p[0], tmp, sizeof tmp);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    if (cut) {
      cgofuzz_buf_append(tail, tmp, (size_t)k);
      continue;
    }
    for (ssize_t i = 0; i < k; i++) {
      cgofuzz_buf_putc(&line, (uint8_t)tmp[i]);
      if (tmp[i] != '\n')
        continue;
      if (engine_line((const char *)line.data, line.len - 1)) {
        cut = true;
        cgofuzz_buf_append(tail, line.data, line.len);
        cgofuzz_buf_append(tail, tmp + i + 1, (size_t)(k - i - 1));
        break;
      }
      fwrite(line.data, 1, line.len, stdout);
      line.len = 0;
    }
    fflush(stdout);
  }
  if (!cut && line.len)
    fwrite(line.data, 1, line.len, stdout);
  fflush(stdout);
  close(p[0]);
  cgofuzz_buf_free(&line);
  int st = cgofuzz_spawn_wait(pid, -1, NULL);
  for (int i = 0; i < 3; i++)
    sigaction(sigs[i], &old[i], NULL);
  return st;
}

/* Whether arg is one of the -test.* flags the coordinator's own run gets
 * from us instead (or, for the workers, that the coordinator sets). */
static bool flag_in(const char *arg, const char *const *names, size_t n) {
  const char *name, *value;
  size_t nlen;
  if (!split_flag(arg, &name, &nlen, &value))
    return false;
  for (size_t i = 0; i < n; i++)
    if (name_is(name, nlen, names[i]))
      return true;
  return false;
}
static const char *const ours_for_run[] = {"test.fuzzcachedir", "test.fuzztime",
                                           "test.fuzzminimizetime"};
static const char *const ours_for_workers[] = {
    "test.fuzz",         "test.run",
    "test.skip",         "test.list",
    "test.fuzztime",     "test.parallel",
    "test.fuzzcachedir", "test.fuzzworker",
    "test.paniconexit0", "test.fuzzminimizetime"};

/* "-NAME=VALUE" in b, or NULL when out of memory. */
static char *flag_arg(cgofuzz_buf *b, const char *name, const char *value) {
  b->len = 0;
  cgofuzz_buf_printf(b, "-%s=%s", name, value);
  return cgofuzz_buf_putc(b, 0) == 0 ? (char *)b->data : NULL;
}

/* The one fuzz target -test.fuzz matches, by the binary's own -test.list
 * (Go's regexp syntax): a malloc'd name, or NULL. Only when the private
 * cache named none, since it runs the binary (and its TestMain) again. */
static char *list_target(const char *binary, const exec_args *a) {
  char **av = calloc(a->nbin + 3, sizeof *av);
  cgofuzz_buf arg = {0}, out = {0};
  char *name = NULL;
  size_t k = 0, found = 0;
  if (!av || !flag_arg(&arg, "test.list", a->fuzz)) {
    free(av);
    cgofuzz_buf_free(&arg);
    return NULL;
  }
  av[k++] = (char *)binary;
  for (size_t i = 0; i < a->nbin && strcmp(a->bin[i], "--") != 0; i++)
    av[k++] = a->bin[i];
  av[k++] = (char *)arg.data;
  cgofuzz_spawn sp = {.path = binary, .argv = av, .stderr_fd = -1};
  int st = cgofuzz_spawn_run(&sp, &out, false, -1);
  if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
      cgofuzz_buf_putc(&out, 0) == 0)
    for (char *l = (char *)out.data; l && *l;) {
      char *nl = strchr(l, '\n');
      if (nl)
        *nl = '\0';
      if (strncmp(l, "Fuzz", 4) == 0 && found++ == 0)
        name = strdup(l);
      l = nl ? nl + 1 : NULL;
    }
  if (found != 1) {
    free(name);
    name = NULL;
  }
  free(av);
  cgofuzz_buf_free(&arg);
  cgofuzz_buf_free(&out);
  return name;
}

extern char **environ;

/* One fuzzing run under go test -exec (exec_fuzz): what its steps share.
 * What it owns is NULL or empty until a step makes it, so exec_free
 * releases whatever the steps made, the temporary directory too. */
typedef struct exec_run {
  const char *binary;
  exec_args *a;
  char **av, **env, *target;
  char self[PATH_MAX];
  /* root: our temporary directory, with the private cache and the fake
   * workers' records; the rest hold arguments made for av and env */
  cgofuzz_buf root, cache, recs, tail, e1, fz, cd, ft, mt, par, vb, ca;
  /* The binary's wait status when its own run was the answer, else -1. */
  int pass_st;
  cgofuzz_coord_config disc;
} exec_run;

/* Our temporary directory: root/cache and root/records. */
static int exec_make_dirs(exec_run *x) {
  int sl = cgofuzz_os_self_exe(x->self, sizeof x->self);
  cgofuzz_buf_printf(&x->root, "%s/cgofuzz-exec-XXXXXX", cgofuzz_tmpdir());
  if (sl != 0 || cgofuzz_buf_putc(&x->root, 0) != 0 ||
      !mkdtemp((char *)x->root.data)) {
    fprintf(stderr, "cgofuzz: cannot make a temporary directory: %s\n",
            strerror(errno));
    return CLI_EXIT_FAIL;
  }
  cgofuzz_buf_printf(&x->cache, "%s/cache", (char *)x->root.data);
  cgofuzz_buf_printf(&x->recs, "%s/records", (char *)x->root.data);
  if (cgofuzz_buf_putc(&x->cache, 0) || cgofuzz_buf_putc(&x->recs, 0) ||
      mkdir((char *)x->cache.data, 0700) != 0)
    return CLI_EXIT_FAIL;
  return CLI_GO_ON;
}

/* 1. The binary as its target's coordinator: everything go test -fuzz
 * runs before fuzzing, in the binary's own words, and then the target's
 * seeds and environment, sent to our fake workers (coord_discover.c,
 * which keep the seeds in order however many there are). A private
 * empty cache (the inputs sent are then the seeds and testdata only), no
 * minimization, and a budget the fake workers claim at once. This makes
 * its environment and command line. */
static int exec_coordinator_args(exec_run *x) {
  const exec_args *a = x->a;
  size_t nenv = 0;
  while (environ[nenv])
    nenv++;
  x->av = calloc(a->nbin + 8, sizeof *x->av);
  x->env = calloc(nenv + 3, sizeof *x->env);
  if (!x->av || !x->env)
    return CLI_EXIT_FAIL;
  char **env = x->env, **av = x->av;
  for (size_t i = 0; i < nenv; i++)
    if (strncmp(environ[i], CGOFUZZ_GOBIN_DISCOVER_ENV "=",
                strlen(CGOFUZZ_GOBIN_DISCOVER_ENV) + 1) != 0)
      env[i] = environ[i];
  size_t ne = 0;
  for (size_t i = 0; i < nenv; i++)
    if (env[i])
      env[ne++] = env[i];
  cgofuzz_buf_printf(&x->e1, "%s=%s", CGOFUZZ_GOBIN_DISCOVER_ENV,
                     (char *)x->recs.data);
  if (cgofuzz_buf_putc(&x->e1, 0))
    return CLI_EXIT_FAIL;
  env[ne++] = (char *)x->e1.data;
  env[ne++] = CGOFUZZ_GOBIN_DISCOVER_NAME_ENV "=1";
  env[ne] = NULL;
  size_t k = 0;
  av[k++] = x->self;
  /* Ours first: Go's flags end at the first argument that is not one, and
   * the user's of the same names are left out. */
  if (!(av[k++] =
            flag_arg(&x->cd, "test.fuzzcachedir", (char *)x->cache.data)) ||
      !(av[k++] = flag_arg(&x->ft, "test.fuzztime", "1000000000x")) ||
      !(av[k++] = flag_arg(&x->mt, "test.fuzzminimizetime", "0")))
    return CLI_EXIT_FAIL;
  bool positional = false;
  for (size_t i = 0; i < a->nbin; i++) {
    positional = positional || strcmp(a->bin[i], "--") == 0;
    if (!positional && flag_in(a->bin[i], ours_for_run,
                               sizeof ours_for_run / sizeof *ours_for_run)) {
      i += takes_next(a->bin[i]);
      continue;
    }
    av[k++] = a->bin[i];
  }
  av[k] = NULL;
  return CLI_GO_ON;
}

/* The binary's own run, and the target it was to fuzz. */
static int exec_coordinator(exec_run *x) {
  const char *binary = x->binary;
  int st = coordinator_run(binary, x->av, x->env, &x->tail);
  if (st < 0) {
    fprintf(stderr, "cgofuzz: cannot run %s: %s\n", binary, strerror(errno));
    return CLI_EXIT_FAIL;
  }
  if (!cgofuzz_gobin_records_have_input((char *)x->recs.data) ||
      !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    /* It never fuzzed (a test failed, the target failed, skipped or
     * returned before f.Fuzz, -test.fuzz matched none or several): its
     * output and status are go test's answer. */
    if (x->tail.len)
      fwrite(x->tail.data, 1, x->tail.len, stdout);
    exec_log("tests", binary, "-", st);
    x->pass_st = st; /* ended as the binary ended, once cleaned up */
    return CLI_EXIT_OK;
  }
  cgofuzz_err err = {0};
  cgofuzz_gobin_gover(binary, &x->disc.gover, &err);
  if (!(x->target = cgofuzz_gobin_cache_target((char *)x->cache.data)))
    x->target = list_target(binary, x->a);
  if (!x->target || cgofuzz_coord_discovered(&x->disc, (char *)x->recs.data,
                                             x->target, &err) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", binary,
            x->target ? err.msg
                      : "cannot tell which fuzz target -test.fuzz "
                        "matched");
    return CLI_EXIT_FAIL;
  }
  return CLI_GO_ON;
}

/* 2. Fuzzing that target with cgofuzz's coordinator. */
static int exec_fuzz_target(exec_run *x) {
  const exec_args *a = x->a;
  free(x->av);
  x->av = calloc(a->nown + a->nbin + 12, sizeof *x->av);
  if (!x->av)
    return CLI_EXIT_FAIL;
  char **av = x->av;
  size_t k = 0;
  cgofuzz_buf_printf(&x->fz, "^%s$", x->target);
  if (cgofuzz_buf_putc(&x->fz, 0) ||
      !(av[k++] = flag_arg(&x->ca, "fuzz", (char *)x->fz.data)))
    return CLI_EXIT_FAIL;
  cgofuzz_buf_free(&x->cd);
  if (!(av[k++] = flag_arg(&x->cd, "fuzzcachedir", a->cachedir)))
    return CLI_EXIT_FAIL;
  cgofuzz_buf_free(&x->ft);
  if (a->fuzztime && !(av[k++] = flag_arg(&x->ft, "fuzztime", a->fuzztime)))
    return CLI_EXIT_FAIL;
  cgofuzz_buf_free(&x->mt);
  if (a->mintime &&
      !(av[k++] = flag_arg(&x->mt, "fuzzminimizetime", a->mintime)))
    return CLI_EXIT_FAIL;
  /* The testing package's default -test.parallel is GOMAXPROCS. */
  const char *gmp = getenv("GOMAXPROCS");
  const char *parallel = a->parallel            ? a->parallel
                         : gmp && atoi(gmp) > 0 ? gmp
                                                : NULL;
  cgofuzz_buf_free(&x->par);
  if (parallel && !(av[k++] = flag_arg(&x->par, "parallel", parallel)))
    return CLI_EXIT_FAIL;
  if (a->v && !(av[k++] = flag_arg(&x->vb, "v", a->v))) /* or "test2json" */
    return CLI_EXIT_FAIL;
  for (size_t i = 0; i < a->nown; i++)
    av[k++] = a->own[i];
  av[k++] = (char *)x->binary;
  av[k++] = "--";
  /* The workers get the rest, as Go's coordinator passes its own
   * arguments on to them. */
  bool positional = false;
  for (size_t i = 0; i < a->nbin; i++) {
    positional = positional || strcmp(a->bin[i], "--") == 0;
    if (!positional &&
        flag_in(a->bin[i], ours_for_workers,
                sizeof ours_for_workers / sizeof *ours_for_workers)) {
      i += takes_next(a->bin[i]);
      continue;
    }
    av[k++] = a->bin[i];
  }
  av[k] = NULL;
  cli_fuzz_pre pre = {.target = x->target, .disc = &x->disc};
  int rc = cli_fuzz_main((int)k, av, &pre);
  exec_log("fuzz", x->binary, x->target, rc);
  return rc;
}

static void exec_free(exec_run *x) {
  if (x->root.len)
    cgofuzz_dir_remove_all((char *)x->root.data);
  cgofuzz_coord_free_discovery(&x->disc);
  free(x->target);
  free(x->av);
  free(x->env);
  cgofuzz_buf *bufs[] = {&x->root, &x->cache, &x->recs, &x->tail,
                         &x->e1,   &x->fz,    &x->cd,   &x->ft,
                         &x->mt,   &x->par,   &x->vb,   &x->ca};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
  free_args(x->a);
}

/* Fuzzing under go test -exec: returns the exit status, or -1 when the
 * caller is to exec the binary after all. Frees a. */
static int exec_fuzz(const char *binary, exec_args *a) {
  static int (*const steps[])(exec_run *) = {
      exec_make_dirs, exec_coordinator_args, exec_coordinator,
      exec_fuzz_target};
  /* Without a cache directory the binary refuses -test.fuzz with its own
   * usage message: let it say so. */
  if (!a->cachedir || !*a->cachedir) {
    free_args(a);
    return -1; /* the caller execs the binary */
  }
  exec_run x;
  memset(&x, 0, sizeof x);
  x.binary = binary;
  x.a = a;
  x.pass_st = -1;
  int rc = CLI_GO_ON;
  for (size_t i = 0; rc == CLI_GO_ON && i < sizeof steps / sizeof *steps; i++)
    rc = steps[i](&x);
  exec_free(&x);
  return x.pass_st >= 0 ? cli_exit_like(x.pass_st) : rc;
}

/* The -panic-on list among a's own flags (the last one given), or NULL. */
static const char *panic_on(const exec_args *a) {
  const char *list = NULL;
  for (size_t i = 0; i < a->nown; i++)
    if (strncmp(a->own[i], "-panic-on=", 10) == 0)
      list = a->own[i] + 10;
  return list;
}

/* Whether -goleaks is among a's own flags (-goleaks=false: not). */
static bool goleaks(const exec_args *a) {
  bool on = false;
  for (size_t i = 0; i < a->nown; i++)
    if (strncmp(a->own[i], "-goleaks", 8) == 0 &&
        (a->own[i][8] == 0 || a->own[i][8] == '='))
      on = a->own[i][8] == 0 || strcmp(a->own[i] + 9, "true") == 0 ||
           strcmp(a->own[i] + 9, "1") == 0;
  return on;
}

/* A run that is not fuzzing under -panic-on (CGOFUZZ_FLAGS or -args; go
 * test -run re-running what such a run found): *cp gets a copy of the
 * binary in which the functions' calls panic, as in the fuzzing workers
 * (gobin_patch.h), for the caller to run instead; without -panic-on it is
 * left empty. 0, or 1 with the list refused (said on stderr), -1 out of
 * memory. */
static int exec_traps(const char *binary, exec_args *a,
                      cgofuzz_gobin_copy *cp) {
  memset(cp, 0, sizeof *cp);
  cp->mfd = -1;
  int e = env_flags(a);
  const char *list = e == 0 ? panic_on(a) : NULL;
  if (e != 0 || !list || !*list)
    return e > 0 ? 1 : e;
  char **names;
  size_t n;
  if (cgofuzz_gobin_traps_split(list, &names, &n) != 0)
    return -1;
  cgofuzz_buf out = {0};
  cgofuzz_err err = {0};
  cgofuzz_gobin_traps t = {(const char *const *)names, n};
  cgofuzz_gobin_patched info = {0};
  int rc = 0;
  if (cgofuzz_gobin_copy_path(cp, binary, "cgofuzz-traps", false, &out, &err) !=
          0 ||
      cgofuzz_gobin_patch(binary, cgofuzz_buf_cstr(&out), 0, 0, 0, &t, &info,
                          &err) != 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", binary, err.msg);
    cgofuzz_gobin_copy_free(cp);
    rc = 1;
  } else {
    /* go test shows it above the failure: a nil dereference or SIGTRAP */
    fprintf(stderr,
            "cgofuzz: -panic-on: a call of %s panics (the run's binary is a "
            "copy whose entr%s fault%s at 0x%x and up: a nil dereference "
            "there is that call; an inlined call ends in SIGTRAP)\n",
            list, n == 1 ? "y" : "ies", n == 1 ? "s" : "", CGOFUZZ_TRAP_ADDR);
  }
  cgofuzz_gobin_patched_free(&info);
  cgofuzz_buf_free(&out);
  cgofuzz_gobin_traps_free(names, n);
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
  /* Not fuzzing: the binary, as if run directly, cgofuzz's flags out;
   * under -panic-on, its trapping copy. */
  cgofuzz_gobin_copy traps;
  int e = exec_traps(binary, &a, &traps);
  if (e != 0) {
    free_args(&a);
    return e < 0 ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
  }
  const char *run = traps.path ? traps.path : binary;
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
  if (goleaks(&a)) { /* the run, then the leak checks of what it ran */
    cgofuzz_spawn sp = {.path = run,
                        .argv = av,
                        .stdout_fd = 1,
                        .stderr_fd = 2,
                        .reset_signals = true};
    pid_t pid = cgofuzz_spawn_start(&sp);
    int st = pid > 0 ? cgofuzz_spawn_wait(pid, -1, NULL) : -1;
    int rc = pid <= 0  ? CLI_EXIT_FAIL
             : st == 0 ? cli_goleaks_rerun(binary, a.bin, a.nbin)
                       : cli_exit_like(st);
    if (pid <= 0)
      fprintf(stderr, "cgofuzz: cannot run %s: %s\n", binary, strerror(errno));
    cgofuzz_gobin_copy_free(&traps);
    free(av);
    free_args(&a);
    return rc;
  }
  execv(run, av);
  fprintf(stderr, "cgofuzz: cannot run %s: %s\n", binary, strerror(errno));
  cgofuzz_gobin_copy_free(&traps);
  free(av);
  free_args(&a);
  return CLI_EXIT_FAIL;
}

/*
 * coord_death.c: why a worker process died, in words, from what is known
 * of it: its wait status, whether the coordinator itself stopped it (a
 * hang, a resident set over the limit), whether the kernel's OOM killer
 * ran meanwhile, and the tail of its stderr (coord_worker.c keeps it).
 *
 * Go's coordinator says "fuzzing process hung or terminated unexpectedly"
 * and nothing more (golang/go 47572, 56238); the worker's stderr, where the
 * runtime wrote "panic: deadlocked!" or "fatal error: concurrent map
 * writes", goes to /dev/null. Here the message names the class of the
 * death first, keeps Go's own line second (tools and people grep for it),
 * then quotes the report found in the tail (its header and a bounded
 * number of lines; from a Go goroutine dump, the goroutine that was
 * running the fuzz function) and a hint on reproducing it.
 *
 * Pure: no I/O, no globals; tests/unit/test_death.cc drives it directly.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "coord_internal.h"
#include "coord_worker.h"
#include "os.h"
#include "text.h"

#define EXCERPT_LINES 32  /* lines quoted from a report */
#define EXCERPT_WIDTH 300 /* bytes per quoted line */

/* What a line at the start of a report says. */
enum {
  H_NONE,
  H_PANIC,     /* "panic: " (Go) */
  H_DEADLOCK,  /* "panic: deadlocked!": Go's worker's own 10 s timer */
  H_FATAL,     /* "fatal error: " (Go runtime throw) */
  H_GO_OOM,    /* "fatal error: runtime: out of memory" */
  H_GO_SIGNAL, /* "SIGSEGV: segmentation violation", "SIGQUIT: quit" */
  H_SANITIZER, /* "==N==ERROR: AddressSanitizer", UBSan "runtime error:" */
  H_LEAK,      /* "==N==ERROR: LeakSanitizer: detected memory leaks" */
  H_C_HANG,    /* a C worker's watchdog (worker_watchdog.c), libFuzzer's */
  H_C_OOM,
};

/* Where the OOM kill count comes from, for messages. */
static const char *oom_source(void) {
  const char *s = cgofuzz_os_oom_kills_source();
  return s ? s : "the OOM kill count";
}

static bool has_prefix(const char *p, size_t n, const char *pre) {
  size_t k = strlen(pre);
  return n >= k && memcmp(p, pre, k) == 0;
}

static bool contains(const char *p, size_t n, const char *needle) {
  return cgofuzz_text_find((const uint8_t *)p, n, needle, strlen(needle));
}

static int header_kind(const char *p, size_t n) {
  if (has_prefix(p, n, "panic: deadlocked!"))
    return H_DEADLOCK;
  if (has_prefix(p, n, "panic: "))
    return H_PANIC;
  if (has_prefix(p, n, "fatal error: "))
    return contains(p, n, "out of memory") ? H_GO_OOM : H_FATAL;
  if (has_prefix(p, n, "cgofuzz: exec timed out"))
    return H_C_HANG;
  if (has_prefix(p, n, "cgofuzz: out of memory"))
    return H_C_OOM;
  if (has_prefix(p, n, "==")) { /* "==PID==ERROR: ..." */
    if (contains(p, n, "libFuzzer: timeout"))
      return H_C_HANG;
    if (contains(p, n, "libFuzzer: out-of-memory") ||
        contains(p, n, "rss limit exhausted")) /* hard_rss_limit_mb */
      return H_C_OOM;
    if (contains(p, n, "ERROR: LeakSanitizer"))
      return H_LEAK;
    if (contains(p, n, "ERROR: ") || contains(p, n, "WARNING: "))
      return contains(p, n, "Sanitizer") ? H_SANITIZER : H_NONE;
    return H_NONE;
  }
  if (has_prefix(p, n, "WARNING: MemorySanitizer") ||
      has_prefix(p, n, "WARNING: ThreadSanitizer") ||
      contains(p, n, ": runtime error: "))
    return H_SANITIZER;
  /* Go's report of a signal it did not turn into a panic. */
  if (n > 5 && has_prefix(p, n, "SIG") && contains(p, n, ": ")) {
    size_t i = 3;
    while (i < n && p[i] >= 'A' && p[i] <= 'Z')
      i++;
    if (i > 3 && i + 1 < n && p[i] == ':' && p[i + 1] == ' ')
      return H_GO_SIGNAL;
  }
  return H_NONE;
}

/* The last report header in the tail: its offset and kind (H_NONE if
 * there is none). */
static int find_header(const char *t, size_t n, size_t *at) {
  int kind = H_NONE;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && t[j] != '\n')
      j++;
    int k = header_kind(t + i, j - i);
    if (k != H_NONE) {
      kind = k;
      *at = i;
    }
    i = j + 1;
  }
  return kind;
}

/* Appends up to max lines of t[from, n) to b, each indented by two spaces
 * and cut at EXCERPT_WIDTH; says how many were left out. */
static void quote_lines(cgofuzz_buf *b, const char *t, size_t n, size_t from,
                        size_t max) {
  size_t shown = 0, left = 0;
  for (size_t i = from; i < n;) {
    size_t j = i;
    while (j < n && t[j] != '\n')
      j++;
    if (shown < max) {
      size_t len = j - i;
      cgofuzz_buf_puts(b, "  ");
      cgofuzz_buf_append(b, t + i, len > EXCERPT_WIDTH ? EXCERPT_WIDTH : len);
      cgofuzz_buf_puts(b, len > EXCERPT_WIDTH ? " ...\n" : "\n");
      shown++;
    } else {
      left++;
    }
    i = j + 1;
  }
  if (left)
    cgofuzz_buf_printf(b, "  ... (%zu more lines)\n", left);
}

/* In a Go goroutine dump after the header at `at`: the block ("goroutine N
 * [...]:" up to a blank line) of the goroutine that called the fuzz
 * function (through reflect, from testing's F.Fuzz). */
static bool fuzz_goroutine(const char *t, size_t n, size_t at, size_t *from,
                           size_t *to) {
  for (size_t i = at; i < n;) {
    size_t j = i;
    while (j < n && t[j] != '\n')
      j++;
    if (has_prefix(t + i, j - i, "goroutine ")) {
      size_t end = j;
      while (end < n) { /* up to the next blank line */
        size_t k = end + 1;
        if (k >= n || t[k] == '\n')
          break;
        while (k < n && t[k] != '\n')
          k++;
        end = k;
      }
      if (contains(t + i, end - i, "reflect.Value.call") &&
          contains(t + i, end - i, "testing.(*F).Fuzz")) {
        *from = i;
        *to = end;
        return true;
      }
      j = end;
    }
    i = j + 1;
  }
  return false;
}

/* The start of the (up to) max non-blank lines that end right at `at`. */
static size_t lines_before(const char *t, size_t at, size_t max) {
  size_t from = at;
  while (max-- && from > 1 && t[from - 1] == '\n' && t[from - 2] != '\n') {
    size_t i = from - 1;
    while (i > 0 && t[i - 1] != '\n')
      i--;
    from = i;
  }
  return from;
}

static void quote_report(cgofuzz_buf *b, const char *t, size_t n, int kind,
                         size_t at) {
  size_t eol = at;
  while (eol < n && t[eol] != '\n')
    eol++;
  size_t from, to;
  bool dump = kind == H_DEADLOCK || kind == H_FATAL || kind == H_GO_SIGNAL ||
              kind == H_PANIC || kind == H_GO_OOM;
  if (dump && fuzz_goroutine(t, n, eol, &from, &to)) {
    cgofuzz_buf_puts(b, "its stderr ended with this report (the goroutine "
                        "running the fuzz function shown):\n");
    /* What C code said as it died (an assert's message, glibc's "free():
     * invalid pointer") comes right before Go's signal report. */
    size_t said = kind == H_GO_SIGNAL ? lines_before(t, at, 2) : at;
    quote_lines(b, t, at, said, 2);
    quote_lines(b, t, eol, at, 1);
    quote_lines(b, t, to, from, EXCERPT_LINES);
    return;
  }
  cgofuzz_buf_puts(b, "its stderr ended with this report:\n");
  quote_lines(b, t, n, at, EXCERPT_LINES);
}

/* The last few lines of a tail without a report. */
static void quote_tail(cgofuzz_buf *b, const char *t, size_t n) {
  size_t lines = 0, i = n;
  while (n && t[n - 1] == '\n')
    i = --n;
  while (i > 0 && lines < 8)
    if (t[--i] == '\n')
      lines++;
  if (i > 0 || (n && t[0] == '\n'))
    i++;
  if (n == 0)
    return;
  cgofuzz_buf_puts(b, "its stderr ended with:\n");
  quote_lines(b, t, n, i, 8);
}

static const char *sig_name(int sig) {
  static const struct {
    int sig;
    const char *name;
  } names[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
               {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
               {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
               {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
               {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
               {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].sig == sig)
      return names[i].name;
  return "an unnamed signal";
}

/* "2s", "1.5s", "250ms" for a timeout. */
static void put_dur(cgofuzz_buf *b, int64_t ns) {
  if (ns % 1000000000 == 0)
    cgofuzz_buf_printf(b, "%llds", (long long)(ns / 1000000000));
  else
    cgofuzz_buf_printf(b, "%lldms", (long long)(ns / 1000000));
}

static const char *class_name(int cls) {
  switch (cls) {
  case CGOFUZZ_COORD_DEATH_HANG:
    return "hang";
  case CGOFUZZ_COORD_DEATH_OOM:
    return "out of memory";
  case CGOFUZZ_COORD_DEATH_PANIC:
    return "Go panic";
  case CGOFUZZ_COORD_DEATH_FATAL:
    return "Go fatal error";
  case CGOFUZZ_COORD_DEATH_SANITIZER:
    return "sanitizer report";
  case CGOFUZZ_COORD_DEATH_LEAK:
    return "memory leak";
  case CGOFUZZ_COORD_DEATH_SIGNAL:
    return "killed by signal";
  case CGOFUZZ_COORD_DEATH_EXIT:
    return "exit";
  case CGOFUZZ_COORD_DEATH_EXTERNAL:
    return "stopped from outside";
  default:
    return "none";
  }
}

const char *cgofuzz_coord_death_class_name(int cls) { return class_name(cls); }

/* The value of the lower-case hex digits at t (at most 16), in *v; the
 * number of digits read. */
static size_t hex_at(const char *t, size_t n, uint64_t *v) {
  size_t i = 0;
  int d;
  *v = 0;
  for (; i < n && i < 16 && (d = cgofuzz_hexval(t[i])) >= 0; i++)
    *v = *v << 4 | (uint64_t)d;
  return i;
}

/* Where the last report's "signal arrived during cgo execution" line
 * begins (at its newline), n when there is none. */
static size_t cgo_signal_at(const uint8_t *tail, size_t n) {
  static const char cgo[] = "\nsignal arrived during cgo execution";
  size_t k = sizeof cgo - 1, at = n;
  for (size_t i = 0; tail && i + k <= n; i++)
    if (memcmp(tail + i, cgo, k) == 0)
      at = i;
  return at;
}

bool cgofuzz_coord_death_cgo_pc(const uint8_t *tail, size_t n, uint64_t *pc) {
  const char *t = (const char *)tail;
  size_t at = cgo_signal_at(tail, n);
  if (at == n)
    return false;
  /* The line before: "PC=0x5b93f9 m=0 sigcode=1 addr=0x0". */
  size_t b = at;
  while (b > 0 && t[b - 1] != '\n')
    b--;
  if (!has_prefix(t + b, at - b, "PC=0x"))
    return false;
  uint64_t v;
  if (!hex_at(t + b + 5, at - b - 5, &v))
    return false;
  *pc = v;
  return true;
}

bool cgofuzz_coord_death_c_frame_line(const uint8_t *line, size_t n) {
  const uint8_t *pc = cgofuzz_text_find(line, n, "pc=0x", 5);
  return pc && (pc == line || pc[-1] == ' ') &&
         !cgofuzz_text_find(line, n, "fp=", 3) &&
         !cgofuzz_text_find(line, n, " +0x", 4);
}

size_t cgofuzz_coord_death_cgo_callers(const uint8_t *tail, size_t n,
                                       uint64_t *pcs, size_t max) {
  const char *t = (const char *)tail;
  size_t at = cgo_signal_at(tail, n), got = 0;
  /* The first goroutine's frames follow, each a name line and a
   * tab-indented line; the C frames end at the first Go frame. */
  for (size_t b = at + 1; b < n && got < max;) {
    size_t e = b;
    while (e < n && t[e] != '\n')
      e++;
    const uint8_t *line = tail + b + 1, *pc;
    if (e - b > 1 && t[b] == '\t') {
      if (!cgofuzz_coord_death_c_frame_line(line, e - b - 1))
        break;
      pc = cgofuzz_text_find(line, e - b - 1, "pc=0x", 5);
      uint64_t v;
      if (hex_at((const char *)pc + 5, (size_t)(tail + e - pc - 5), &v))
        pcs[got++] = v;
    }
    b = e + 1;
  }
  return got;
}

/* How a recorded hang (cls) or memory blow-up reproduces, as a hint. */
static void put_hint(cgofuzz_buf *msg, int cls, int64_t timeout) {
  if (cls == CGOFUZZ_COORD_DEATH_HANG) {
    int64_t secs = (timeout + 999999999) / 1000000000;
    cgofuzz_buf_printf(
        msg,
        "a hang reproduces as a test timeout: add -timeout=%llds "
        "to the command below (-test.timeout=%llds for a test "
        "binary)\n",
        (long long)(secs + 5), (long long)(secs + 5));
  } else if (cls == CGOFUZZ_COORD_DEATH_OOM) {
    cgofuzz_buf_puts(
        msg, "a memory blow-up may need a limit to show as a failure: run "
             "the command below under `ulimit -v` (e.g. (ulimit -v 2000000; "
             "go test ...), in KiB), so that allocation fails; GOMEMLIMIT "
             "only makes Go's garbage collector work harder; a C target "
             "under ASan: ASAN_OPTIONS=hard_rss_limit_mb=N\n");
  }
}

int cgofuzz_coord_death_explain(const cgofuzz_coord_death *d, cgofuzz_buf *msg,
                                bool *record) {
  const char *t = (const char *)d->tail;
  size_t n = d->tail ? d->tail_len : 0;
  size_t at = 0;
  int kind = find_header(t, n, &at);
  int st = d->status;
  bool sig = WIFSIGNALED(st);
  int signo = sig ? WTERMSIG(st) : 0;
  char sts[160];
  cgofuzz_coord_wait_status_string(st, sts, sizeof sts);
  int64_t timeout = d->timeout_ns > 0 ? d->timeout_ns : 10LL * 1000000000;
  int cls;
  *record = true;

  /* 1. The headline: the class, and what tells it. */
  if (d->stopped_for == CGOFUZZ_COORD_DEATH_HANG) {
    cls = CGOFUZZ_COORD_DEATH_HANG;
    cgofuzz_buf_puts(msg, "fuzzing process hung: no progress for ");
    put_dur(msg, timeout);
    cgofuzz_buf_puts(msg, " on one input (-fuzztimeout); cgofuzz stopped it");
    if (kind == H_DEADLOCK)
      cgofuzz_buf_puts(msg, "; Go's own timer reported: panic: deadlocked!");
    cgofuzz_buf_putc(msg, '\n');
  } else if (d->stopped_for == CGOFUZZ_COORD_DEATH_OOM) {
    cls = CGOFUZZ_COORD_DEATH_OOM;
    cgofuzz_buf_printf(msg,
                       "fuzzing process out of memory: resident set %lld MiB, "
                       "above -fuzzrsslimitmb=%lld; cgofuzz stopped it\n",
                       (long long)d->rss_mb, (long long)d->rss_limit_mb);
  } else if (kind == H_DEADLOCK || kind == H_C_HANG) {
    cls = CGOFUZZ_COORD_DEATH_HANG;
    if (kind == H_DEADLOCK)
      cgofuzz_buf_puts(msg, "fuzzing process hung: Go's worker gave up on one "
                            "input (its own timer, 10s before go1.27: panic: "
                            "deadlocked!)\n");
    else
      cgofuzz_buf_puts(msg, "fuzzing process hung: its watchdog stopped an "
                            "input that ran over its time limit\n");
  } else if (kind == H_GO_OOM || kind == H_C_OOM) {
    cls = CGOFUZZ_COORD_DEATH_OOM;
    cgofuzz_buf_puts(msg, kind == H_GO_OOM
                              ? "fuzzing process out of memory: the Go "
                                "runtime could not allocate\n"
                              : "fuzzing process out of memory: its watchdog "
                                "saw the resident set above its limit\n");
  } else if (sig && signo == SIGKILL && d->oom_kills > 0) {
    /* The OOM killer takes the largest process when the machine runs
     * short, which may be a worker whose input is innocent while other
     * programs fill the memory: recorded only when the input, run again
     * alone, dies again (coord_resp.c killed_from_outside). */
    cls = CGOFUZZ_COORD_DEATH_OOM;
    *record = d->reproduced;
    cgofuzz_buf_printf(msg,
                       "fuzzing process killed by signal 9 (SIGKILL) while "
                       "the kernel's OOM killer ran (%s rose by %lld): out of "
                       "memory%s\n",
                       oom_source(), (long long)d->oom_kills,
                       d->reproduced ? "; the input died again when run "
                                       "alone, so it is recorded"
                                     : "");
  } else if (kind == H_LEAK) {
    cls = CGOFUZZ_COORD_DEATH_LEAK;
    cgofuzz_buf_puts(msg, "fuzzing process found a memory leak: the input "
                          "allocated memory it did not free "
                          "(LeakSanitizer)\n");
  } else if (kind == H_SANITIZER) {
    cls = CGOFUZZ_COORD_DEATH_SANITIZER;
    cgofuzz_buf_puts(msg, "fuzzing process crashed: sanitizer report\n");
  } else if (kind == H_FATAL) {
    cls = CGOFUZZ_COORD_DEATH_FATAL;
    cgofuzz_buf_puts(msg, "fuzzing process crashed: Go fatal error\n");
  } else if (kind == H_PANIC) {
    cls = CGOFUZZ_COORD_DEATH_PANIC;
    cgofuzz_buf_puts(msg, "fuzzing process crashed: Go panic (not recovered "
                          "by the fuzz function's goroutine)\n");
  } else if (sig && !cgofuzz_coord_is_crash_signal(signo)) {
    cls = CGOFUZZ_COORD_DEATH_EXTERNAL;
    *record = d->reproduced;
    cgofuzz_buf_printf(msg, "fuzzing process killed by signal %d (%s)", signo,
                       sig_name(signo));
    if (signo == SIGKILL)
      cgofuzz_buf_printf(msg,
                         d->oom_kills == 0
                             ? ", not by the kernel's OOM killer (%s did not "
                               "move)"
                             : ", possibly by the kernel's OOM killer",
                         oom_source());
    if (d->reproduced)
      cgofuzz_buf_puts(msg, "; the input did it again when re-run alone, "
                            "so it is the input's doing and is recorded");
    cgofuzz_buf_putc(msg, '\n');
  } else if (sig) {
    cls = CGOFUZZ_COORD_DEATH_SIGNAL;
    cgofuzz_buf_printf(msg, "fuzzing process killed by signal %d (%s)%s\n",
                       signo, sig_name(signo),
                       kind == H_GO_SIGNAL ? "" : " with no report");
  } else if (WIFEXITED(st)) {
    cls = CGOFUZZ_COORD_DEATH_EXIT;
    cgofuzz_buf_printf(
        msg, "fuzzing process exited with status %d%s\n", WEXITSTATUS(st),
        kind == H_GO_SIGNAL ? ""
                            : " and no report (os.Exit or exit() in the "
                              "code under test?)");
  } else {
    cls = CGOFUZZ_COORD_DEATH_SIGNAL;
    cgofuzz_buf_printf(msg, "fuzzing process ended: %s\n", sts);
  }

  /* 2. Go's own line. */
  if (!*record)
    cgofuzz_buf_printf(msg,
                       "fuzzing process terminated by unexpected signal; no "
                       "crash will be recorded: %s\n",
                       sts);
  else
    cgofuzz_buf_printf(
        msg, "fuzzing process hung or terminated unexpectedly: %s\n", sts);

  /* 3. The report. */
  if (d->c_frame)
    cgofuzz_buf_printf(msg,
                       "the signal came in C code, in %s (by the "
                       "binary's symbol table)\n",
                       d->c_frame);
  if (kind != H_NONE)
    quote_report(msg, t, n, kind, at);
  else
    quote_tail(msg, t, n);

  /* 4. How it reproduces. */
  if (*record)
    put_hint(msg, cls, timeout);
  if (msg->len && msg->data[msg->len - 1] == '\n')
    msg->len--; /* the failure block adds its own */
  return cls;
}

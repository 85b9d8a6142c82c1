/*
 * coord_min.c: minimization jobs and failure records of the coordinator.
 *
 * Invariants: jobs[0..n_jobs) are pending, crashers before interesting
 * inputs; only jobs[0] ever has a Minimize call in flight (job_running),
 * on one worker, so the other workers keep fuzzing. A job's data is always
 * a value known to fail (crasher) or to hit one of its keep bits
 * (interesting), so it can be written whenever the run stops. The mask was
 * already merged when an interesting job was queued.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "coord_internal.h"
#include "file.h"
#include "gobin_discover.h"
#include "scratch.h"

bool cgofuzz_coord_can_minimize(coord *c) {
  if (c->cfg->minimize_off)
    return false;
  if (c->cfg->fuzz_count && c->count + c->outstanding >= c->cfg->fuzz_count)
    return false;
  for (size_t i = 0; i < c->cfg->n_kinds; i++)
    if (c->cfg->kinds[i] == CGOFUZZ_BYTES || c->cfg->kinds[i] == CGOFUZZ_STRING)
      return true;
  return false;
}

int64_t cgofuzz_coord_min_allowance(const coord *c, int64_t now_ms) {
  int64_t spent_ns = (now_ms - c->start_ms) * 1000000 * (int64_t)c->np;
  return spent_ns / MIN_SHARE - c->min_ns;
}

/* Appends s to b quoted for a POSIX shell when it holds anything but
 * [A-Za-z0-9_./:=+,@%-] (in single quotes, a quote as '\''). */
static void put_sh(cgofuzz_buf *b, const char *s) {
  bool plain = *s != '\0';
  for (const char *p = s; *p && plain; p++)
    plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("_./:=+,@%-", *p);
  if (plain) {
    cgofuzz_buf_puts(b, s);
    return;
  }
  cgofuzz_buf_putc(b, '\'');
  for (const char *p = s; *p; p++)
    if (*p == '\'')
      cgofuzz_buf_puts(b, "'\\''");
    else
      cgofuzz_buf_putc(b, *p);
  cgofuzz_buf_putc(b, '\'');
}

/* Whether the binary is a C target (cgofuzz's runtime, clang's counters)
 * rather than a Go test binary: `go test` cannot re-run its failures, the
 * binary itself can (from the directory holding testdata/). */
static bool c_target(coord *c) {
  return cgofuzz_gobin_go_counters(c->cfg->binary) == 0 &&
         cgofuzz_gobin_section_size(c->cfg->binary, "__sancov_cntrs") > 0;
}

/* The directory paths and commands are shown from (display_dir in
 * coord.h), or NULL: the run's own. */
static const char *shown_dir(const coord *c, bool display) {
  const char *d = c->cfg->display_dir;
  return display && d && *d && strcmp(d, ".") != 0 ? d : NULL;
}

/* Appends path as named from dir (NULL: as it is). */
static void put_path(cgofuzz_buf *b, const char *dir, const char *path) {
  if (dir && path[0] != '/')
    cgofuzz_buf_printf(b, "%s/", dir);
  cgofuzz_buf_puts(b, path);
}

/* A command line that runs in the run's directory, from dir (NULL: the
 * run's own directory): in a subshell that changes to it. */
static void cmd_open(cgofuzz_buf *b, const char *dir) {
  if (!dir)
    return;
  cgofuzz_buf_puts(b, "(cd ");
  put_sh(b, dir);
  cgofuzz_buf_puts(b, " && ");
}
static void cmd_close(cgofuzz_buf *b, const char *dir) {
  cgofuzz_buf_puts(b, dir ? ")\n" : "\n");
}

/* Appends go test's command that re-runs corpus file base of target t;
 * under -panic-on the failure needs the trapping copy, which cgofuzz
 * makes when go test runs the binary through it with the same list; a
 * race replay's needs -race (c->rerun_flags), a goroutine leak cgofuzz's
 * check (c->rerun_cgofuzz). */
static void put_go_test(cgofuzz_buf *b, const coord *c, const char *t,
                        const char *base) {
  const char *traps = c->cfg->panic_on;
  bool own = (traps && *traps) || c->rerun_cgofuzz;
  if (own) {
    cgofuzz_buf v = {0};
    cgofuzz_buf_puts(&v, "CGOFUZZ_FLAGS=");
    if (traps && *traps)
      cgofuzz_buf_printf(&v, "-panic-on=%s%s", traps,
                         c->rerun_cgofuzz ? " " : "");
    if (c->rerun_cgofuzz)
      cgofuzz_buf_puts(&v, c->rerun_cgofuzz);
    put_sh(b, cgofuzz_buf_cstr(&v));
    cgofuzz_buf_free(&v);
    cgofuzz_buf_putc(b, ' ');
  }
  cgofuzz_buf_puts(b, "go test ");
  if (c->rerun_flags)
    cgofuzz_buf_printf(b, "%s ", c->rerun_flags);
  cgofuzz_buf_printf(b, "-run=%s/%s", t, base);
  if (own)
    cgofuzz_buf_puts(b, " -exec=cgofuzz");
}

void cgofuzz_coord_repro(coord *c, const char *path, bool display,
                         cgofuzz_buf *out) {
  const char *t = c->cfg->target;
  const char *dir = shown_dir(c, display);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t tl = strlen(c->testdata_dir);
  bool in_testdata = strncmp(path, c->testdata_dir, tl) == 0 &&
                     path[tl] == '/' && !strchr(path + tl + 1, '/');
  bool is_c = c_target(c);
  if (in_testdata && !is_c && dir && c->cfg->display_pkg) {
    put_go_test(out, c, t, base);
    cgofuzz_buf_putc(out, ' ');
    put_sh(out, c->cfg->display_pkg);
    cgofuzz_buf_putc(out, '\n');
    return;
  }
  cmd_open(out, dir);
  if (in_testdata) {
    if (is_c) {
      put_sh(out, c->cfg->binary);
      cgofuzz_buf_printf(out, " -test.run=%s/%s", t, base);
    } else {
      put_go_test(out, c, t, base);
    }
    cmd_close(out, dir);
    return;
  }
  /* Not in testdata/fuzz/<Target>, where the test binary looks: give the
   * binary a directory of its own that has that layout. */
  cgofuzz_buf_printf(out,
                     "d=$(mktemp -d) && mkdir -p \"$d/testdata/fuzz/%s\" && "
                     "cp ",
                     t);
  put_sh(out, path);
  cgofuzz_buf_printf(out, " \"$d/testdata/fuzz/%s/\" && cd \"$d\" && ", t);
  put_sh(out, c->cfg->binary);
  cgofuzz_buf_printf(out, " -test.run=%s/%s", t, base);
  cmd_close(out, dir);
  if (!is_c) {
    cmd_open(out, dir);
    cgofuzz_buf_printf(out, "mkdir -p %s && cp ", c->testdata_dir);
    put_sh(out, path);
    cgofuzz_buf_printf(out, " %s/ && ", c->testdata_dir);
    put_go_test(out, c, t, base);
    cmd_close(out, dir);
  }
}

/* Appends Go's failure block for msg (and the written file) to b: every
 * line of the error indented by 4 spaces, as testing prints it. A file in
 * testdata gets Go's two re-run lines; one that went to a fallback
 * directory gets a command that works from there (and, for a Go binary,
 * the one that works once it is copied back). */
void cgofuzz_coord_fail_block(coord *c, cgofuzz_buf *b, const char *msg,
                              size_t len, const char *path) {
  double secs = (double)(cgofuzz_mono_ms() - c->start_ms) / 1000.0;
  cgofuzz_buf_printf(b, "%s--- FAIL: %s (%.2fs)\n",
                     c->cfg->json_marks ? "\x16" : "", c->cfg->target, secs);
  cgofuzz_buf txt = {0};
  cgofuzz_buf_append(&txt, msg, len);
  cgofuzz_buf_putc(&txt, '\n');
  if (path) {
    const char *dir = shown_dir(c, c->cfg->display_block);
    cgofuzz_buf r = {0};
    cgofuzz_coord_repro(c, path, c->cfg->display_block, &r);
    const char *nl = memchr(r.data, '\n', r.len);
    size_t first = nl ? (size_t)(nl - (const char *)r.data) + 1 : r.len;
    cgofuzz_buf_puts(&txt, "Failing input written to ");
    put_path(&txt, dir, path);
    if (first == r.len) {
      cgofuzz_buf_puts(&txt, "\nTo re-run:\n");
      cgofuzz_buf_append(&txt, r.data, r.len);
    } else {
      cgofuzz_buf_puts(&txt, "\nTo re-run (");
      put_path(&txt, dir, c->testdata_dir);
      cgofuzz_buf_puts(&txt, " could not be written), in a directory of its "
                             "own:\n");
      cgofuzz_buf_append(&txt, r.data, first);
      cgofuzz_buf_puts(&txt, "or, once ");
      put_path(&txt, dir, c->testdata_dir);
      cgofuzz_buf_puts(&txt, " can be written:\n");
      cgofuzz_buf_append(&txt, r.data + first, r.len - first);
    }
    cgofuzz_buf_free(&r);
  }
  for (size_t i = 0; i < txt.len;) {
    size_t j = i;
    while (j < txt.len && txt.data[j] != '\n')
      j++;
    cgofuzz_buf_puts(b, "    ");
    cgofuzz_buf_append(b, txt.data + i, j - i);
    cgofuzz_buf_putc(b, '\n');
    i = j + 1;
  }
  if (txt.failed) /* the caller sees a block it cannot print whole */
    b->failed = true;
  cgofuzz_buf_free(&txt);
}

static char *dup_n(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    if (n)
      memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

void cgofuzz_coord_report_failure(coord *c, const char *path, const char *msg,
                                  size_t len) {
  cgofuzz_coord_report *r = c->cfg->report;
  if (!r)
    return;
  cgofuzz_coord_failure *f =
      realloc(r->failures, (r->n_failures + 1) * sizeof *f);
  if (!f)
    return;
  r->failures = f;
  f += r->n_failures;
  memset(f, 0, sizeof *f);
  cgofuzz_buf rb = {0}, pb = {0};
  if (path) {
    cgofuzz_coord_repro(c, path, true, &rb);
    put_path(&pb, shown_dir(c, true), path);
    cgofuzz_buf_putc(&pb, 0);
  }
  f->path = pb.data ? strdup((const char *)pb.data) : NULL;
  cgofuzz_buf_free(&pb);
  f->msg = dup_n(msg ? msg : "", msg ? len : 0);
  f->repro = dup_n(rb.len ? (const char *)rb.data : "", rb.len);
  cgofuzz_buf_free(&rb);
  if ((path && !f->path) || !f->msg || !f->repro) {
    free(f->path);
    free(f->msg);
    free(f->repro);
    return;
  }
  r->n_failures++;
}

void cgofuzz_coord_report_free(cgofuzz_coord_report *r) {
  for (size_t i = 0; i < r->n_failures; i++) {
    free(r->failures[i].path);
    free(r->failures[i].msg);
    free(r->failures[i].repro);
  }
  free(r->failures);
  memset(r, 0, sizeof *r);
}

/* Makes dir (0700) or takes the one there if it is private: a directory,
 * not a symlink, owned by this user, writable by no one else. Where anyone
 * may create names ($TMPDIR), a directory someone else made, or one they
 * can write to, would let them read the failing input, or swap the file
 * for a symlink between our write and the user's go test. Returns 0, or
 * -1 with the reason in err. */
static int private_dir(const char *dir, cgofuzz_err *err) {
  struct stat st;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST)
    return cgofuzz_errf(err, 0, "mkdir %s: %s", dir, strerror(errno));
  if (lstat(dir, &st) != 0)
    return cgofuzz_errf(err, 0, "%s: %s", dir, strerror(errno));
  if (S_ISLNK(st.st_mode))
    return cgofuzz_errf(err, 0, "refused %s: it is a symbolic link", dir);
  if (!S_ISDIR(st.st_mode))
    return cgofuzz_errf(err, 0, "refused %s: it is not a directory", dir);
  if (st.st_uid != geteuid())
    return cgofuzz_errf(err, 0,
                        "refused %s: it is owned by uid %u, not by this user "
                        "(uid %u)",
                        dir, (unsigned)st.st_uid, (unsigned)geteuid());
  if (st.st_mode & 022)
    return cgofuzz_errf(err, 0,
                        "refused %s: group or others can write to it (mode "
                        "%04o)",
                        dir, (unsigned)(st.st_mode & 07777));
  return 0;
}

/* Writes a failing input where go test looks for it, or, when that fails
 * (read-only or full disk, testdata/fuzz not a directory), to the first
 * fallback that works: $TMPDIR/cgofuzz-failures/<Target> (both levels
 * private: private_dir), then ./cgofuzz-failures/<Target>. Each failed
 * attempt is reported with its reason. Returns the path written, or NULL
 * when nothing could be written; the input is then printed in full on
 * stderr, so it is never lost. */
static char *write_failure(coord *c, const cgofuzz_buf *data) {
  const char *tmp = cgofuzz_tmpdir();
  const char *t = c->cfg->target;
  /* The target's name becomes a directory's name: only a plain name may
   * (a name from -test.list could hold "../"). */
  bool plain = t && cgofuzz_gobin_target_name_ok(t);
  cgofuzz_buf top = {0}, alt1 = {0}, alt2 = {0};
  cgofuzz_buf_printf(&top, "%s/cgofuzz-failures", tmp);
  cgofuzz_buf_printf(&alt1, "%s/cgofuzz-failures/%s", tmp, plain ? t : "");
  cgofuzz_buf_printf(&alt2, "cgofuzz-failures/%s", plain ? t : "");
  cgofuzz_buf_putc(&top, 0);
  cgofuzz_buf_putc(&alt1, 0);
  cgofuzz_buf_putc(&alt2, 0);
  const char *dirs[] = {c->testdata_dir, (const char *)alt1.data,
                        (const char *)alt2.data};
  const char *shown = shown_dir(c, c->cfg->display_block);
  char *path = NULL;
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !path; i++) {
    cgofuzz_err err = {0};
    if (!dirs[i])
      continue;
    bool rel = shown && dirs[i][0] != '/';
    if (i > 0 && !plain) {
      fprintf(stderr,
              "cgofuzz: could not write the failing input to %s%s%s: the "
              "target's name \"%s\" is not a plain name\n",
              rel ? shown : "", rel ? "/" : "", dirs[i], t ? t : "");
      continue;
    }
    if ((i == 1 && (private_dir((const char *)top.data, &err) != 0 ||
                    private_dir(dirs[i], &err) != 0)) ||
        cgofuzz_coord_corpus_write_v(dirs[i], data->data, data->len,
                                     coord_gover(c->cfg), 0, &path,
                                     &err) != 0) {
      path = NULL;
      fprintf(stderr,
              "cgofuzz: could not write the failing input to %s%s%s: %s\n",
              rel ? shown : "", rel ? "/" : "", dirs[i], err.msg);
    } else if (i > 0) {
      fprintf(stderr,
              "cgofuzz: the failing input was written to %s%s%s instead; see "
              "\"To re-run\" below for a command that runs it from there\n",
              rel ? shown : "", rel ? "/" : "", path);
    }
  }
  if (!path) {
    fprintf(stderr, "cgofuzz: the failing input could not be written "
                    "anywhere; here it is:\n");
    fwrite(data->data, 1, data->len, stderr);
  }
  fflush(stderr);
  cgofuzz_buf_free(&top);
  cgofuzz_buf_free(&alt1);
  cgofuzz_buf_free(&alt2);
  return path;
}

/* Writes a crasher (see write_failure). Without -fuzzcontinue this ends the
 * run; with it, the failure is printed now and fuzzing goes on. */
static void record_failure(coord *c, const cgofuzz_buf *data,
                           const cgofuzz_buf *msg) {
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    bool go_on = ob->failure && ob->failure(ob->ctx, data->data, data->len,
                                            (const char *)msg->data, msg->len,
                                            c->death_status, &st);
    c->failed = true;
    if (!c->cfg->fuzz_continue || !go_on)
      c->done = true;
    return;
  }
  char *path = write_failure(c, data);
  if (!path) {
    cgofuzz_coord_fail(c, (const char *)msg->data, msg->len);
    return;
  }
  if (!c->cfg->fuzz_continue) {
    free(c->crash_path);
    c->crash_path = path;
    cgofuzz_coord_fail(c, (const char *)msg->data, msg->len);
    return;
  }
  cgofuzz_coord_report_failure(c, path, (const char *)msg->data, msg->len);
  cgofuzz_buf b = {0};
  cgofuzz_coord_fail_block(c, &b, (const char *)msg->data, msg->len, path);
  fflush(stderr);
  fwrite(b.data, 1, b.len, stdout);
  fflush(stdout);
  cgofuzz_buf_free(&b);
  free(path);
  c->failed = true; /* the verdict is FAIL, but the run goes on */
}

void cgofuzz_coord_record_failure(coord *c, const cgofuzz_buf *data,
                                  const cgofuzz_buf *msg) {
  cgofuzz_buf note = {0};
  if (cgofuzz_coord_trap_note(c, (const char *)msg->data, msg->len, &note))
    msg = &note; /* -panic-on: which function was called */
  record_failure(c, data, msg);
  cgofuzz_buf_free(&note);
}

/* Adds a new interesting input to the corpus and the cache. */
void cgofuzz_coord_add_interesting(coord *c, const cgofuzz_buf *data,
                                   const uint8_t *snap) {
  char hex[CGOFUZZ_CODEC_NAME_MAX];
  cgofuzz_codec_name_v(data->data, data->len, coord_gover(c->cfg), hex);
  hex[8] = '\0';
  int added =
      cgofuzz_coord_corpus_add(&c->corpus, data->data, data->len, false, hex);
  if (added != 1)
    return;
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    c->interesting++;
    if (cgofuzz_coord_sched_grow(&c->sched, c->corpus.n, cgofuzz_mono_ms()) ==
            0 &&
        snap)
      cgofuzz_coord_sched_set_cov(&c->sched, c->corpus.n - 1, snap,
                                  c->mask_len);
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (ob->new_input)
      ob->new_input(ob->ctx, data->data, data->len, &st);
    return;
  }
  char *path = NULL;
  cgofuzz_err err = {0};
  /* Not synced (file.h): the run's own death never loses it, and two
   * fsyncs for each new input cost more than the fuzzing where inputs are
   * new a hundred times a second. */
  if (cgofuzz_coord_corpus_write_v(c->cache_dir, data->data, data->len,
                                   coord_gover(c->cfg), CGOFUZZ_FILE_NO_SYNC,
                                   &path, &err) != 0) {
    /* The input stays in the in-memory corpus; only resuming loses it. */
    if (!c->cache_warned)
      fprintf(stderr,
              "cgofuzz: could not write new inputs to the cache (%s); "
              "fuzzing goes on without saving them\n",
              err.msg);
    c->cache_warned = true;
  }
  free(path);
  c->interesting++;
  if (cgofuzz_coord_sched_grow(&c->sched, c->corpus.n, cgofuzz_mono_ms()) ==
          0 &&
      snap)
    cgofuzz_coord_sched_set_cov(&c->sched, c->corpus.n - 1, snap, c->mask_len);
}

void cgofuzz_coord_mjob_free(mjob *j) {
  cgofuzz_buf_free(&j->data);
  cgofuzz_buf_free(&j->msg);
  cgofuzz_buf_free(&j->orig);
  cgofuzz_buf_free(&j->orig_msg);
  free(j->keep);
  free(j->snap);
  memset(j, 0, sizeof *j);
}

/* Ends jobs[0] with its current value, and drops it from the queue. */
void cgofuzz_coord_mjob_finish(coord *c) {
  mjob *j = &c->jobs[0];
  c->job_running = false;
  if (j->crash && j->orig_msg.len) {
    /* Go's minimizer keeps any failing candidate, so one bug's input can
     * shrink into another's ("B..." into "A"): keep the original unless
     * the minimized input still fails at the same site. */
    cgofuzz_buf k1 = {0}, k2 = {0};
    cgofuzz_coord_fail_site((const char *)j->orig_msg.data, j->orig_msg.len,
                            &k1);
    cgofuzz_coord_fail_site((const char *)j->msg.data, j->msg.len, &k2);
    if (k1.len != k2.len || memcmp(k1.data, k2.data, k1.len) != 0) {
      cgofuzz_buf t = j->data;
      j->data = j->orig;
      j->orig = t;
      t = j->msg;
      j->msg = j->orig_msg;
      j->orig_msg = t;
    }
    cgofuzz_buf_free(&k1);
    cgofuzz_buf_free(&k2);
  }
  if (j->crash)
    cgofuzz_coord_record_failure(c, &j->data, &j->msg);
  else
    cgofuzz_coord_add_interesting(c, &j->data, j->snap);
  cgofuzz_coord_mjob_free(j);
  memmove(&c->jobs[0], &c->jobs[1], (c->n_jobs - 1) * sizeof c->jobs[0]);
  c->n_jobs--;
  memset(&c->jobs[c->n_jobs], 0, sizeof c->jobs[0]);
  c->minimizing = !c->cfg->fuzz_continue && c->n_jobs && c->jobs[0].crash;
}

/* Queues a job; a crasher goes before any interesting input. Returns -1 if
 * the queue is full (the caller then uses the value as it is). */
static int push_job(coord *c, mjob *j) {
  if (c->n_jobs == MAX_JOBS) {
    if (!j->crash)
      return -1;
    /* Make room by adding the last interesting input unminimized. */
    mjob *last = &c->jobs[MAX_JOBS - 1];
    if (last->crash)
      return -1;
    cgofuzz_coord_add_interesting(c, &last->data, last->snap);
    cgofuzz_coord_mjob_free(last);
    c->n_jobs--;
  }
  size_t at = c->n_jobs;
  if (j->crash) {
    at = c->job_running ? 1 : 0;
    while (at < c->n_jobs && c->jobs[at].crash)
      at++;
  }
  memmove(&c->jobs[at + 1], &c->jobs[at], (c->n_jobs - at) * sizeof *j);
  c->jobs[at] = *j;
  c->n_jobs++;
  return 0;
}

/* Sends the next Minimize call of jobs[0] to s, or finishes the job when
 * no argument or budget is left. */
void cgofuzz_coord_mjob_step(coord *c, slot *s) {
  mjob *j = &c->jobs[0];
  const cgofuzz_coord_config *cfg = c->cfg;
  while (j->arg < cfg->n_kinds && cfg->kinds[j->arg] != CGOFUZZ_BYTES &&
         cfg->kinds[j->arg] != CGOFUZZ_STRING)
    j->arg++;
  int64_t limit = j->limit;
  if (cfg->fuzz_count) {
    int64_t left = cfg->fuzz_count - c->count - c->outstanding;
    if (!limit || limit > left)
      limit = left;
  }
  if (j->arg >= cfg->n_kinds || (cfg->fuzz_count && limit <= 0) || c->done) {
    cgofuzz_coord_mjob_finish(c);
    return;
  }
  int64_t timeout = j->timeout;
  if (!j->crash) {
    int64_t left = cgofuzz_coord_min_allowance(c, cgofuzz_mono_ms());
    if (left <= 0) { /* the share is spent: kept as it is now */
      cgofuzz_coord_mjob_finish(c);
      return;
    }
    if (left < MIN_FLOOR_NS)
      left = MIN_FLOOR_NS;
    if (!timeout || timeout > left)
      timeout = left;
  }
  if (s->state == W_DOWN && cgofuzz_coord_start_worker(c, s) != 0)
    return;
  cgofuzz_err err = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  h->count = 0;
  h->raw_in_mem = 0;
  if (cgofuzz_coord_set_value(&s->w.mem, j->data.data, j->data.len, &err) !=
      0) {
    cgofuzz_coord_fail(c, err.msg, strlen(err.msg));
    return;
  }
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_MINIMIZE};
  call.minimize.timeout_ns = timeout;
  call.minimize.limit = limit;
  call.minimize.index = (int64_t)j->arg;
  if (j->keep) {
    call.minimize.keep_coverage.has = true;
    call.minimize.keep_coverage.data = j->keep; /* borrowed */
    call.minimize.keep_coverage.len = c->mask_len;
  }
  c->job_running = true;
  cgofuzz_coord_send_call(c, s, &call, W_MIN, limit);
}

void cgofuzz_coord_mjob_on_reply(coord *c, slot *s, const uint8_t *l,
                                 size_t n) {
  mjob *j = &c->jobs[0];
  cgofuzz_minimize_resp r;
  cgofuzz_err err = {0};
  memset(&r, 0, sizeof r);
  s->state = W_IDLE;
  c->outstanding -= s->limit;
  if (cgofuzz_wire_decode_minimize_resp(l, n, &r, &err) != 0) {
    c->job_running = false;
    cgofuzz_coord_failf(c, "communicating with fuzzing process: %s", err.msg);
    return;
  }
  s->deaths = 0;
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  c->count += h->count;
  if (r.wrote_to_mem && !h->raw_in_mem &&
      (size_t)h->value_len <= cgofuzz_shm_value_cap(&s->w.mem)) {
    j->data.len = 0;
    cgofuzz_buf_append(&j->data, cgofuzz_shm_value(&s->w.mem),
                       (size_t)h->value_len);
  }
  if (j->crash && r.err) { /* Go prints the last Minimize's error */
    j->msg.len = 0;
    cgofuzz_buf_append(&j->msg, r.err, r.err_len);
  }
  if (!j->crash && r.duration_ns > 0)
    c->min_ns += r.duration_ns;
  bool out = false;
  if (j->timeout) {
    j->timeout -= r.duration_ns;
    out = j->timeout <= 0;
  }
  if (j->limit) {
    j->limit -= h->count;
    out = out || j->limit <= 0;
  }
  cgofuzz_minimize_resp_free(&r);
  j->arg++;
  if (out)
    cgofuzz_coord_mjob_finish(c);
  else
    cgofuzz_coord_mjob_step(c, s);
}

/* Queues the minimization of a crasher (keep NULL) or of an interesting
 * input, with Go's budget; interesting inputs get at most
 * INTERESTING_MIN_NS so that a slow minimization never holds a worker
 * long. Returns -1 if not queued (the caller keeps the value as it is). */
int cgofuzz_coord_mjob_queue(coord *c, bool crash, const cgofuzz_buf *data,
                             const cgofuzz_buf *msg, const uint8_t *keep,
                             const uint8_t *snap) {
  const cgofuzz_coord_config *cfg = c->cfg;
  mjob j;
  memset(&j, 0, sizeof j);
  j.crash = crash;
  j.timeout = cfg->minimize_ns;
  j.limit = cfg->minimize_count;
  if (!j.limit && cfg->fuzz_count)
    j.limit = crash ? cfg->fuzz_count
                    : (cfg->fuzz_count + (int64_t)c->np - 1) / (int64_t)c->np;
  if (!crash && (!j.timeout || j.timeout > INTERESTING_MIN_NS))
    j.timeout = INTERESTING_MIN_NS;
  if (cgofuzz_buf_append(&j.data, data->data, data->len) != 0 ||
      (msg && cgofuzz_buf_append(&j.msg, msg->data, msg->len) != 0))
    goto oom;
  if (crash && cfg->fuzz_continue &&
      (cgofuzz_buf_append(&j.orig, data->data, data->len) != 0 ||
       cgofuzz_buf_append(&j.orig_msg, msg->data, msg->len) != 0))
    goto oom;
  if (keep) {
    if (!(j.keep = malloc(c->mask_len)) || !(j.snap = malloc(c->mask_len)))
      goto oom;
    memcpy(j.keep, keep, c->mask_len);
    memcpy(j.snap, snap, c->mask_len);
  }
  if (push_job(c, &j) != 0)
    goto oom;
  return 0;
oom:
  cgofuzz_coord_mjob_free(&j);
  return -1;
}

/* -fuzzcontinue: whether a failure with this message was recorded
 * already; remembers it if not. */
bool cgofuzz_coord_seen_failure(coord *c, const char *msg, size_t len) {
  cgofuzz_buf key = {0};
  cgofuzz_coord_fail_site(msg, len, &key);
  char *k = cgofuzz_buf_cstr(&key);
  for (size_t i = 0; i < c->n_fail_keys; i++)
    if (strcmp(c->fail_keys[i], k) == 0) {
      cgofuzz_buf_free(&key);
      return true;
    }
  char **nk = realloc(c->fail_keys, (c->n_fail_keys + 1) * sizeof *nk);
  if (nk) {
    c->fail_keys = nk;
    if ((nk[c->n_fail_keys] = strdup(k)))
      c->n_fail_keys++;
  }
  cgofuzz_buf_free(&key);
  return false;
}

/* Go writes an unminimized crasher when stopped while minimizing. */
void cgofuzz_coord_mjob_flush(coord *c) {
  while (c->n_jobs) {
    if (c->jobs[0].crash && c->fatal && !c->cfg->fuzz_continue) {
      cgofuzz_coord_mjob_free(
          &c->jobs[0]); /* the run failed for another reason */
      memmove(&c->jobs[0], &c->jobs[1], (c->n_jobs - 1) * sizeof c->jobs[0]);
      c->n_jobs--;
      continue;
    }
    cgofuzz_coord_mjob_finish(c);
  }
}

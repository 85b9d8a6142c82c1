/*
 * junit.c: the JUnit XML report of `cgofuzz fuzz -junit FILE`, the format
 * CI systems (Jenkins, GitLab, GitHub actions' reporters) read. Layout
 * (docs/campaigns.md; valid against the Jenkins xUnit plugin's
 * junit-10.xsd, which tests/cli/campaign checks with xmllint):
 *
 *   <testsuites name="cgofuzz fuzz" tests failures errors time>
 *     <testsuite name=BINARY-BASE-NAME package=BINARY-PATH tests failures
 *                errors skipped time timestamp hostname id>
 *       <properties> fuzztime, parallel </properties>
 *       <testcase classname=BINARY-BASE-NAME name=TARGET time=SECONDS>
 *         <failure message=FIRST-LINE type="fuzz">text, file, re-run</failure>
 *           (one per failure written; <error type="fuzz"> for a failure
 *            without a file: a failing seed, no worker started, ...)
 *         <skipped message=.../> (not fuzzed: the run stopped before)
 *         <system-out> the target's figures </system-out>
 *       </testcase>
 *     </testsuite>
 *   </testsuites>
 *
 * Package mode (gopkgs.c): a suite per package, named by its import
 * path; a package that did not build gets a suite whose one case,
 * "[build failed]", is an <error type="build"> holding go's output.
 *
 * Failure texts are the workers' output: any bytes. The writer keeps the
 * document well-formed whatever they hold: invalid UTF-8 and the control
 * characters XML 1.0 forbids become U+FFFD, markup characters are escaped.
 * The file is written atomically (cli_write_file_atomic).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "text.h"

/* Appends s[0..n) escaped for XML text (attr false: newlines, tabs kept
 * as they are) or an attribute value (attr: as character references, so
 * that they survive attribute normalization). */
static void put_xml(cgofuzz_buf *b, const char *s, size_t n, bool attr) {
  const uint8_t *p = (const uint8_t *)s;
  for (size_t i = 0; i < n;) {
    int32_t r;
    int w = cgofuzz_utf8_decode(p + i, n - i, &r);
    if ((r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE ||
        r == 0xFFFF)
      r = CGOFUZZ_RUNE_ERROR;
    switch (r) {
    case '&':
      cgofuzz_buf_puts(b, "&amp;");
      break;
    case '<':
      cgofuzz_buf_puts(b, "&lt;");
      break;
    case '>':
      cgofuzz_buf_puts(b, "&gt;");
      break;
    case '"':
      cgofuzz_buf_puts(b, "&quot;");
      break;
    case '\n':
      cgofuzz_buf_puts(b, attr ? "&#10;" : "\n");
      break;
    case '\r':
      cgofuzz_buf_puts(b, "&#13;");
      break;
    case '\t':
      cgofuzz_buf_puts(b, attr ? "&#9;" : "\t");
      break;
    default: {
      uint8_t enc[4];
      cgofuzz_buf_append(b, enc, (size_t)cgofuzz_utf8_encode(r, enc));
    }
    }
    i += (size_t)w;
  }
}

static void put_xs(cgofuzz_buf *b, const char *s) {
  put_xml(b, s, strlen(s), true);
}
static void put_text(cgofuzz_buf *b, const char *s) {
  put_xml(b, s, strlen(s), false);
}

/* A target's JUnit outcome: a <failure> when any failing input was
 * written (a file to re-run), else an <error> when it failed without one
 * (a death with no input, a discovery error), else it passed. */
enum { OUT_PASS, OUT_FAILURE, OUT_ERROR };
static int outcome(const cli_ctarget *t) {
  int o = OUT_PASS;
  for (size_t k = 0; k < t->report.n_failures; k++) {
    if (t->report.failures[k].path)
      return OUT_FAILURE;
    o = OUT_ERROR;
  }
  return o;
}

static void put_case(cgofuzz_buf *b, const cli_ctarget *t) {
  cgofuzz_buf_puts(b, "    <testcase classname=\"");
  put_xs(b, t->bin_base);
  cgofuzz_buf_puts(b, "\" name=\"");
  put_xs(b, t->cfg.target);
  cgofuzz_buf_printf(b, "\" time=\"%.3f\">\n", (double)t->used_ms / 1000.0);
  for (size_t k = 0; k < t->report.n_failures; k++) {
    const cgofuzz_coord_failure *f = &t->report.failures[k];
    const char *el = f->path ? "failure" : "error";
    size_t hl;
    const char *h = cli_failure_headline(f->msg, &hl);
    cgofuzz_buf_printf(b, "      <%s type=\"fuzz\" message=\"", el);
    put_xml(b, h, hl, true);
    cgofuzz_buf_puts(b, "\">");
    put_text(b, f->msg);
    if (f->path) {
      cgofuzz_buf_puts(b, "\nFailing input written to ");
      put_text(b, f->path);
    }
    if (*f->repro) {
      cgofuzz_buf_puts(b, "\nTo re-run:\n");
      put_text(b, f->repro);
    }
    cgofuzz_buf_printf(b, "</%s>\n", el);
  }
  if (t->state == CLI_CT_NOTRUN)
    cgofuzz_buf_puts(b, "      <skipped message=\"not fuzzed: the run "
                        "stopped at a failure (-fuzzcontinue goes on)\"/>\n");
  cgofuzz_buf_printf(b,
                     "      <system-out>slices: %d, execs: %" PRId64
                     ", coverage bits: %zu, corpus: %zu -&gt; %zu, new "
                     "interesting: %zu, failures: %zu</system-out>\n",
                     t->slices, t->execs, t->cov_bits, t->corpus_start,
                     t->corpus_end, t->new_inputs, t->report.n_failures);
  cgofuzz_buf_puts(b, "    </testcase>\n");
}

static void put_budget(cgofuzz_buf *b, const char *name, int64_t ns,
                       int64_t count) {
  if (!ns && !count)
    return;
  cgofuzz_buf_printf(b, "      <property name=\"%s\" value=\"", name);
  if (count)
    cgofuzz_buf_printf(b, "%" PRId64 "x", count);
  else
    cgofuzz_buf_printf(b, "%.3fs", (double)ns / 1e9);
  cgofuzz_buf_puts(b, "\"/>\n");
}

int cli_junit_write(const cli_campaign *cp, const char *path) {
  cgofuzz_buf b = {0};
  char host[256] = "localhost", stamp[32];
  if (gethostname(host, sizeof host) != 0)
    strcpy(host, "localhost");
  host[sizeof host - 1] = '\0';
  time_t now = (time_t)cp->start_wall;
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  size_t tests = 0, fails = 0, errors = 0;
  for (size_t i = 0; i < cp->n; i++) {
    int o = outcome(&cp->t[i]);
    tests++;
    fails += o == OUT_FAILURE;
    errors += o == OUT_ERROR;
  }
  size_t broken = cli_campaign_broken(cp);
  tests += broken;
  errors += broken;
  cgofuzz_buf_printf(&b,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<testsuites name=\"cgofuzz fuzz\" tests=\"%zu\" "
                     "failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
                     tests, fails, errors,
                     (double)(cp->stop_ms - cp->start_ms) / 1000.0);
  /* One suite per binary, in the order the binaries were given. */
  size_t id = 0;
  for (size_t i = 0; i < cp->n; i++) {
    bool first = true;
    for (size_t j = 0; j < i && first; j++)
      first = strcmp(cp->t[j].binary, cp->t[i].binary) != 0;
    if (!first)
      continue;
    size_t st = 0, sf = 0, se = 0, ss = 0;
    double secs = 0;
    for (size_t j = i; j < cp->n; j++) {
      const cli_ctarget *t = &cp->t[j];
      if (strcmp(t->binary, cp->t[i].binary) != 0)
        continue;
      int o = outcome(t);
      st++;
      sf += o == OUT_FAILURE;
      se += o == OUT_ERROR;
      ss += t->state == CLI_CT_NOTRUN;
      secs += (double)t->used_ms / 1000.0;
    }
    cgofuzz_buf_puts(&b, "  <testsuite name=\"");
    put_xs(&b, cp->t[i].bin_base);
    cgofuzz_buf_puts(&b, "\" package=\"");
    put_xs(&b, cp->t[i].imp ? cp->t[i].imp : cp->t[i].binary);
    cgofuzz_buf_printf(&b,
                       "\" id=\"%zu\" tests=\"%zu\" failures=\"%zu\" "
                       "errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\" "
                       "timestamp=\"%s\" hostname=\"",
                       id++, st, sf, se, ss, secs, stamp);
    put_xs(&b, host);
    cgofuzz_buf_puts(&b, "\">\n    <properties>\n");
    put_budget(&b, "fuzztime", cp->total_ns, cp->total_count);
    put_budget(&b, "fuzztimeper", cp->per_ns, cp->per_count);
    cgofuzz_buf_printf(&b,
                       "      <property name=\"parallel\" value=\"%d\"/>\n"
                       "    </properties>\n",
                       cp->t[i].cfg.parallel);
    for (size_t j = i; j < cp->n; j++)
      if (strcmp(cp->t[j].binary, cp->t[i].binary) == 0)
        put_case(&b, &cp->t[j]);
    cgofuzz_buf_puts(&b, "  </testsuite>\n");
  }
  /* Package mode: a suite for each package that did not build, its one
   * case an <error> with go's output (go-junit-report's layout). */
  for (size_t i = 0; cp->pkgs && i < cp->pkgs->n; i++) {
    const cli_gopkg *p = &cp->pkgs->p[i];
    if (!p->error)
      continue;
    cgofuzz_buf_puts(&b, "  <testsuite name=\"");
    put_xs(&b, p->imp);
    cgofuzz_buf_puts(&b, "\" package=\"");
    put_xs(&b, p->imp);
    cgofuzz_buf_printf(&b,
                       "\" id=\"%zu\" tests=\"1\" failures=\"0\" "
                       "errors=\"1\" skipped=\"0\" time=\"0.000\" "
                       "timestamp=\"%s\" hostname=\"",
                       id++, stamp);
    put_xs(&b, host);
    cgofuzz_buf_puts(&b, "\">\n    <testcase classname=\"");
    put_xs(&b, p->imp);
    cgofuzz_buf_puts(&b, "\" name=\"[build failed]\" time=\"0.000\">\n"
                         "      <error type=\"build\" message=\"");
    size_t hl;
    const char *h = cli_build_headline(p->error, &hl);
    put_xml(&b, h, hl, true);
    cgofuzz_buf_puts(&b, "\">");
    put_text(&b, p->error);
    cgofuzz_buf_puts(&b, "</error>\n    </testcase>\n  </testsuite>\n");
  }
  cgofuzz_buf_puts(&b, "</testsuites>\n");
  int rc = cli_write_file_atomic(path, b.data, b.len, 0666);
  cgofuzz_buf_free(&b);
  return rc;
}

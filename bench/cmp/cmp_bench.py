#!/usr/bin/env python3
"""Comparisons: time to failure, `cgofuzz cc` against libFuzzer.

Planted libFuzzer harnesses whose crash sits behind comparisons of the kinds
issue 13 is about, each built twice -- `cgofuzz cc` (fuzzed by its own
-test.fuzz, one worker: -test.parallel=1) and clang -fsanitize=fuzzer (one
libFuzzer process) -- plain and with ASan, and run one after the other,
alternating, in the same run:

  bytechain   8 bytes, each its own nested branch (edge coverage alone)
  magic16/32/64  one integer compared at once (trace-cmp, input to state)
  memcmp      memcmp(p + 4, "sixteen-byte-key", 16) in the harness
  strcmp      strcmp(s, "open-sesame") on a NUL-terminated copy
  memcmp_lib  memcmp against a 14-byte key inside a static library built by
              plain clang -O2 (no fuzzer flags, length not a constant)
  strcmp_lib  strcmp against a keyword inside that library
  checksum    a payload starting "PK!" whose FNV-1a hash must equal the
              first 4 bytes (input to state on a computed value)
  deadline    issue 13's harness (tests/runtime/cmp/planted.c)

Each cell is the median wall time from start to the process's exit with a
crash over --runs runs (default 3, seeds 1..N: GODEBUG=fuzzseed=N, -seed=N),
a run that finds nothing by --cap seconds (default 60) counting as the cap
(the cell then says how many found it). Output goes to stdout and to
bench/results/cmp/<date>-cmp_bench.txt (--out). Builds go to bench/.cache/cmp/.

usage: bench/cmp/cmp_bench.py [--runs 3] [--cap 60] [--only h1,h2]
                          [--no-asan] [--build build] [--out FILE]
"""
import argparse
import datetime
import os
import re
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import BENCH, ROOT, Proc, fresh, must, note  # noqa: E402

CACHE = os.path.join(BENCH, ".cache", "cmp")
CLANG = shutil.which("clang-14") or shutil.which("clang") or "clang"

HEAD = """#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);
int lib_memcmp_check(const uint8_t *p, size_t n);
int lib_strcmp_check(const char *s);
"""

HARNESSES = {
    "bytechain": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  if (n >= 8 && p[0] == 'c')
    if (p[1] == 'g')
      if (p[2] == 'o')
        if (p[3] == 'f')
          if (p[4] == 'u')
            if (p[5] == 'z')
              if (p[6] == 'z')
                if (p[7] == '!')
                  abort();
  return 0;
}""",
    "magic16": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  uint16_t v;
  if (n < 6) return 0;
  memcpy(&v, p + 4, 2);
  if (v == 0xbeefu) abort();
  return 0;
}""",
    "magic32": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  uint32_t v;
  if (n < 8) return 0;
  memcpy(&v, p + 4, 4);
  if (v == 0x1badb002u) abort();
  return 0;
}""",
    "magic64": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  uint64_t v;
  if (n < 12) return 0;
  memcpy(&v, p + 4, 8);
  if (v == 0x8badf00ddeadc0deull) abort();
  return 0;
}""",
    "memcmp": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  if (n >= 20 && memcmp(p + 4, "sixteen-byte-key", 16) == 0) abort();
  return 0;
}""",
    "strcmp": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  char s[64];
  if (n >= sizeof s) return 0;
  memcpy(s, p, n);
  s[n] = 0;
  if (strcmp(s, "open-sesame") == 0) abort();
  return 0;
}""",
    "memcmp_lib": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  if (lib_memcmp_check(p, n)) abort();
  return 0;
}""",
    "strcmp_lib": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  char s[64];
  if (n >= sizeof s) return 0;
  memcpy(s, p, n);
  s[n] = 0;
  if (lib_strcmp_check(s)) abort();
  return 0;
}""",
    "checksum": """
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  uint32_t want, h = 2166136261u;
  if (n < 8 || p[4] != 'P' || p[5] != 'K' || p[6] != '!') return 0;
  memcpy(&want, p, 4);
  for (size_t i = 4; i < n; i++) {
    h ^= p[i];
    h *= 16777619u;
  }
  if (h == want) abort();
  return 0;
}""",
}

# The static library of the *_lib harnesses, built by plain clang -O2 as a
# system library would be: the key's length is a global, so clang keeps
# the memcmp call (a constant would be expanded into plain loads).
LIB = """#include <stddef.h>
#include <stdint.h>
#include <string.h>
const char *lib_key = "library-secret";
size_t lib_key_len = 14;
const char *lib_word = "libstr-keyword";
int lib_memcmp_check(const uint8_t *p, size_t n);
int lib_strcmp_check(const char *s);
int lib_memcmp_check(const uint8_t *p, size_t n) {
  return n >= lib_key_len + 2 && memcmp(p + 2, lib_key, lib_key_len) == 0;
}
int lib_strcmp_check(const char *s) { return strcmp(s, lib_word) == 0; }
"""

ORDER = ["bytechain", "magic16", "magic32", "magic64", "memcmp", "strcmp",
         "memcmp_lib", "strcmp_lib", "checksum", "deadline"]
SANS = {"plain": [], "asan": ["-fsanitize=address"]}


def build(cgofuzz, harnesses, sans):
    """{(harness, san, tool): binary}; tool is "cgofuzz" or "libfuzzer"."""
    src = fresh(os.path.join(CACHE, "src"))
    for name in harnesses:
        path = os.path.join(src, name + ".c")
        if name == "deadline":
            shutil.copy(os.path.join(ROOT, "tests", "runtime", "cmp", "planted.c"), path)
        else:
            with open(path, "w") as f:
                f.write(HEAD + HARNESSES[name] + "\n")
    with open(os.path.join(src, "lib.c"), "w") as f:
        f.write(LIB)
    must([CLANG, "-O2", "-g", "-c", "lib.c", "-o", "lib.o"], cwd=src)
    must(["ar", "rcs", "libcmpkeys.a", "lib.o"], cwd=src)
    bins = {}
    out = fresh(os.path.join(CACHE, "bin"))
    for name in harnesses:
        extra = [os.path.join(src, "libcmpkeys.a")] if name.endswith(
            "_lib") else []
        for san in sans:
            for tool in ("cgofuzz", "libfuzzer"):
                exe = os.path.join(out, "%s.%s.%s" % (name, san, tool))
                fz = ["-fsanitize=fuzzer"] + SANS[san]
                cc = [cgofuzz, "cc"] if tool == "cgofuzz" else [CLANG]
                must(cc + ["-O2", "-g"] + fz + [os.path.join(src, name + ".c")]
                   + extra + ["-o", exe])
                bins[(name, san, tool)] = exe
    return bins


def run_cgofuzz(exe, d, seed, cap):
    argv = [exe, "-test.fuzz=^FuzzLibFuzzer$", "-test.run=^$",
            "-test.fuzztime=%ds" % cap, "-test.parallel=1",
            "-test.fuzzcachedir=" + os.path.join(d, "cache")]
    env = dict(os.environ, GODEBUG="fuzzseed=%d" % seed)
    t0 = time.monotonic()
    p = Proc(argv, d, cap + 60, env=env)
    wall = time.monotonic() - t0
    found = p.rc == 1 and "Failing input written to" in p.out
    return wall if found else None, p


def run_libfuzzer(exe, d, seed, cap):
    corpus = os.path.join(d, "corpus")
    os.makedirs(corpus)
    argv = [exe, corpus, "-seed=%d" % seed, "-max_total_time=%d" % cap,
            "-artifact_prefix=" + d + "/", "-print_final_stats=1"]
    t0 = time.monotonic()
    p = Proc(argv, d, cap + 60)
    wall = time.monotonic() - t0
    found = re.search(r"Test unit written to \S*crash-", p.out) is not None
    return wall if found else None, p


def cell(times, cap):
    """The median (a miss counts as cap) and how many found it."""
    got = [t for t in times if t is not None]
    med = statistics.median([t if t is not None else cap for t in times])
    s = "%.2f" % med if len(got) > len(times) // 2 else ">%d" % cap
    if len(got) < len(times):
        s += " (%d/%d)" % (len(got), len(times))
    return s, med


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cap", type=int, default=60,
                    help="seconds a run may take (default 60)")
    ap.add_argument("--only", help="comma-separated harnesses")
    ap.add_argument("--no-asan", action="store_true")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="cgofuzz build dir (bin/cgofuzz)")
    ap.add_argument("--out", help="result file (default bench/results/cmp/"
                                  "<date>-cmp_bench.txt)")
    a = ap.parse_args()
    harnesses = a.only.split(",") if a.only else ORDER
    for h in harnesses:
        if h not in ORDER:
            raise SystemExit("unknown harness %s (have: %s)" %
                             (h, ", ".join(ORDER)))
    sans = ["plain"] if a.no_asan else ["plain", "asan"]
    cgofuzz = os.path.join(a.build, "bin", "cgofuzz")
    if not os.access(cgofuzz, os.X_OK):
        raise SystemExit("no %s: build cgofuzz first" % cgofuzz)
    out_path = a.out or os.path.join(
        BENCH, "results", "cmp", "%s-cmp_bench.txt" % datetime.date.today())
    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    t_start = time.monotonic()
    note("building %d harnesses x %s x {cgofuzz cc, libFuzzer}" % (
        len(harnesses), "/".join(sans)))
    bins = build(cgofuzz, harnesses, sans)
    say("Comparisons: time to failure (s), cgofuzz cc vs libFuzzer, "
        "median of %d runs, cap %d s" % (a.runs, a.cap))
    say("one process each (cgofuzz: -test.parallel=1, its own coordinator; "
        "libFuzzer: one process); -O2")
    say("clang: %s" % must([CLANG, "--version"]).splitlines()[0])
    say("load average at start: %s" % " ".join(
        open("/proc/loadavg").read().split()[:3]))
    say()
    rows, per_run = [], []
    for name in harnesses:
        for san in sans:
            times = {"cgofuzz": [], "libfuzzer": []}
            for i in range(a.runs):
                for tool in ("cgofuzz", "libfuzzer"):  # alternating
                    d = fresh(os.path.join(CACHE, "runs", "%s.%s.%s.%d" % (
                        name, san, tool, i)))
                    runner = run_cgofuzz if tool == "cgofuzz" else \
                        run_libfuzzer
                    t, p = runner(bins[(name, san, tool)], d, i + 1, a.cap)
                    times[tool].append(t)
                    per_run.append("%-10s %-5s %-9s seed %d: %s" % (
                        name, san, tool, i + 1,
                        "%.2f s" % t if t is not None else
                        "not found (rc %s)" % p.rc))
                    note(per_run[-1])
            cg, cgm = cell(times["cgofuzz"], a.cap)
            lf, lfm = cell(times["libfuzzer"], a.cap)
            rows.append([name, san, cg, lf, "%.2fx" % (cgm / lfm)
                         if lfm else "-"])
    head = ["harness", "build", "cgofuzz cc", "libFuzzer", "cg/lF"]
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]

    def fmt_row(r):
        return "  ".join(str(x).rjust(n) if i > 1 else str(x).ljust(n)
                         for i, (x, n) in enumerate(zip(r, w)))
    say(fmt_row(head))
    say("  ".join("-" * n for n in w))
    for r in rows:
        say(fmt_row(r))
    say()
    say("runs:")
    for r in per_run:
        say("  " + r)
    say()
    say("load average at end: %s; total %.0f s" % (" ".join(
        open("/proc/loadavg").read().split()[:3]),
        time.monotonic() - t_start))
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    note("written to %s" % out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

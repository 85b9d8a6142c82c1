#!/usr/bin/env python3
"""The cost of libFuzzer's per-input leak check (-detect_leaks=1, issue 24)
in cgofuzz's C workers, measured as libFuzzer's own cost is: execs/s with
the check on and off, under ASan with LeakSanitizer on, for cgofuzz and for
the real libFuzzer on the same harnesses, side by side in one run.

Harnesses: bench/c/zlib_inflate.c and bench/c/cjson_parse.c, linked with
the system's zlib and cJSON (Debian's zlib1g-dev and libcjson-dev; the
library itself is not instrumented, its mallocs and frees are what the
check counts). Each is built with `cgofuzz cc -fsanitize=address,fuzzer`
and with clang -fsanitize=address,fuzzer, and run with -seed=1 on an empty
corpus for --seconds (15) with -print_final_stats=1, one process/worker,
ASAN_OPTIONS=detect_leaks=1; the modes alternate run by run. The figure is
the median over --runs (3) of stat::average_exec_per_sec, and on/off.

Writes bench/results/gofuzz/<date>-leak-cost.md. Python 3 stdlib; needs clang
(with libFuzzer) and a built cgofuzz.
"""
import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT, header, log, write_report  # noqa: E402

HARNESSES = {"zlib": ("zlib_inflate.c", ["-lz"], []),
             "cjson": ("cjson_parse.c", ["-lcjson"], ["-I/usr/include/cjson"])}
FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,fuzzer"]


def build(cc, name, out):
    src, libs, incs = HARNESSES[name]
    # A copy of cgofuzz outside the build tree (what the benches run) finds
    # the runtime libraries through these.
    env = dict(os.environ)
    env.setdefault("CGOFUZZ_LIBDIR", os.path.join(ROOT, "build"))
    env.setdefault("CGOFUZZ_INCLUDEDIR", os.path.join(ROOT, "include"))
    r = subprocess.run(cc + FLAGS + incs + [os.path.join(ROOT, "bench", "c",
                                                          src), "-o", out] +
                       libs, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit("building %s with %s failed:\n%s" % (name, cc[0],
                                                       r.stderr[-2000:]))


def run(exe, leaks, seconds, work):
    corpus = tempfile.mkdtemp(dir=work)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
    r = subprocess.run([exe, "-seed=1", "-detect_leaks=%d" % leaks,
                        "-max_total_time=%d" % seconds,
                        "-print_final_stats=1", corpus],
                       capture_output=True, text=True, errors="replace",
                       env=env, cwd=work, timeout=seconds + 120)
    shutil.rmtree(corpus, ignore_errors=True)
    m = re.search(r"^stat::average_exec_per_sec:\s+(\d+)", r.stderr, re.M)
    if not m:
        sys.exit("%s -detect_leaks=%d gave no stats (rc %d):\n%s" % (
            exe, leaks, r.returncode, r.stderr[-2000:]))
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=15)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--out", default=os.path.join(
        ROOT, "bench", "results", "gofuzz", "%s-leak-cost.md" %
        datetime.date.today().isoformat()))
    args = ap.parse_args()
    clang = shutil.which("clang")
    if not clang:
        sys.exit("clang is not installed (scripts/install-deps.sh)")
    work = tempfile.mkdtemp(prefix="cgofuzz-leak-cost-")
    try:
        log("# The cost of the per-input leak check (-detect_leaks=1)")
        log("")
        header(args, shutil.which("go") or "go", True)
        log("- settings: %d runs of %d s per engine, harness and mode, modes "
            "alternating; one worker; -seed=1, empty corpus; "
            "ASAN_OPTIONS=detect_leaks=1" % (args.runs, args.seconds))
        log("")
        log("| harness | engine | execs/s -detect_leaks=1 (each) | "
            "=0 (each) | on/off |")
        log("|---|---|---|---|---|")
        for name in HARNESSES:
            for engine, cc in (("cgofuzz", [args.cgofuzz, "cc"]),
                               ("libFuzzer", [clang])):
                exe = os.path.join(work, "%s-%s" % (name, engine))
                build(cc, name, exe)
                got = {1: [], 0: []}
                for i in range(args.runs):
                    for leaks in ((1, 0) if i % 2 == 0 else (0, 1)):
                        got[leaks].append(run(exe, leaks, args.seconds,
                                              work))
                on, off = (statistics.median(got[k]) for k in (1, 0))
                log("| %s | %s | %d (%s) | %d (%s) | %.2fx |" % (
                    name, engine, on, " ".join(map(str, got[1])), off,
                    " ".join(map(str, got[0])), on / off if off else 0))
        write_report(args.out)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""ClusterFuzz's engine on a libFuzzer binary and on a `cgofuzz cc` binary.

The same planted harness (tests/lf/clusterfuzz/planted.c) is built twice with
the same flags (-O1 -g -fsanitize=address,fuzzer): by clang, linking the
real libFuzzer, and by `cgofuzz cc`. Both are driven by the same engine
code, ClusterFuzz's libFuzzer engine (PyPI clusterfuzz==2.6.0, in the venv
scripts/install-deps.sh makes), through tests/lf/clusterfuzz/cf_engine.py:
engine.prepare() then engine.fuzz(), as a ClusterFuzz bot fuzzes (strategies
off; no merge back, which is not timed anyway). Runs alternate between the
two binaries (which goes first alternates too), each with a fresh corpus and
-seed=<repetition> (the same seeds for both):

  1. execs/s: the variant without the bug (-DPLANTED_NOBUG), fuzzed for
     --seconds; the engine's stat average_exec_per_sec (libFuzzer's final
     "stat::average_exec_per_sec") and number_of_executed_units divided by
     the run's wall time;
  2. time to the crash: the 8-byte magic "FUZZING!" compared one byte at a
     time (-DPLANTED_HARD), fuzzed until the engine reports the crash (cap
     --cap seconds: a run without it counts as the cap and says so); the
     wall time of the fuzzing process, as the engine measures it.

Medians over --reps repetitions and the ratio cgofuzz/libFuzzer (execs/s:
higher is better; time: lower is better). The output is printed and written
to bench/results/cf/<date>-cf_bench.txt (--quick: <date>-cf_bench-quick.txt;
--out another path).

usage: bench/cf/cf_bench.py [--quick] [--reps N] [--build DIR] [--seconds S]
                         [--cap S] [--out PATH]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT, RESULTS, note, table  # noqa: E402
CFDIR = os.path.join(ROOT, "tests", "lf", "clusterfuzz")
DRIVER = os.path.join(CFDIR, "cf_engine.py")
PLANTED_C = os.path.join(CFDIR, "planted.c")
CFLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,fuzzer"]
HARD_MAGIC = b"FUZZING!"
TOOLS = ["libFuzzer", "cgofuzz"]


def venv_python():
    venv = os.environ.get("CGOFUZZ_VENV") or os.path.join(
        os.path.expanduser("~"), ".cache", "cgofuzz", "venv")
    py = os.path.join(venv, "bin", "python")
    if not os.access(py, os.X_OK):
        raise SystemExit("no clusterfuzz venv at %s: run scripts/install-deps.sh"
                         " (CGOFUZZ_VENV names another)" % venv)
    return py


def build(out, build_dir):
    """(tool, variant) -> binary; variant "nobug" or "hard"."""
    clang = shutil.which("clang-14") or shutil.which("clang")
    if not clang:
        raise SystemExit("clang is not installed (scripts/install-deps.sh)")
    cgofuzz = os.path.join(build_dir, "bin", "cgofuzz")
    if not os.access(cgofuzz, os.X_OK):
        raise SystemExit("no %s (build cgofuzz first, or --build DIR)"
                         % cgofuzz)
    bins = {}
    for tool, cc in (("libFuzzer", [clang]), ("cgofuzz", [cgofuzz, "cc"])):
        for variant, define in (("nobug", "-DPLANTED_NOBUG"),
                                ("hard", "-DPLANTED_HARD")):
            d = os.path.join(out, "%s-%s" % (tool, variant))
            os.makedirs(d)
            exe = os.path.join(d, "planted_" + variant)
            r = subprocess.run(cc + CFLAGS + [define, PLANTED_C, "-o", exe],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, CGOFUZZ_CLANG=clang))
            if r.returncode != 0:
                raise SystemExit("building %s %s failed:\n%s"
                                 % (tool, variant, r.stdout[-3000:]))
            bins[(tool, variant)] = exe
    return bins


def fuzz(py, target, scratch, seed, max_time):
    """One engine.fuzz run (fresh corpus); the driver's result."""
    run = tempfile.mkdtemp(dir=scratch)
    dirs = {}
    for n in ("corpus", "reproducers", "work"):
        dirs[n] = os.path.join(run, n)
        os.makedirs(dirs[n])
    job = dict(op="fuzz", mode="clusterfuzz", target=target,
               corpus_dir=dirs["corpus"], reproducers_dir=dirs["reproducers"],
               workdir=dirs["work"], max_time=max_time,
               arguments=["-seed=%d" % seed], merge_back=False,
               analyze_dictionary=False)
    r = subprocess.run([py, DRIVER, json.dumps(job)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True,
                       timeout=max_time + 300)
    try:
        res = json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        raise SystemExit("cf_engine.py gave no result (rc %s):\n%s"
                         % (r.returncode, r.stderr[-3000:]))
    shutil.rmtree(run, ignore_errors=True)
    return res


def fuzz_seconds(res):
    runs = [r for r in res.get("runs", [])
            if "-print_final_stats=1" in r["command"]]
    return runs[0]["seconds"] if runs else res.get("time_executed")


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def ratio(a, b):
    return "%.2fx" % (a / b) if a is not None and b else "-"


def fmt(v, spec):
    return "-" if v is None else spec % v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 3 repetitions, 5 s runs, 30 s cap")
    ap.add_argument("--reps", type=int, help="repetitions (default 5)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="cgofuzz CMake build dir (its bin/cgofuzz builds the "
                    "cgofuzz binary)")
    ap.add_argument("--seconds", type=int,
                    help="length of the execs/s runs (default 20)")
    ap.add_argument("--cap", type=int,
                    help="limit of a time-to-crash run (default 120)")
    ap.add_argument("--out", help="results file (default bench/results/cf/"
                    "<date>-cf_bench.txt)")
    a = ap.parse_args()
    reps = a.reps or (3 if a.quick else 5)
    seconds = a.seconds or (5 if a.quick else 20)
    cap = a.cap or (30 if a.quick else 120)
    out_path = a.out or os.path.join(RESULTS, "cf", "%s-cf_bench%s.txt" % (
        time.strftime("%Y-%m-%d"), "-quick" if a.quick else ""))

    lines = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    t0 = time.monotonic()
    py = venv_python()
    scratch = tempfile.mkdtemp(prefix="cf_bench-")
    try:
        bins = build(scratch, os.path.abspath(a.build))
        out("ClusterFuzz libFuzzer engine (clusterfuzz==2.6.0): libFuzzer vs "
            "cgofuzz cc on tests/lf/clusterfuzz/planted.c")
        out("%s | %d CPUs | load average at start %s | %d repetitions" % (
            time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(), " ".join(
                open("/proc/loadavg").read().split()[:3]), reps))
        out("flags: %s; engine.fuzz as a ClusterFuzz bot runs it (strategies "
            "off, no merge back), -seed=<repetition>" % " ".join(CFLAGS))
        out("")

        eps = {t: [] for t in TOOLS}      # stat average_exec_per_sec
        eps2 = {t: [] for t in TOOLS}     # executed units / wall seconds
        ttc = {t: [] for t in TOOLS}      # seconds to the crash
        notes = []
        out("per run:")
        for rep in range(reps):
            order = TOOLS if rep % 2 == 0 else TOOLS[::-1]
            seed = rep + 1
            for tool in order:
                note("rep %d/%d: %s execs/s (%d s)" % (rep + 1, reps, tool,
                                                      seconds))
                res = fuzz(py, bins[(tool, "nobug")], scratch, seed, seconds)
                st = res.get("stats") or {}
                secs = fuzz_seconds(res)
                e = st.get("average_exec_per_sec")
                n = st.get("number_of_executed_units")
                e2 = n / secs if n is not None and secs else None
                eps[tool].append(e)
                eps2[tool].append(e2)
                if res.get("error") or res.get("crashes"):
                    notes.append("%s execs/s rep %d: %s" % (
                        tool, rep + 1, res.get("error") or "crashed"))
                out("  rep %d %-9s execs/s: stat %s, units/s %s (%s units "
                    "in %s s)" % (rep + 1, tool, fmt(e, "%d"),
                                  fmt(e2, "%.0f"), fmt(n, "%d"),
                                  fmt(secs, "%.1f")))
            for tool in order:
                note("rep %d/%d: %s time to the crash (cap %d s)" % (
                    rep + 1, reps, tool, cap))
                res = fuzz(py, bins[(tool, "hard")], scratch, seed, cap)
                secs = fuzz_seconds(res)
                crashes = res.get("crashes") or []
                ok = bool(crashes) and crashes[0].get("exists") and \
                    (crashes[0].get("head") or "").encode(
                        "latin-1").startswith(HARD_MAGIC)
                if ok:
                    ttc[tool].append(secs)
                    what = "%.2f s" % secs
                else:
                    ttc[tool].append(float(cap))
                    what = "not found within %d s (counted as %d)" % (cap, cap)
                    notes.append("%s time to crash rep %d: %s%s" % (
                        tool, rep + 1, what,
                        ", a crash not starting with the magic: %r" %
                        crashes[0].get("head") if crashes else ""))
                out("  rep %d %-9s time to the crash: %s" % (rep + 1, tool,
                                                             what))
        out("")

        med = {k: {t: median(v[t]) for t in TOOLS}
               for k, v in (("eps", eps), ("eps2", eps2), ("ttc", ttc))}
        out("medians over %d repetitions" % reps)
        table(["measure", "libFuzzer", "cgofuzz", "cgofuzz/libFuzzer"], [
            ["execs/s (stat average_exec_per_sec, %d s runs)" % seconds,
             fmt(med["eps"]["libFuzzer"], "%.0f"),
             fmt(med["eps"]["cgofuzz"], "%.0f"),
             ratio(med["eps"]["cgofuzz"], med["eps"]["libFuzzer"])],
            ["execs/s (number_of_executed_units / wall s)",
             fmt(med["eps2"]["libFuzzer"], "%.0f"),
             fmt(med["eps2"]["cgofuzz"], "%.0f"),
             ratio(med["eps2"]["cgofuzz"], med["eps2"]["libFuzzer"])],
            ["seconds to the crash (\"FUZZING!\", cap %d s)" % cap,
             fmt(med["ttc"]["libFuzzer"], "%.2f"),
             fmt(med["ttc"]["cgofuzz"], "%.2f"),
             ratio(med["ttc"]["cgofuzz"], med["ttc"]["libFuzzer"])],
        ], out)
        out("load average at end: %s; total %.0f s" % (
            " ".join(open("/proc/loadavg").read().split()[:3]),
            time.monotonic() - t0))
        if notes:
            out("notes:")
            for n in notes:
                out("  - " + n)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    note("written to " + out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

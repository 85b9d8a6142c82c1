#!/usr/bin/env python3
"""Benchmarks `cgofuzz fuzz` against `go test -fuzz` (Go's own coordinator) on
the same test binaries, in one run, and prints the ratios cgofuzz/go:

1. throughput: execs/sec on standard-library fuzz targets built from
   $(go env GOROOT)/src (image/png FuzzDecode, encoding/json
   FuzzUnmarshalJSON, net/netip FuzzParse, encoding/csv FuzzRoundtrip),
   from the last progress line of
   each run (total execs / elapsed);
2. time to failure: median wall time until exit 1 with a crash file, over
   several runs, on the planted-bug targets of bench/coord/targets (a run that hits
   the cap counts as the cap);
3. coordinator CPU: the coordinator process's own utime+stime (not its
   workers'), read from /proc/PID/stat once it has exited but before it is
   reaped, over the fixed-length throughput runs at -parallel N, as % of one
   core; the same for Go's coordinator (the test binary's own process).

Both tools run the binary the same way go test does: from a scratch copy of
the package's testdata (crash files never land in GOROOT or the repo), with a
fresh -fuzzcachedir per run so no run sees another's corpus. Runs of the two
tools alternate. Python 3 stdlib only; Linux only (/proc, waitid).

usage: bench/coord/coord_bench.py [--quick] [--cgofuzz build/bin/cgofuzz] [...]
       bench/coord/coord_bench.py --help
"""
import argparse
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT, log  # noqa: E402

# (package import path, fuzz target) built from GOROOT/src.
STDLIB = [
    ("image/png", "FuzzDecode"),
    ("encoding/json", "FuzzUnmarshalJSON"),
    ("net/netip", "FuzzParse"),
    ("encoding/csv", "FuzzRoundtrip"),  # issue 26 asked about its 0.96x
]
PLANTED = ["FuzzChain", "FuzzDistract", "FuzzStates"]
# Found by go in seconds: only for --quick (exercises the crash path).
QUICK_PLANTED = ["FuzzShortChain"]

PROGRESS = re.compile(r"fuzz: elapsed: (\S+), execs: (\d+) \((\d+)/sec\)")
CRASHFILE = re.compile(r"Failing input written to (testdata/fuzz/\S+/([0-9a-f]+))")
FOUND = re.compile(r"fuzz: minimizing|--- FAIL")

COMMANDS = []  # (label, argv, cwd) of every distinct command shape used
RUNNING = []  # pid of the tool running now (its own session): killed on ^C


def godur(s):
    """Go duration as printed in progress lines ("3s", "1m3s", "1h0m3s")."""
    total = 0.0
    for v, u in re.findall(r"([0-9.]+)(h|ms|m|s)", s):
        total += float(v) * {"h": 3600, "m": 60, "s": 1, "ms": 1e-3}[u]
    return total


def proc_cpu(pid):
    """(own, children): utime+stime in seconds of PID's own threads, and
    cutime+cstime of its reaped children (its workers, for a coordinator)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
    except OSError:
        return None, None
    fields = s[s.rindex(")") + 2:].split()
    # fields[0] is field 3 (state); utime, stime, cutime, cstime are 14-17.
    tck = os.sysconf("SC_CLK_TCK")
    return ((int(fields[11]) + int(fields[12])) / tck,
            (int(fields[13]) + int(fields[14])) / tck)


class Result:
    pass


def run_tool(argv, cwd, wall_limit, label):
    """Runs argv with stdout/stderr to files; polls until it exits (or
    wall_limit passes: then SIGINT, then SIGKILL to its process group).
    Reads its own CPU time from /proc while it is a zombie."""
    if not any(l == label for l, _, _ in COMMANDS):
        COMMANDS.append((label, [re.sub(r"=/.*/cache$", "=DIR", a) for a in argv],
                         cwd))
    outp, errp = os.path.join(cwd, ".bench.out"), os.path.join(cwd, ".bench.err")
    with open(outp, "w") as out, open(errp, "w") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err,
                             stdin=subprocess.DEVNULL, start_new_session=True)
    RUNNING[:] = [p.pid]
    r = Result()
    r.found = None
    r.timed_out = False
    killed = 0
    errsize = 0
    while True:
        st = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        now = time.monotonic() - t0
        if st is not None:
            break
        if r.found is None:
            try:
                sz = os.path.getsize(errp) + os.path.getsize(outp)
                if sz != errsize:
                    errsize = sz
                    with open(errp, errors="replace") as f:
                        e = f.read()
                    with open(outp, errors="replace") as f:
                        e += f.read()
                    if FOUND.search(e):
                        r.found = now
            except OSError:
                pass
        if now > wall_limit and killed == 0:
            r.timed_out = True
            os.killpg(p.pid, signal.SIGINT)
            killed = 1
        elif now > wall_limit + 15 and killed == 1:
            os.killpg(p.pid, signal.SIGKILL)
            killed = 2
        time.sleep(0.05)
    r.wall = time.monotonic() - t0
    r.cpu, r.child_cpu = proc_cpu(p.pid)
    r.rc = p.wait()
    RUNNING[:] = []
    with open(outp, errors="replace") as f:
        r.stdout = f.read()
    with open(errp, errors="replace") as f:
        r.stderr = f.read()
    if r.found is None and FOUND.search(r.stdout + r.stderr):
        r.found = r.wall
    prog = PROGRESS.findall(r.stderr)
    r.nprogress = len(prog)
    if prog:
        r.elapsed, r.execs = godur(prog[-1][0]), int(prog[-1][1])
    else:
        r.elapsed, r.execs = 0.0, 0
    m = CRASHFILE.search(r.stdout)
    r.crash = m.group(1) if m else None
    r.crash_name = m.group(2) if m else None
    return r


def go_argv(binary, target, fuzztime, parallel, cache):
    return [binary, "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
            "-test.fuzztime=" + fuzztime, "-test.parallel=%d" % parallel,
            "-test.fuzzcachedir=" + cache]


def cgo_argv(cgofuzz, binary, target, fuzztime, parallel, cache):
    return [cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-fuzztime=" + fuzztime,
            "-parallel=%d" % parallel, "-fuzzcachedir=" + cache, binary]


class Workspace:
    """A scratch package directory per run: copies of the testdata dirs the
    target reads (its own, and the parent's: image/png reads ../testdata)."""

    def __init__(self, tmp, srcdirs):
        self.tmp, self.srcdirs, self.n = tmp, srcdirs, 0

    def fresh(self):
        self.n += 1
        base = os.path.join(self.tmp, "run%03d" % self.n)
        pkg = os.path.join(base, "pkg", "pkg")
        os.makedirs(pkg)
        own, parent = self.srcdirs
        if own and os.path.isdir(os.path.join(own, "testdata")):
            shutil.copytree(os.path.join(own, "testdata"),
                            os.path.join(pkg, "testdata"), symlinks=True)
        if parent and os.path.isdir(os.path.join(parent, "testdata")):
            shutil.copytree(os.path.join(parent, "testdata"),
                            os.path.join(base, "pkg", "testdata"), symlinks=True)
        return base, pkg, os.path.join(base, "cache")


def build(args, tmp):
    goroot = subprocess.check_output(["go", "env", "GOROOT"], text=True).strip()
    bins = {}
    for pkg, target in STDLIB:
        if args.targets and target not in args.targets and pkg not in args.targets:
            continue
        if args.skip_tput:
            continue
        out = os.path.join(tmp, pkg.replace("/", "_") + ".test")
        cmd = ["go", "test", "-c", "-fuzz=^%s$" % target, "-o", out, pkg]
        log("build: (cd %s/src && %s)" % (goroot, " ".join(cmd)))
        subprocess.check_call(cmd, cwd=os.path.join(goroot, "src"))
        d = os.path.join(goroot, "src", pkg)
        bins[target] = (out, (d, os.path.dirname(d)), pkg)
    if not args.skip_ttf:
        out = os.path.join(tmp, "planted.test")
        cmd = ["go", "test", "-c", "-fuzz=.", "-o", out, "."]
        tdir = os.path.join(ROOT, "bench", "coord", "targets")
        log("build: (cd %s && %s)" % (tdir, " ".join(cmd)))
        subprocess.check_call(cmd, cwd=tdir)
        for t in PLANTED + QUICK_PLANTED:
            if (t in QUICK_PLANTED and not args.targets) or (
                    args.targets and t not in args.targets):
                continue
            bins[t] = (out, (None, None), "bench/coord/targets")
    return bins


def reproduces(binary, cwd, target, name):
    r = subprocess.run([binary, "-test.run=^%s$/^%s$" % (target, name)], cwd=cwd,
                       capture_output=True, text=True, timeout=120,
                       errors="replace")
    # A t.Fatal exits 1, a panic 2; both print the sub-test's --- FAIL line.
    return r.returncode != 0 and ("--- FAIL: %s/%s" % (target, name)) in r.stdout + r.stderr


def fmt_ratio(a, b):
    return "%.2fx" % (a / b) if b else "n/a"


def throughput(args, bins, tmp, problems):
    rows, cpu_rows = [], []
    ft = "%ds" % args.tput_time
    for pkg, target in STDLIB:
        if target not in bins:
            continue
        binary, srcdirs, _ = bins[target]
        ws = Workspace(tmp, srcdirs)
        rates = {"go": [], "cgofuzz": []}
        cpus = {"go": [], "cgofuzz": []}
        for rep in range(args.tput_reps):
            for tool in ("go", "cgofuzz") if rep % 2 == 0 else ("cgofuzz", "go"):
                base, cwd, cache = ws.fresh()
                if tool == "go":
                    argv = go_argv(binary, target, ft, args.parallel, cache)
                else:
                    argv = cgo_argv(args.cgofuzz, binary, target, ft,
                                    args.parallel, cache)
                r = run_tool(argv, cwd, args.tput_time + 60,
                             "%s throughput (%s)" % (tool, target))
                rate = r.execs / r.elapsed if r.elapsed else 0.0
                cpu_pct = 100.0 * r.cpu / r.wall if r.cpu is not None else float("nan")
                # Worker CPU per exec: a check that both tools count execs
                # alike (and shows work not counted as execs, e.g. Go
                # minimizing new interesting inputs).
                wpe = (1e6 * r.child_cpu / r.execs if r.execs and r.child_cpu
                       is not None else float("nan"))
                log("  %-18s %-7s rep %d: rc=%d execs=%d elapsed=%gs "
                    "-> %.0f execs/s; coordinator CPU %.2fs/%.1fs = %.1f%%; "
                    "workers %.1fs CPU, %.1f us/exec; %d progress lines"
                    % (target, tool, rep + 1, r.rc, r.execs, r.elapsed, rate,
                       r.cpu or 0, r.wall, cpu_pct, r.child_cpu or 0, wpe,
                       r.nprogress))
                if r.rc != 0 or r.nprogress == 0 or r.timed_out:
                    problems.append("%s %s rep %d: rc=%d, %d progress lines%s\n%s"
                                    % (tool, target, rep + 1, r.rc, r.nprogress,
                                       " (timed out)" if r.timed_out else "",
                                       tail(r)))
                # Progress lines should come every 3 s over the run.
                want = int(args.tput_time // 3)
                if r.rc == 0 and r.nprogress < want:
                    problems.append("%s %s rep %d: only %d progress lines in %ds"
                                    % (tool, target, rep + 1, r.nprogress,
                                       args.tput_time))
                if rate:
                    rates[tool].append(rate)
                if r.cpu is not None:
                    cpus[tool].append(cpu_pct)
                shutil.rmtree(base, ignore_errors=True)
        g = statistics.median(rates["go"]) if rates["go"] else 0
        c = statistics.median(rates["cgofuzz"]) if rates["cgofuzz"] else 0
        rows.append((target, pkg, g, c))
        cpu_rows.append((target, max(cpus["go"], default=float("nan")),
                         max(cpus["cgofuzz"], default=float("nan"))))
    return rows, cpu_rows


def tail(r, n=12):
    lines = (r.stdout + r.stderr).splitlines()
    return "\n".join("      | " + l for l in lines[-n:])


def ttf(args, bins, tmp, problems, cpu_rows):
    rows = []
    cap = args.ttf_cap
    for target in PLANTED + QUICK_PLANTED:
        if target not in bins:
            continue
        binary = bins[target][0]
        ws = Workspace(tmp, (None, None))
        times = {"go": [], "cgofuzz": []}
        found = {"go": [], "cgofuzz": []}
        capped = {"go": 0, "cgofuzz": 0}
        cpus = {"go": [], "cgofuzz": []}
        for i in range(args.ttf_runs):
            for tool in ("go", "cgofuzz") if i % 2 == 0 else ("cgofuzz", "go"):
                base, cwd, cache = ws.fresh()
                ft = "%ds" % cap
                if tool == "go":
                    argv = go_argv(binary, target, ft, args.parallel, cache)
                else:
                    argv = cgo_argv(args.cgofuzz, binary, target, ft,
                                    args.parallel, cache)
                r = run_tool(argv, cwd, cap + 90, "%s time-to-failure (%s)"
                             % (tool, target))
                ok = (r.rc == 1 and r.crash is not None and
                      os.path.isfile(os.path.join(cwd, r.crash)))
                note = ""
                if ok:
                    t = r.wall
                    if args.verify and not reproduces(binary, cwd, target, r.crash_name):
                        note = " CRASH FILE DOES NOT REPRODUCE"
                        problems.append("%s %s run %d: %s does not reproduce with "
                                        "-test.run" % (tool, target, i + 1, r.crash))
                    elif args.verify:
                        note = " (crash file reproduces)"
                else:
                    t = float(cap)
                    capped[tool] += 1
                    if r.rc != 0:
                        problems.append("%s %s run %d: rc=%d without a crash file%s\n%s"
                                        % (tool, target, i + 1, r.rc,
                                           " (timed out)" if r.timed_out else "",
                                           tail(r)))
                    note = " (no failure: counted as the cap, %ds)" % cap
                times[tool].append(t)
                # Short runs are mostly start-up: not a fair CPU reading.
                if r.cpu is not None and r.wall >= 10:
                    cpus[tool].append(100.0 * r.cpu / r.wall)
                    note += "; coordinator CPU %.1f%%" % cpus[tool][-1]
                if ok and r.found is not None:
                    found[tool].append(r.found)
                log("  %-13s %-8s run %d: rc=%d %.1fs%s%s" % (
                    target, tool, i + 1, r.rc, t,
                    " (found at %.1fs)" % r.found if ok and r.found else "", note))
                shutil.rmtree(base, ignore_errors=True)
        rows.append((target, times, capped, found))
        cpu_rows.append((target, max(cpus["go"], default=float("nan")),
                         max(cpus["cgofuzz"], default=float("nan"))))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin", "cgofuzz"))
    ap.add_argument("--quick", action="store_true",
                    help="smoke check, <= ~3 min: 8 s x 1 throughput run on "
                         "json and netip, 3 TTF runs of FuzzShortChain (a 5-byte "
                         "chain go finds in seconds) capped at 30 s; its "
                         "verdicts are not the issue's")
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--tput-time", type=int, default=None,
                    help="seconds per throughput run (default 12)")
    ap.add_argument("--tput-reps", type=int, default=None,
                    help="throughput runs per tool and target (default 3)")
    ap.add_argument("--ttf-runs", type=int, default=None,
                    help="time-to-failure runs per tool and target (default 5)")
    ap.add_argument("--ttf-cap", type=int, default=None,
                    help="seconds; a run without a failure counts as this (default 120)")
    ap.add_argument("--targets", nargs="*", default=None,
                    help="only these targets (names or stdlib import paths)")
    ap.add_argument("--skip-tput", action="store_true", help="no throughput/CPU runs")
    ap.add_argument("--skip-ttf", action="store_true", help="no time-to-failure runs")
    ap.add_argument("--no-verify", dest="verify", action="store_false",
                    help="do not re-run crash files with -test.run")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    args = ap.parse_args()
    q = args.quick
    if args.tput_time is None:
        args.tput_time = 8 if q else 12
    if args.tput_reps is None:
        args.tput_reps = 1 if q else 3
    if args.ttf_runs is None:
        args.ttf_runs = 3 if q else 5
    if args.ttf_cap is None:
        args.ttf_cap = 30 if q else 120
    if q and args.targets is None:
        args.targets = ["FuzzUnmarshalJSON", "FuzzParse", "FuzzShortChain"]
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    if not os.access(args.cgofuzz, os.X_OK):
        sys.exit("coord_bench: %s is not an executable (build first)" % args.cgofuzz)

    t_start = time.monotonic()
    log("# cgofuzz coordinator benchmark")
    log("go:        %s" % subprocess.check_output(["go", "version"], text=True).strip())
    log("cgofuzz:   %s (mtime %s)" % (args.cgofuzz, time.ctime(os.path.getmtime(args.cgofuzz))))
    log("machine:   %d cores (os.cpu_count), %s" % (os.cpu_count(), os.uname().machine))
    with open("/proc/loadavg") as f:
        log("load avg:  %s (at start; the machine should be quiet)" % " ".join(f.read().split()[:3]))
    log("settings:  -parallel=%d; throughput %ds x %d per tool; TTF %d runs per tool, cap %ds%s"
        % (args.parallel, args.tput_time, args.tput_reps, args.ttf_runs,
           args.ttf_cap, " (--quick)" if q else ""))
    tmp = tempfile.mkdtemp(prefix="cgofuzz-coord-bench-")
    problems = []
    try:
        bins = build(args, tmp)
        tput_rows, cpu_rows, ttf_rows = [], [], []
        if not args.skip_tput and any(t in bins for _, t in STDLIB):
            log("\n## throughput (execs/sec = execs / elapsed of the last progress line)")
            tput_rows, cpu_rows = throughput(args, bins, tmp, problems)
        if not args.skip_ttf and any(t in bins for t in PLANTED + QUICK_PLANTED):
            log("\n## time to failure (wall time to exit 1 with a crash file)")
            ttf_rows = ttf(args, bins, tmp, problems, cpu_rows)
        report(args, tput_rows, cpu_rows, ttf_rows, problems)
    except KeyboardInterrupt:
        for pid in RUNNING:  # its process group: the tool and its workers
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        log("interrupted")
        return 130
    finally:
        if args.keep:
            log("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    with open("/proc/loadavg") as f:
        log("load avg at end: %s; total time %.0fs" % (" ".join(f.read().split()[:3]),
                                                       time.monotonic() - t_start))
    return 0


def report(args, tput_rows, cpu_rows, ttf_rows, problems):
    verdicts = []
    if tput_rows:
        log("\n### throughput, median execs/sec over %d run(s) of %ds, -parallel %d"
            % (args.tput_reps, args.tput_time, args.parallel))
        log("%-20s %-15s %12s %12s %8s" % ("target", "package", "go", "cgofuzz", "ratio"))
        ratios = []
        for target, pkg, g, c in tput_rows:
            rate = lambda v: ("%.0f" if v >= 100 else "%.2f") % v if v else "no runs"
            log("%-20s %-15s %12s %12s %8s" % (target, pkg, rate(g), rate(c),
                                              fmt_ratio(c, g) if c else "n/a"))
            if g and c:
                ratios.append(c / g)
        if ratios:
            ok = len(ratios) == len(tput_rows) and min(ratios) >= 1.0
            gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
            verdicts.append("%s throughput cgofuzz/go: min %.2fx, geomean %.2fx "
                            "(target: >= 1.0x on every target)"
                            % ("PASS" if ok else "FAIL", min(ratios), gm))
        else:
            verdicts.append("FAIL throughput: no usable runs")
    if ttf_rows:
        log("\n### time to failure, median wall seconds over %d run(s), cap %ds"
            % (args.ttf_runs, args.ttf_cap))
        log("%-14s %10s %10s %8s   %s" % ("target", "go", "cgofuzz", "ratio", "runs (go | cgofuzz)"))
        ratios = []
        for target, times, capped, found in ttf_rows:
            g = statistics.median(times["go"])
            c = statistics.median(times["cgofuzz"])
            gs = (">=" if g >= args.ttf_cap else "") + "%.1f" % g
            cs = (">=" if c >= args.ttf_cap else "") + "%.1f" % c
            runs = "%s | %s" % (" ".join("%.0f" % t for t in times["go"]),
                                " ".join("%.0f" % t for t in times["cgofuzz"]))
            capn = ""
            if capped["go"] or capped["cgofuzz"]:
                capn = "  (hit the cap: go %d, cgofuzz %d; counted as %ds)" % (
                    capped["go"], capped["cgofuzz"], args.ttf_cap)
            log("%-14s %10s %10s %8s   %s%s" % (target, gs, cs, fmt_ratio(c, g), runs, capn))
            if found["go"] and found["cgofuzz"]:
                log("%-14s %10.1f %10.1f %8s   (median time the failure was first "
                    "reported, before minimizing; successful runs only)"
                    % ("", statistics.median(found["go"]),
                       statistics.median(found["cgofuzz"]),
                       fmt_ratio(statistics.median(found["cgofuzz"]),
                                 statistics.median(found["go"]))))
            ratios.append(c / g)
        ok = max(ratios) <= 0.5
        verdicts.append("%s time to failure cgofuzz/go: worst %.2fx (target: <= 0.5x "
                        "on every planted target)" % ("PASS" if ok else "FAIL", max(ratios)))
    if cpu_rows:
        log("\n### coordinator CPU (own process only, workers excluded), %% of one core, "
            "worst run (throughput and time-to-failure runs) at -parallel %d"
            % args.parallel)
        log("%-20s %10s %10s" % ("target", "go", "cgofuzz"))
        worst = 0.0
        pct = lambda v: "-" if math.isnan(v) else "%.1f%%" % v
        for target, g, c in cpu_rows:
            if math.isnan(g) and math.isnan(c):
                continue  # only runs under 10 s: not measured
            log("%-20s %10s %10s" % (target, pct(g), pct(c)))
            if not math.isnan(c):
                worst = max(worst, c)
        measured = [c for _, _, c in cpu_rows if not math.isnan(c)]
        if measured:
            verdicts.append("%s coordinator CPU of cgofuzz: worst %.1f%% of one core "
                            "(target: < 5%% at -parallel %d)"
                            % ("PASS" if worst < 5.0 else "FAIL", worst, args.parallel))
        else:
            verdicts.append("FAIL coordinator CPU of cgofuzz: no run of 10 s or more")
    log("\n### commands (cwd: a scratch copy of the package's testdata; "
        "DIR: a fresh cache dir per run)")
    for label, argv, cwd in COMMANDS:
        log("%-40s %s" % (label + ":", " ".join(argv)))
    if problems:
        log("\n### problems seen")
        for p in problems:
            log("- " + p)
    log("\n### summary")
    if args.quick:
        log("(--quick: short runs and a smoke target, not the issue's figures)")
    for v in verdicts:
        log(v)


if __name__ == "__main__":
    sys.exit(main())

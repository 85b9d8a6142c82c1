#!/usr/bin/env python3
"""Comparison feedback of `cgofuzz fuzz` (issue 23): time to the first
failure on the planted targets of bench/cmpgates, against go test -fuzz and
libFuzzer; with --overhead, its cost on standard-library targets.

Time to failure (the default mode). bench/cmpgates is a Go module whose fuzz
targets each hide a panic ("cmpgates: <Target> reached") behind one
comparison shape: a byte loop, a range loop counting matches, a switch on
strings.ToLower, strings.EqualFold, bytes.HasPrefix, strconv.Atoi and a
constant, a CRC-32 read from the input, a map literal then a 64-bit magic,
bytes.EqualFold inside the standard library. Engines, alternating run by run (the order rotates):

  cgofuzz  cgofuzz fuzz -fuzz=^T$ -fuzztime=CAP -parallel=2
           -fuzzcachedir=DIR cmpgates.test
  go       cmpgates.test -test.fuzz=^T$ -test.run=^T$ -test.fuzztime=CAP
           -test.parallel=2 -test.fuzzcachedir=DIR (what go test -fuzz runs)
  libfuzzer  the target built by go-118-fuzz-build and clang -fsanitize=fuzzer,
           run with -use_value_profile=1 -fork=2 -max_total_time=CAP
  cgofuzz-nocmp  (--cmp-ab) cgofuzz with -cmpfeedback=false

cmpgates.test is built once with `go test -c -fuzz=.`; every run of cgofuzz
and go starts in a fresh copy of the module with a fresh fuzz cache, no
fuzzseed pinned. A run's time is the wall time from its start until the
failure shows (go test's "fuzz: minimizing" or "--- FAIL" line; libFuzzer's
crash file); it counts only if the failing input written reproduces the
target's own panic message with `go test -run=^T$/^NAME$` in the run's copy
(libFuzzer's crash file is first turned into a testdata/fuzz file with
`cgofuzz corpus convert -from go118`). A run without a counted failure
counts as its engine's cap.

libFuzzer: fork mode with 2 jobs (-fork=2) is its counterpart of two workers
sharing one corpus and one coverage map; -jobs=2 -workers=2 runs two
independent fuzzers that only see each other's corpus at reloads.
go-118-fuzz-build ignores f.Add and hands every argument to the target
through go-fuzz-headers' consumer (even a lone []byte gets a 4-byte length
first), so the f.Add seeds, read from cmpgates_test.go, are written in that
layout into libFuzzer's corpus directory, for every target alike (for
FuzzEqualFold(string, int): a 4-byte length, the string, then 8 bytes and an
order byte); each is checked to decode back to its seed with `cgofuzz corpus
convert -from go118` when cgofuzz is there.

Overhead (--overhead): cgofuzz with -cmpfeedback=true and =false,
alternating, on standard-library targets built from $(go env GOROOT)/src,
--overhead-time seconds each; execs/s, coverage bits, corpus entries and new
inputs from the target's final -fuzzstats row; ratio on/off of medians.

Writes a markdown report (bench/results/cmpgates/<date>-cmpgates.md, or
-cmpgates-overhead.md; -quick before .md with --quick). Python 3 stdlib,
Linux; needs go on PATH and a built cgofuzz (build/bin/cgofuzz).
"""
import argparse
import datetime
import glob
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import (G118, ROOT, clang_version, final_stats, fmt_time,
                      fuzz_signature, go118_build, go118_seeds,
                      go118_to_corpus, go118_tool, has_cmpfeedback, header,
                      kill_running, log, run_polled, settle_args, sh,
                      summary_cells, tail, write_report)  # noqa: E402

SRC = os.path.join(ROOT, "bench", "cmpgates")
TEST_FILE = "cmpgates_test.go"
ENGINES = ["cgofuzz", "go", "libfuzzer", "cgofuzz-nocmp"]
QUICK_TARGETS = ["FuzzLoopIndex", "FuzzAtoi"]
# (package, target) for --overhead: built from GOROOT/src, except net/url,
# whose tests have no fuzz target: bench/cmpgates/overhead/neturl holds one.
STDLIB = [
    ("encoding/json", "FuzzUnmarshalJSON"),
    ("image/png", "FuzzDecode"),
    ("archive/tar", "FuzzReader"),
    ("net/url", "FuzzURLParse"),
    ("net/netip", "FuzzParse"),
]
OWN_TARGETS = {"net/url": os.path.join(ROOT, "bench", "overhead", "neturl")}
QUICK_STDLIB = ["FuzzUnmarshalJSON"]

FOUND = re.compile(r"fuzz: minimizing|--- FAIL")
CRASHFILE = re.compile(r"Failing input written to testdata/fuzz/(\w+)/(\S+)")
# Grace after the cap: Go's coordinator (and cgofuzz's) minimize a failure
# found late for up to 60 s (-fuzzminimizetime) before exiting.
GRACE = 90


# -- the targets and their seeds, read from cmpgates_test.go ------------------

def read_targets():
    """{Target: {"types": [...], "seeds": [[values]...], "msg": ...}}, in
    the order of cmpgates_test.go."""
    with open(os.path.join(SRC, TEST_FILE)) as f:
        text = f.read()
    targets = {}
    parts = re.split(r"^func (Fuzz\w+)\(f \*testing\.F\) \{$", text,
                     flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2]):
        types, seeds = fuzz_signature(body)
        msg = "cmpgates: %s reached" % name
        if msg not in body:
            sys.exit("%s: no panic %r in %s" % (name, msg, TEST_FILE))
        targets[name] = {"types": types, "seeds": seeds, "msg": msg}
    return targets


# -- running ---------------------------------------------------------------

def reproduces(go, pkg, target, name, msg):
    r = sh([go, "test", "-count=1", "-timeout=120s",
            "-run=^%s$/^%s$" % (target, re.escape(name)), "."], cwd=pkg)
    return r.returncode != 0 and msg in r.stdout + r.stderr


class Bench:
    def __init__(self, args, go, work):
        self.args, self.go, self.work = args, go, work
        self.n = 0
        self.commands = {}  # engine -> argv shape
        self.cgofuzz_ok = os.access(args.cgofuzz, os.X_OK)
        self.binary = os.path.join(work, "cmpgates.test")
        self.lf_bins, self.lf_seeds = {}, {}  # target -> binary, seed dir

    def fresh(self, tag):
        """A fresh copy of the module and a cache path."""
        self.n += 1
        d = os.path.join(self.work, "run%03d-%s" % (self.n, tag))
        pkg = os.path.join(d, "cmpgates")
        shutil.copytree(SRC, pkg, ignore=shutil.ignore_patterns("known"))
        return d, pkg, os.path.join(d, "cache")

    def note_command(self, engine, argv, d):
        if engine not in self.commands:
            self.commands[engine] = " ".join(
                a.replace(d, "RUN").replace(self.work, "WORK") for a in argv)

    def run_go_tool(self, engine, target, info):
        a = self.args
        cap = a.cap_go if engine == "go" else a.cap_cgofuzz
        d, pkg, cache = self.fresh("%s-%s" % (engine, target))
        if engine == "go":
            argv = [self.binary, "-test.paniconexit0", "-test.timeout=0",
                    "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
                    "-test.fuzztime=%ds" % cap,
                    "-test.parallel=%d" % a.parallel,
                    "-test.fuzzcachedir=" + cache]
        else:
            argv = [a.cgofuzz, "fuzz", "-fuzz=^%s$" % target,
                    "-fuzztime=%ds" % cap, "-parallel=%d" % a.parallel,
                    "-fuzzcachedir=" + cache]
            if engine == "cgofuzz-nocmp":
                argv.append("-cmpfeedback=false")
            argv.append(self.binary)
        self.note_command(engine, argv, d)
        r = run_polled(argv, pkg, cap + GRACE, FOUND.search)
        m = CRASHFILE.search(r.out)
        if r.found is None or m is None:
            t, note = None, "not found (rc=%s%s)" % (
                r.rc, ", killed at the cap" if r.timed_out else "")
            if r.rc not in (0, None) or r.found is not None:
                note += "\n" + tail(r.out)
        elif m.group(1) != target or not os.path.isfile(
                os.path.join(pkg, "testdata", "fuzz", target, m.group(2))):
            t, note = None, "NO CRASH FILE for %s\n%s" % (target, tail(r.out))
        elif not reproduces(self.go, pkg, target, m.group(2), info["msg"]):
            t, note = None, "crash file %s DOES NOT REPRODUCE %r" % (
                m.group(2), info["msg"])
        else:
            t, note = r.found, "reproduces (exit at %.1fs)" % r.wall
        shutil.rmtree(d, ignore_errors=True)
        return t, note

    def run_libfuzzer(self, target, info):
        a = self.args
        cap = a.cap_libfuzzer
        d, pkg, _ = self.fresh("libfuzzer-" + target)
        corpus = os.path.join(d, "corpus")
        shutil.copytree(self.lf_seeds[target], corpus)
        argv = [self.lf_bins[target], "-use_value_profile=1",
                "-fork=%d" % a.parallel, "-max_total_time=%d" % cap,
                "-artifact_prefix=%s/" % d, corpus]
        self.note_command("libfuzzer", argv, d)

        def crashed(_):
            return glob.glob(os.path.join(d, "crash-*"))
        r = run_polled(argv, d, cap + 15, crashed)
        crashes = sorted(glob.glob(os.path.join(d, "crash-*")),
                         key=os.path.getmtime)
        if r.found is None or not crashes:
            t, note = None, "not found (rc=%s%s)" % (
                r.rc, ", killed at the cap" if r.timed_out else "")
        else:
            ok, why = self.lf_reproduces(pkg, target, info, crashes[0])
            t = r.found if ok else None
            note = ("crash file written, " + why) if ok else \
                "crash file written but %s\n%s" % (why, tail(r.out))
        shutil.rmtree(d, ignore_errors=True)
        return t, note

    def lf_reproduces(self, pkg, target, info, crash):
        if not self.cgofuzz_ok:
            return True, "not replayed (no cgofuzz to convert it)"
        name, why = go118_to_corpus(
            self.args.cgofuzz, crash, info["types"],
            os.path.join(pkg, "testdata", "fuzz", target))
        if name is None:
            return False, why
        if reproduces(self.go, pkg, target, name, info["msg"]):
            return True, "reproduces with go test (converted)"
        return False, "the converted file DOES NOT REPRODUCE %r" % info["msg"]

    # -- libFuzzer build ----------------------------------------------------

    def build_libfuzzer(self, targets):
        """Builds a libFuzzer binary per target (self.lf_bins); None, or
        the reason why it cannot."""
        tool, version, why = go118_tool(self.go)
        if why:
            return why
        pkg = os.path.join(self.work, "libfuzzer", "cmpgates")
        shutil.copytree(SRC, pkg, ignore=shutil.ignore_patterns("known"))
        bins, why = go118_build(self.go, tool, version, pkg, TEST_FILE,
                                targets, self.work)
        if why:
            return why
        self.lf_bins.update(bins)
        log("build: `%s -o T.a -func T .` (go-118-fuzz-build %s, in a copy "
            "whose %s imports %s/testing), then `clang -fsanitize=fuzzer T.a "
            "-o T.libfuzzer` (%s)" % (os.path.basename(tool), version,
                                      TEST_FILE, G118, clang_version()))
        return None

    def libfuzzer_seeds(self, targets, infos):
        """libFuzzer's seed corpus per target: the f.Add seeds in
        go-fuzz-headers' layout, each checked to decode back to its seed."""
        problems = []
        for target in targets:
            d = os.path.join(self.work, "seeds", target)
            problems += ["%s %s" % (target, p) for p in go118_seeds(
                self.args.cgofuzz if self.cgofuzz_ok else None, self.work, d,
                infos[target]["types"], infos[target]["seeds"])]
            self.lf_seeds[target] = d
        return problems


# -- time to failure --------------------------------------------------------

def time_to_failure(args, go, work):
    infos = read_targets()
    targets = args.targets or (QUICK_TARGETS if args.quick else list(infos))
    for t in targets:
        if t not in infos:
            sys.exit("unknown target %s (have: %s)" % (t, ", ".join(infos)))
    engines = args.engines
    if args.cmp_ab and "cgofuzz-nocmp" not in engines:
        engines = engines + ["cgofuzz-nocmp"]
    b = Bench(args, go, work)
    caps = {"cgofuzz": args.cap_cgofuzz, "cgofuzz-nocmp": args.cap_cgofuzz,
            "go": args.cap_go, "libfuzzer": args.cap_libfuzzer}
    skipped = {}
    if any(e.startswith("cgofuzz") for e in engines) and not b.cgofuzz_ok:
        sys.exit("%s is not an executable: build cgofuzz or give --cgofuzz"
                 % args.cgofuzz)
    if "cgofuzz-nocmp" in engines and not has_cmpfeedback(args.cgofuzz):
        skipped["cgofuzz-nocmp"] = ("this cgofuzz has no -cmpfeedback flag "
                                    "(`cgofuzz fuzz -h`)")

    log("# cmpgates: time to the first failure (issue 23)")
    log("")
    header(args, go, b.cgofuzz_ok)
    log("- settings: %d runs per engine and target, engines alternating; "
        "-parallel %d; caps %s; a miss counts as its engine's cap" % (
            args.runs, args.parallel, ", ".join(
                "%s %ds" % (e, caps[e]) for e in engines)))
    log("- cgofuzz -cmpfeedback: %s" % (
        "present" if b.cgofuzz_ok and has_cmpfeedback(args.cgofuzz)
        else "absent in this build"))
    log("")
    build = os.path.join(work, "build", "cmpgates")
    shutil.copytree(SRC, build, ignore=shutil.ignore_patterns("known"))
    r = sh([go, "test", "-c", "-fuzz=.", "-o", b.binary, "."], cwd=build)
    if r.returncode != 0:
        sys.exit("go test -c failed:\n" + r.stdout + r.stderr)
    log("build: `go test -c -fuzz=. -o cmpgates.test .` (bench/cmpgates)")
    if "libfuzzer" in engines:
        why = b.build_libfuzzer(targets)
        if why is None:
            problems = b.libfuzzer_seeds(targets, infos)
            if problems:
                why = "seed encoding: " + "; ".join(problems)
            else:
                log("libFuzzer seeds: the f.Add seeds in go-fuzz-headers' "
                    "layout (%s), one file each" % (
                        "each checked with `cgofuzz corpus convert -from "
                        "go118`" if b.cgofuzz_ok else "not checked"))
        if why is not None:
            skipped["libfuzzer"] = why
    for e, why in skipped.items():
        log("")
        log("**%s: skipped**: %s" % (e, why))
    engines = [e for e in engines if e not in skipped]
    log("")

    results = {}
    log("## runs")
    log("")
    log("seconds until the failure showed; a miss is not counted")
    log("")
    log("| target | engine | run | time (s) | verdict |")
    log("|---|---|---|---|---|")
    try:
        for target in targets:
            for i in range(args.runs):
                k = i % len(engines)
                for e in engines[k:] + engines[:k]:
                    if e == "libfuzzer":
                        t, note = b.run_libfuzzer(target, infos[target])
                    else:
                        t, note = b.run_go_tool(e, target, infos[target])
                    first, _, rest = note.partition("\n")
                    log("| %s | %s | %d | %s | %s |" % (
                        target, e, i + 1, fmt_time(t), first))
                    if rest:
                        print(rest, flush=True)
                    results.setdefault((target, e), []).append(t)
    except KeyboardInterrupt:
        log("")
        log("**interrupted**: the summary covers the runs above")
    log("")
    summary(targets, engines, caps, results)
    log("")
    log("## commands")
    log("")
    log("cgofuzz and go run in RUN/cmpgates, a fresh copy of bench/cmpgates; "
        "WORK is the bench's temporary directory")
    log("")
    for e, c in b.commands.items():
        log("- %s: `%s`" % (e, c))
    log("- check: `go test -count=1 -run=^T$/^NAME$ .` in the run's copy "
        "(libFuzzer's crash file first through `cgofuzz corpus convert "
        "-from go118 -types ... -o testdata/fuzz/T`)")


def summary(targets, engines, caps, results):
    log("## summary")
    log("")
    cols = [e for e in engines if any((t, e) in results for t in targets)]
    heads = ["go/cgofuzz", "libfuzzer/cgofuzz", "cgofuzz-nocmp/cgofuzz"]
    heads = [h for h in heads if h.split("/")[0] in cols and "cgofuzz" in
             cols]
    log("median seconds to the failure (a miss counts as the engine's cap), "
        "found/runs, each run's time; ratios of medians")
    log("")
    log("| target | " + " | ".join(cols + heads) + " |")
    log("|---|" + "---|" * (len(cols) + len(heads)))
    for target in targets:
        cells, _ = summary_cells(lambda e: results.get((target, e), []),
                                 cols, caps, heads)
        log("| %s | %s |" % (target, " | ".join(cells)))
    log("")
    log("`>=`: the median is a cap (most runs missed), so the real one is "
        "higher; a ratio marked `>=` or `<=` is a bound.")


# -- overhead ------------------------------------------------------------

def overhead(args, go, work):
    if not os.access(args.cgofuzz, os.X_OK):
        sys.exit("%s is not an executable" % args.cgofuzz)
    log("# cmpgates --overhead: cgofuzz fuzz -cmpfeedback=true vs =false "
        "(issue 23)")
    log("")
    header(args, go, True)
    if not has_cmpfeedback(args.cgofuzz):
        log("")
        log("**not run**: this cgofuzz has no -cmpfeedback flag "
            "(`%s fuzz -h`)" % args.cgofuzz)
        return
    pick = args.targets or (QUICK_STDLIB if args.quick else None)
    chosen = [(p, t) for p, t in STDLIB if not pick or t in pick or p in pick]
    if not chosen:
        sys.exit("no standard-library target matches %s (have: %s)" % (
            pick, ", ".join("%s %s" % x for x in STDLIB)))
    secs = args.overhead_time
    log("- settings: %d runs per setting, %d s each, -parallel %d, on and "
        "off alternating; figures from the target's final -fuzzstats row" % (
            args.runs, secs, args.parallel))
    log("")
    goroot = sh([go, "env", "GOROOT"]).stdout.strip()
    bins = {}
    for pkg, target in chosen:
        out = os.path.join(work, pkg.replace("/", "_") + ".test")
        own = OWN_TARGETS.get(pkg)
        r = sh([go, "test", "-c", "-fuzz=^%s$" % target, "-o", out,
                "." if own else pkg],
               cwd=own or os.path.join(goroot, "src"))
        if r.returncode != 0:
            sys.exit("building %s failed:\n%s" % (pkg, r.stdout + r.stderr))
        log("build: `(cd %s && go test -c -fuzz=^%s$ -o X.test %s)`" % (
            os.path.relpath(own, ROOT) if own else "$(go env GOROOT)/src",
            target, "." if own else pkg))
        bins[target] = (out, own or os.path.join(goroot, "src", pkg))
    log("")
    log("## runs")
    log("")
    log("| target | cmpfeedback | run | execs/s | coverage bits | corpus | "
        "new inputs | execs | note |")
    log("|---|---|---|---|---|---|---|---|---|")
    res, n, cmd = {}, 0, None
    keys = ("execs_per_s", "coverage", "corpus", "new_inputs", "execs")
    try:
        for pkg, target in chosen:
            binary, src = bins[target]
            for i in range(args.runs):
                for on in (True, False) if i % 2 == 0 else (False, True):
                    n += 1
                    d = os.path.join(work, "ov%03d" % n)
                    cwd = os.path.join(d, "pkg", "pkg")
                    os.makedirs(cwd)
                    # The package's testdata and its parent's (image/png
                    # reads ../testdata), copied: nothing lands in GOROOT.
                    for s, dst in ((src, cwd), (os.path.dirname(src),
                                                os.path.dirname(cwd))):
                        if os.path.isdir(os.path.join(s, "testdata")):
                            shutil.copytree(os.path.join(s, "testdata"),
                                            os.path.join(dst, "testdata"),
                                            symlinks=True)
                    stats = os.path.join(d, "stats.csv")
                    argv = [args.cgofuzz, "fuzz", "-fuzz=^%s$" % target,
                            "-fuzztime=%ds" % secs,
                            "-parallel=%d" % args.parallel,
                            "-fuzzcachedir=" + os.path.join(d, "cache"),
                            "-fuzzstats=" + stats,
                            "-cmpfeedback=%s" % ("true" if on else "false"),
                            # archive/tar's FuzzReader fails within a
                            # minute (a header its Writer refuses): the
                            # run goes on to its end, as every run must.
                            "-fuzzcontinue", binary]
                    cmd = cmd or " ".join(a.replace(d, "RUN").replace(
                        work, "WORK") for a in argv)
                    r = run_polled(argv, cwd, secs + GRACE, lambda _: False)
                    row = final_stats(stats, target)
                    note = "rc=%s" % r.rc
                    fails = r.out.count("Failing input written")
                    if fails:
                        note += ", %d failure%s written" % (
                            fails, "s" * (fails > 1))
                    if row is None:
                        note += ", no -fuzzstats row"
                        print(tail(r.out), flush=True)
                        vals = None
                    else:
                        vals = [float(row[k]) for k in keys]
                        res.setdefault((target, on), []).append(vals)
                    log("| %s | %s | %d | %s | %s |" % (
                        target, "on" if on else "off", i + 1,
                        " | ".join("%.0f" % v for v in vals) if vals else
                        " | ".join("" for _ in keys), note))
                    shutil.rmtree(d, ignore_errors=True)
    except KeyboardInterrupt:
        log("")
        log("**interrupted**: the summary covers the runs above")
    log("")
    log("## summary")
    log("")
    log("medians over the runs; ratio on/off")
    log("")
    log("| target | execs/s on | off | on/off | coverage on | off | on/off | "
        "corpus on | off |")
    log("|---|---|---|---|---|---|---|---|---|")
    for pkg, target in chosen:
        on, off = res.get((target, True)), res.get((target, False))
        if not on or not off:
            log("| %s %s | (no complete pair of runs) |%s" % (
                pkg, target, " |" * 7))
            continue
        m = {}
        for k, vs in (("on", on), ("off", off)):
            m[k] = [statistics.median(v[j] for v in vs) for j in range(3)]
        log("| %s %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.3f | %.0f | %.0f |"
            % (pkg, target, m["on"][0], m["off"][0],
               m["on"][0] / m["off"][0] if m["off"][0] else float("nan"),
               m["on"][1], m["off"][1],
               m["on"][1] / m["off"][1] if m["off"][1] else float("nan"),
               m["on"][2], m["off"][2]))
    log("")
    log("execs/s: the final row's average over the target's fuzzing time; "
        "coverage: coverage bits (the counter buckets ever hit, cgofuzz's "
        "basis of \"new interesting\"); corpus: entries at the end.")
    log("")
    log("command (RUN/pkg/pkg holds copies of the package's testdata): `%s`"
        % cmd)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="--quick: 1 run, caps of 10 s, targets %s (--overhead: %s, "
        "20 s); explicit options win." % (",".join(QUICK_TARGETS),
                                          ",".join(QUICK_STDLIB)))
    ap.add_argument("--quick", action="store_true",
                    help="smoke run (see below)")
    ap.add_argument("--targets", type=lambda s: s.split(","),
                    help="comma-separated targets (default: all; with "
                    "--overhead: stdlib targets or packages)")
    ap.add_argument("--engines", default="cgofuzz,go,libfuzzer",
                    type=lambda s: s.split(","),
                    help="comma-separated, from %s" % ",".join(ENGINES))
    ap.add_argument("--runs", type=int, help="runs per engine (default 3)")
    ap.add_argument("--cap-cgofuzz", type=int, help="seconds (default 60)")
    ap.add_argument("--cap-go", type=int, help="seconds (default 120)")
    ap.add_argument("--cap-libfuzzer", type=int, help="seconds (default 120)")
    ap.add_argument("--parallel", type=int, default=2,
                    help="workers of each engine (default 2)")
    ap.add_argument("--cmp-ab", action="store_true",
                    help="add cgofuzz -cmpfeedback=false as the engine "
                    "cgofuzz-nocmp")
    ap.add_argument("--overhead", action="store_true",
                    help="measure -cmpfeedback=true against =false on "
                    "standard-library targets instead")
    ap.add_argument("--overhead-time", type=int,
                    help="seconds per --overhead run (default 300)")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--out", help="the markdown report (default "
                    "bench/results/cmpgates/<date>-cmpgates[-overhead][-quick].md)")
    args = ap.parse_args()
    q = args.quick
    settle_args(ap, args, (("runs", 3, 1), ("cap_cgofuzz", 60, 10),
                           ("cap_go", 120, 10), ("cap_libfuzzer", 120, 10),
                           ("overhead_time", 300, 20)), ENGINES)
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "cmpgates", "%s-cmpgates%s%s.md"
                                % (datetime.date.today().isoformat(),
                                   "-overhead" if args.overhead else "",
                                   "-quick" if q else ""))
    go = shutil.which("go") or "/usr/local/go/bin/go"
    if not os.access(go, os.X_OK):
        sys.exit("go is not installed")
    work = tempfile.mkdtemp(prefix="cgofuzz-cmpgates-bench-")
    try:
        if args.overhead:
            overhead(args, go, work)
        else:
            time_to_failure(args, go, work)
    finally:
        kill_running()
        shutil.rmtree(work, ignore_errors=True)
        write_report(args.out)


if __name__ == "__main__":
    main()

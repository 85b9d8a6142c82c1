#!/usr/bin/env python3
"""Real bugs fixed upstream in Go modules and in older standard libraries
(issue 26): time until `cgofuzz fuzz`, `go test -fuzz` and libFuzzer (through
go-118-fuzz-build) first trigger each one.

bench/gobugs/<name>/ holds one bug each: a module pinned (go.mod, go.sum) to
the last version with the bug (for a standard-library bug, bug.json's "go"
names the last Go release with it, fetched with GOTOOLCHAIN), a natural fuzz
target with f.Add seeds only, `crasher` (a go test fuzz v1 file that
triggers the bug) and bug.json: the versions, the fuzz target, the kind
(panic, hang, oom, stack) and "signature", a regular expression that the
report of THIS bug matches (the function that panics, or that loops).

Before timing, every bug is checked: its crasher fails the pinned build
with output matching the signature (--verify also checks that the fixed
version passes it, and that the seeds alone pass). Engines, alternating run
by run (the order rotates):

  cgofuzz    cgofuzz fuzz -fuzz=^T$ -fuzztime=CAP -parallel=2
             -fuzzcachedir=DIR bug.test
  go         bug.test -test.fuzz=^T$ -test.run=^T$ -test.fuzztime=CAP
             -test.parallel=2 -test.fuzzcachedir=DIR (what go test -fuzz runs)
  libfuzzer  the target built by go-118-fuzz-build and clang -fsanitize=fuzzer,
             run with -use_value_profile=1 -fork=2 -timeout=10
             -max_total_time=CAP on the f.Add seeds in go-fuzz-headers' layout

bug.test is built once per bug with `go test -c -fuzz=^T$`; every run starts
in a fresh copy of the bug's directory with a fresh fuzz cache, no seed
pinned, and each engine's defaults otherwise (cgofuzz and go: no memory
limit; hang timer: the Go release's, which go itself lacks before 1.27). A
run's time is the wall time from its start until a failure shows (go test's
"fuzz: minimizing" or "--- FAIL"; libFuzzer's crash-, timeout- or oom- file);
it counts only when the failing input the engine wrote, re-run with
`bug.test -test.run=^T$/^NAME$` in the run's copy, fails with output matching
the bug's signature (libFuzzer's file first goes through `cgofuzz corpus
convert -from go118`). A failure that is another bug, or an input not written
(go test -fuzz does not write hangs), is not counted; a run without a counted
failure counts as the cap.

Writes a markdown report (bench/results/gobugs/<date>-gobugs.md; -quick with
--quick: one run per engine, 20 s caps, cgofuzz and go only). Python 3
stdlib, Linux; needs go on PATH (and the Go module proxy), a built cgofuzz,
and for libFuzzer clang.
"""
import argparse
import datetime
import glob
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import (G118, ROOT, clang_version, fmt_time,  # noqa: E402
                      fuzz_signature, go118_build, go118_seeds,
                      go118_to_corpus, go118_tool, header, kill_running, log,
                      run_polled, sh, summary_cells, tail, write_report)

BUGS = os.path.join(ROOT, "bench", "gobugs")
ENGINES = ["cgofuzz", "go", "libfuzzer"]
KINDS = ("panic", "hang", "oom", "stack")
FOUND = re.compile(r"fuzz: minimizing|--- FAIL")
CRASHFILE = re.compile(r"Failing input written to testdata/fuzz/(\w+)/(\S+)")
# Grace after the cap: a failure found late is minimized for up to 60 s
# (-fuzzminimizetime) before the coordinator exits.
GRACE = 90
# A reproduction of a hang runs this long before the test binary's own
# timeout prints every goroutine (the signature's source for a hang).
HANG_REPRO = 20
# Address space of a reproduction: a memory blow-up fails instead of
# taking the machine.
REPRO_AS = 8 << 30


def read_bugs(names=None):
    """The bugs of bench/gobugs (bug.json of each directory), checked."""
    bugs = []
    for path in sorted(glob.glob(os.path.join(BUGS, "*", "bug.json"))):
        d = os.path.dirname(path)
        with open(path) as f:
            b = json.load(f)
        where = os.path.relpath(path, ROOT)
        for key in ("name", "module", "package", "buggy", "fixed", "go",
                    "target", "types", "kind", "signature", "source",
                    "target_origin", "summary"):
            if key not in b:
                sys.exit("%s: no %r" % (where, key))
        if b["name"] != os.path.basename(d):
            sys.exit("%s: name %r is not its directory's" % (where, b["name"]))
        if b["kind"] not in KINDS:
            sys.exit("%s: kind %r is not one of %s" % (where, b["kind"],
                                                       ", ".join(KINDS)))
        tests = glob.glob(os.path.join(d, "*_test.go"))
        if len(tests) != 1:
            sys.exit("%s: want one _test.go file, have %d" % (where,
                                                             len(tests)))
        if os.path.exists(os.path.join(d, "testdata")):
            sys.exit("%s: a testdata directory would seed the engines" %
                     where)
        b["dir"], b["test_file"] = d, os.path.basename(tests[0])
        with open(tests[0]) as f:
            types, seeds = fuzz_signature(f.read())
        if types != b["types"]:
            sys.exit("%s: types %s, but the target takes %s" % (
                where, b["types"], types))
        b["seeds"] = seeds
        b["re"] = re.compile(b["signature"])
        bugs.append(b)
    if names:
        have = {b["name"] for b in bugs}
        bad = [n for n in names if n not in have]
        if bad:
            sys.exit("unknown bug %s (have: %s)" % (", ".join(bad),
                                                   ", ".join(sorted(have))))
        bugs = [b for b in bugs if b["name"] in names]
    return bugs


def go_env(bug, toolchain=None):
    """The environment every go and test-binary command of a bug runs in."""
    return dict(os.environ, GOFLAGS="-mod=mod",
                GOTOOLCHAIN=toolchain or bug["go"] or "local")


def copy_bug(bug, dst):
    shutil.copytree(bug["dir"], dst,
                    ignore=shutil.ignore_patterns("crasher", "bug.json"))
    return dst


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (REPRO_AS, REPRO_AS))


def reproduce(bug, binary, pkg, name):
    """Runs testdata/fuzz/T/name of pkg through the test binary: (the bug's
    signature matched, the output, the exit status: None when it ran over
    its time)."""
    timeout = HANG_REPRO if bug["kind"] == "hang" else 120
    argv = [binary, "-test.count=1", "-test.timeout=%ds" % timeout,
            "-test.run=^%s$/^%s$" % (bug["target"], re.escape(name))]
    try:
        r = subprocess.run(argv, cwd=pkg, env=go_env(bug),
                           capture_output=True, text=True, errors="replace",
                           timeout=timeout + 60, stdin=subprocess.DEVNULL,
                           preexec_fn=limit_memory)
        out, rc = r.stdout + r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = "%s" % e, None
    return rc not in (0, None) and bug["re"].search(out) is not None, out, rc


def other_failure(rc, out, engine_out):
    """A report row's words for a written input that is not the bug: what
    its re-run printed, or, when the re-run passed or ran over its time
    (a hang or a memory blow-up on a loaded machine that the input alone
    does not repeat), what the engine said when it wrote it."""
    if rc == 0:
        return "written input passes when re-run; the engine said: %s" % (
            failure_line(engine_out))
    if rc is None:
        return "re-run over its time; the engine said: %s" % (
            failure_line(engine_out))
    return "another failure: %s" % failure_line(out)


def failure_line(out):
    """The line that says what failed, for a report row."""
    for pat in (r"^panic: .*", r"^fatal error: .*", r"^\s*\w[^\n]*\.go:\d+: .*",
                r"fuzzing process .*"):
        m = re.search(pat, out, re.M)
        if m:
            return m.group(0).strip()[:120]
    return "(no panic line)"


class Bench:
    def __init__(self, args, go, work):
        self.args, self.go, self.work = args, go, work
        self.n = 0
        self.commands = {}
        self.bins, self.lf_bins, self.lf_seeds = {}, {}, {}

    def fresh(self, tag, bug):
        self.n += 1
        d = os.path.join(self.work, "run%03d-%s" % (self.n, tag))
        pkg = copy_bug(bug, os.path.join(d, bug["name"]))
        return d, pkg, os.path.join(d, "cache")

    def note_command(self, engine, argv, d):
        if engine not in self.commands:
            self.commands[engine] = " ".join(
                a.replace(d, "RUN").replace(self.work, "WORK") for a in argv)

    # -- building and checking ------------------------------------------------

    def build(self, bug):
        """Builds bug.test; checks the crasher fails it with the signature.
        None, or why the bug cannot be timed."""
        pkg = copy_bug(bug, os.path.join(self.work, "build", bug["name"]))
        binary = os.path.join(self.work, bug["name"] + ".test")
        r = sh([self.go, "test", "-c", "-fuzz=^%s$" % bug["target"], "-o",
                binary, "."], cwd=pkg, env=go_env(bug))
        if r.returncode != 0:
            return "go test -c failed: %s" % (r.stdout + r.stderr)[-400:]
        self.bins[bug["name"]] = binary
        ok, out = self.crasher_fails(bug, binary, "build-check")
        if not ok:
            return "its crasher does not fail with /%s/:\n%s" % (
                bug["signature"], tail(out, 12))
        return None

    def crasher_fails(self, bug, binary, tag):
        d = os.path.join(self.work, tag, bug["name"])
        pkg = copy_bug(bug, d)
        corpus = os.path.join(pkg, "testdata", "fuzz", bug["target"])
        os.makedirs(corpus)
        shutil.copy(os.path.join(bug["dir"], "crasher"),
                    os.path.join(corpus, "crasher"))
        ok, out, _ = reproduce(bug, binary, pkg, "crasher")
        shutil.rmtree(d, ignore_errors=True)
        return ok, out

    def verify(self, bug):
        """--verify: the seeds alone pass, and the fixed version passes the
        crasher. The problems found."""
        problems = []
        binary = self.bins[bug["name"]]
        d = copy_bug(bug, os.path.join(self.work, "seeds-only", bug["name"]))
        r = sh([binary, "-test.count=1", "-test.timeout=60s",
                "-test.run=^%s$" % bug["target"]], cwd=d, env=go_env(bug))
        if r.returncode != 0:
            problems.append("the seeds alone fail:\n" + tail(r.stdout +
                                                             r.stderr))
        d = copy_bug(bug, os.path.join(self.work, "fixed", bug["name"]))
        if bug["module"] == "std":
            # "fixed_check": a later release with the fix, where the first
            # one is not served by the Go module proxy.
            env = go_env(bug, toolchain=bug.get("fixed_check", bug["fixed"]))
        else:
            env = go_env(bug)
            r = sh([self.go, "get", "%s@%s" % (bug["module"], bug["fixed"])],
                   cwd=d, env=env)
            if r.returncode != 0:
                problems.append("go get %s@%s failed: %s" % (
                    bug["module"], bug["fixed"], r.stderr.strip()[-300:]))
                return problems
        fixed = os.path.join(self.work, bug["name"] + ".fixed.test")
        r = sh([self.go, "test", "-c", "-o", fixed, "."], cwd=d, env=env)
        if r.returncode != 0:
            problems.append("building the fixed version failed: %s" % (
                r.stdout + r.stderr)[-300:])
            return problems
        corpus = os.path.join(d, "testdata", "fuzz", bug["target"])
        os.makedirs(corpus)
        shutil.copy(os.path.join(bug["dir"], "crasher"), corpus)
        r = sh([fixed, "-test.count=1", "-test.timeout=60s",
                "-test.run=^%s$" % bug["target"]], cwd=d, env=env)
        if r.returncode != 0:
            problems.append("the fixed version (%s) fails the crasher:\n%s"
                            % (bug["fixed"], tail(r.stdout + r.stderr)))
        return problems

    def build_libfuzzer(self, bug):
        """The bug's libFuzzer binary and seed corpus; None or why not."""
        tool, version, why = go118_tool(self.go)
        if why:
            return why
        pkg = copy_bug(bug, os.path.join(self.work, "libfuzzer",
                                         bug["name"]))
        bins, why = go118_build(self.go, tool, version, pkg,
                                bug["test_file"], [bug["target"]],
                                os.path.join(self.work, "libfuzzer"),
                                env=go_env(bug))
        if why:
            return why
        seeds = os.path.join(self.work, "seeds", bug["name"])
        problems = go118_seeds(self.args.cgofuzz, self.work, seeds,
                               bug["types"], bug["seeds"])
        if problems:
            return "seed encoding: " + "; ".join(problems)
        self.lf_bins[bug["name"]] = bins[bug["target"]]
        self.lf_seeds[bug["name"]] = seeds
        return None

    # -- one run ----------------------------------------------------------------

    def run_go_tool(self, engine, bug):
        a = self.args
        d, pkg, cache = self.fresh(engine + "-" + bug["name"], bug)
        binary, target = self.bins[bug["name"]], bug["target"]
        if engine == "go":
            argv = [binary, "-test.paniconexit0", "-test.timeout=0",
                    "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
                    "-test.fuzztime=%ds" % a.cap,
                    "-test.parallel=%d" % a.parallel,
                    "-test.fuzzcachedir=" + cache]
        else:
            argv = [a.cgofuzz, "fuzz", "-fuzz=^%s$" % target,
                    "-fuzztime=%ds" % a.cap, "-parallel=%d" % a.parallel,
                    "-fuzzcachedir=" + cache, binary]
        self.note_command(engine, argv, d)
        r = run_polled(argv, pkg, a.cap + GRACE, FOUND.search,
                       env=go_env(bug))
        m = CRASHFILE.search(r.out)
        if r.found is None:
            t, note = None, "not found (rc=%s%s)" % (
                r.rc, ", killed at the cap" if r.timed_out else "")
        elif m is None or m.group(1) != target or not os.path.isfile(
                os.path.join(pkg, "testdata", "fuzz", target, m.group(2))):
            t, note = None, "a failure, no input written: %s" % (
                failure_line(r.out))
        else:
            ok, out, rc = reproduce(bug, binary, pkg, m.group(2))
            t = r.found if ok else None
            note = ("reproduces (exit at %.1fs)" % r.wall if ok else
                    other_failure(rc, out, r.out))
        shutil.rmtree(d, ignore_errors=True)
        return t, note

    def run_libfuzzer(self, bug):
        a = self.args
        d, pkg, _ = self.fresh("libfuzzer-" + bug["name"], bug)
        corpus = os.path.join(d, "corpus")
        shutil.copytree(self.lf_seeds[bug["name"]], corpus)
        argv = [self.lf_bins[bug["name"]], "-use_value_profile=1",
                "-fork=%d" % a.parallel, "-timeout=10",
                "-max_total_time=%d" % a.cap, "-artifact_prefix=%s/" % d,
                corpus]
        self.note_command("libfuzzer", argv, d)

        def artifacts(_=None):
            return sorted((p for k in ("crash", "timeout", "oom")
                           for p in glob.glob(os.path.join(d, k + "-*"))),
                          key=os.path.getmtime)
        r = run_polled(argv, d, a.cap + 15, artifacts, env=go_env(bug))
        found = artifacts()
        if r.found is None or not found:
            t, note = None, "not found (rc=%s%s)" % (
                r.rc, ", killed at the cap" if r.timed_out else "")
        else:
            name, why = go118_to_corpus(
                a.cgofuzz, found[0], bug["types"],
                os.path.join(pkg, "testdata", "fuzz", bug["target"]))
            if name is None:
                t, note = None, why
            else:
                ok, out, rc = reproduce(bug, self.bins[bug["name"]], pkg,
                                        name)
                t = r.found if ok else None
                note = ("%s reproduces (converted)" % os.path.basename(
                    found[0]).split("-")[0] if ok else
                    other_failure(rc, out, r.out))
        shutil.rmtree(d, ignore_errors=True)
        return t, note


def summary(bugs, engines, cap, results):
    log("## summary")
    log("")
    log("median seconds to the bug (a miss counts as the cap, %d s), "
        "found/runs, each run's time; ratios of medians" % cap)
    log("")
    heads = [e + "/cgofuzz" for e in engines if e != "cgofuzz"] \
        if "cgofuzz" in engines else []
    log("| bug | kind | " + " | ".join(engines + heads) + " |")
    log("|---|---|" + "---|" * (len(engines) + len(heads)))
    stats = {e: {} for e in engines}
    for bug in bugs:
        cells, meds = summary_cells(
            lambda e: results.get((bug["name"], e), []), engines,
            {e: cap for e in engines}, heads)
        for e, m in meds.items():
            stats[e][bug["name"]] = m
        log("| %s | %s | %s |" % (bug["name"], bug["kind"],
                                  " | ".join(cells)))
    log("")
    log("`>=`: the median is the cap (most runs missed), so the real one is "
        "higher; a ratio marked `>=` or `<=` is a bound.")
    log("")
    for e in engines:
        found = [n for n, s in stats[e].items() if s[0]]
        log("- %s found %d of %d bugs (%d of %d runs)" % (
            e, len(found), len(stats[e]),
            sum(s[0] for s in stats[e].values()),
            sum(s[1] for s in stats[e].values())))
    if "cgofuzz" in engines and "go" in engines:
        criteria(stats)


def criteria(stats):
    """Issue 26's Go criteria, each printed with its verdict."""
    c, g = stats["cgofuzz"], stats["go"]
    both = [n for n in g if n in c]
    go_found = [n for n in both if g[n][0]]
    go_missed = [n for n in both if not g[n][0]]
    log("")
    log("issue 26's criteria (cgofuzz against go):")
    log("")
    worse = [n for n in go_found if c[n][0] < g[n][0]]
    log("- every bug go finds, cgofuzz finds in at least as many runs: %s%s"
        % ("PASS" if not worse else "FAIL", "" if not worse else
           " (not so for %s)" % ", ".join(worse)))
    rs = [c[n][2] / g[n][2] for n in go_found if g[n][2] > 0]
    if rs:
        med = statistics.median(rs)
        log("- median over the %d bugs go finds of (cgofuzz's median time / "
            "go's): %.2fx (%s; goal <= 0.5x): %s" % (
                len(rs), med, ", ".join("%.2f" % x for x in rs),
                "PASS" if med <= 0.5 else "FAIL"))
    got = [n for n in go_missed if c[n][0]]
    log("- of the %d bugs go misses, cgofuzz finds %d (%s; goal: at least "
        "half): %s" % (len(go_missed), len(got), ", ".join(got) or "none",
                       "PASS" if 2 * len(got) >= len(go_missed) else "FAIL"))
    neither = [n for n in go_missed if not c[n][0]]
    if neither:
        log("- found by neither: %s (docs/benchmarks.md says why)" %
            ", ".join(neither))


RUN_ROW = re.compile(r"^\| ([\w.-]+) \| (cgofuzz|go|libfuzzer) \| (\d+) \| "
                     r"(miss|[\d.]+) \| (.*) \|$")
CAP_LINE = re.compile(r"^- settings: .*; cap (\d+) s for every engine")


def summarize(args):
    """--summarize: the summary of the runs rows of several reports, as a
    full run would print it (the engines are those that have runs). A bug
    and engine's runs come from the last report, in the order given, that
    has runs of them: a rerun supersedes (a bug entry mended after its
    runs, a run taken again whole)."""
    results, caps, sources = {}, set(), []
    for path in args.summarize:
        n, mine = 0, {}
        with open(path) as f:
            for line in f:
                m = CAP_LINE.match(line)
                if m:
                    caps.add(int(m.group(1)))
                m = RUN_ROW.match(line.rstrip("\n"))
                if m:
                    t = None if m.group(4) == "miss" else float(m.group(4))
                    mine.setdefault((m.group(1), m.group(2)), []).append(t)
                    n += 1
        if n == 0:
            sys.exit("%s: no runs rows" % path)
        replaced = sorted({b for b, e in mine if (b, e) in results})
        results.update(mine)
        sources.append("%s (%d runs%s)" % (
            os.path.relpath(path, ROOT), n,
            "; replacing earlier runs of " + ", ".join(replaced)
            if replaced else ""))
    if len(caps) != 1:
        sys.exit("the reports' caps differ or are missing: %s" % sorted(caps))
    cap = caps.pop()
    names = {n for n, _ in results}
    bugs = [b for b in read_bugs() if b["name"] in names]
    unknown = names - {b["name"] for b in bugs}
    if unknown:
        sys.exit("runs of bugs not in bench/gobugs: %s" % ", ".join(
            sorted(unknown)))
    engines = [e for e in ENGINES if any(k[1] == e for k in results)]
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "gobugs",
                                "%s-gobugs-summary.md" %
                                datetime.date.today().isoformat())
    log("# gobugs: summary of runs taken in parts (issue 26)")
    log("")
    log("- date: %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    log("- from: " + "; ".join(sources))
    log("")
    summary(bugs, engines, cap, results)
    write_report(args.out)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="--quick: 1 run, 20 s caps, engines cgofuzz,go; explicit "
        "options win.")
    ap.add_argument("--quick", action="store_true", help="a 10-minute taste")
    ap.add_argument("--bugs", type=lambda s: s.split(","),
                    help="comma-separated bug names (default: all)")
    ap.add_argument("--engines", type=lambda s: s.split(","),
                    help="comma-separated, from %s (default: all)" %
                    ",".join(ENGINES))
    ap.add_argument("--runs", type=int, help="runs per engine (default 3)")
    ap.add_argument("--cap", type=int, help="seconds per run (default 300)")
    ap.add_argument("--parallel", type=int, default=2,
                    help="workers of each engine (default 2)")
    ap.add_argument("--verify", action="store_true",
                    help="only check the bugs: the crasher fails the pinned "
                    "version with the signature, the seeds alone pass, the "
                    "fixed version passes the crasher")
    ap.add_argument("--summarize", nargs="+", metavar="REPORT",
                    help="time nothing: the summary and criteria of the runs "
                    "tables of earlier reports (a full run taken in parts); "
                    "their caps must agree")
    ap.add_argument("--wait-pid", type=int, metavar="PID",
                    help="build now, but start the timed runs only after "
                    "process PID has ended (another benchmark on the "
                    "machine: the builds may overlap it, the runs must not)")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--out", help="the markdown report (default "
                    "bench/results/gobugs/<date>-gobugs[-quick].md)")
    args = ap.parse_args()
    q = args.quick
    for name, full, quick in (("runs", 3, 1), ("cap", 300, 20),
                              ("engines", ENGINES, ["cgofuzz", "go"])):
        if getattr(args, name) is None:
            setattr(args, name, quick if q else full)
    bad = [e for e in args.engines if e not in ENGINES]
    if bad:
        ap.error("unknown engine %s (have: %s)" % (",".join(bad),
                                                   ",".join(ENGINES)))
    if args.summarize:
        summarize(args)
        return
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    if not os.access(args.cgofuzz, os.X_OK):
        sys.exit("%s is not an executable: build cgofuzz or give --cgofuzz"
                 % args.cgofuzz)
    if not args.out and not args.verify:
        args.out = os.path.join(ROOT, "bench", "results", "gobugs", "%s-gobugs%s.md" % (
            datetime.date.today().isoformat(), "-quick" if q else ""))
    go = shutil.which("go") or "/usr/local/go/bin/go"
    if not os.access(go, os.X_OK):
        sys.exit("go is not installed")
    bugs = read_bugs(args.bugs)
    work = tempfile.mkdtemp(prefix="cgofuzz-gobugs-bench-")
    try:
        if args.verify:
            verify_all(args, go, work, bugs)
        else:
            time_all(args, go, work, bugs)
    finally:
        kill_running()
        shutil.rmtree(work, ignore_errors=True)
        if args.out:
            write_report(args.out)


def verify_all(args, go, work, bugs):
    b = Bench(args, go, work)
    bad = 0
    for bug in bugs:
        why = b.build(bug)
        problems = [why] if why else b.verify(bug)
        bad += bool(problems)
        print("%-40s %s" % (bug["name"], "ok" if not problems else
                            "FAILED\n" + "\n".join(problems)), flush=True)
    sys.exit(1 if bad else 0)


def time_all(args, go, work, bugs):
    b = Bench(args, go, work)
    engines = list(args.engines)
    log("# gobugs: time to real bugs fixed upstream (issue 26)")
    log("")
    header(args, go, True)
    log("- settings: %d runs per engine and bug, engines alternating; "
        "-parallel %d; cap %d s for every engine; a miss counts as the cap"
        % (args.runs, args.parallel, args.cap))
    log("")
    log("## bugs")
    log("")
    log("| bug | module | with the bug | fixed in | target | kind | "
        "source |")
    log("|---|---|---|---|---|---|---|")
    for bug in bugs:
        log("| %s | %s | %s | %s | %s (%s) | %s | %s |" % (
            bug["name"], bug["module"], bug["buggy"], bug["fixed"],
            bug["target"], bug["target_origin"], bug["kind"],
            ", ".join(bug["source"][:2])))
    log("")
    ready, lf_skip = [], {}
    for bug in bugs:
        why = b.build(bug)
        if why:
            log("**%s: not timed**: %s" % (bug["name"], why))
            continue
        ready.append(bug)
        if "libfuzzer" in engines:
            why = b.build_libfuzzer(bug)
            if why:
                lf_skip[bug["name"]] = why
    log("build: `go test -c -fuzz=^T$ -o bug.test .` in a copy of "
        "bench/gobugs/<bug> (GOTOOLCHAIN as bug.json's \"go\"); each "
        "crasher checked to fail it with the bug's signature")
    if "libfuzzer" in engines:
        log("libFuzzer: go-118-fuzz-build -func T (its testing package in "
            "place of the test file's), clang -fsanitize=fuzzer (%s); the "
            "f.Add seeds in go-fuzz-headers' layout" % clang_version())
        for n, why in lf_skip.items():
            log("- libFuzzer skipped for %s: %s" % (n, why.splitlines()[0]))
    if args.wait_pid:
        t0 = time.monotonic()
        while os.path.exists("/proc/%d" % args.wait_pid):
            time.sleep(2)
        log("- the runs started after process %d ended (%.0f s after the "
            "builds; the builds overlapped it)" % (
                args.wait_pid, time.monotonic() - t0))
    log("")
    log("## runs")
    log("")
    log("| bug | engine | run | time (s) | verdict |")
    log("|---|---|---|---|---|")
    results = {}
    try:
        for bug in ready:
            mine = [e for e in engines
                    if not (e == "libfuzzer" and bug["name"] in lf_skip)]
            if not mine:  # only libFuzzer asked for, and it does not build
                continue
            for i in range(args.runs):
                k = i % len(mine)
                for e in mine[k:] + mine[:k]:
                    if e == "libfuzzer":
                        t, note = b.run_libfuzzer(bug)
                    else:
                        t, note = b.run_go_tool(e, bug)
                    log("| %s | %s | %d | %s | %s |" % (
                        bug["name"], e, i + 1, fmt_time(t),
                        note.replace("|", "\\|")))
                    results.setdefault((bug["name"], e), []).append(t)
    except KeyboardInterrupt:
        log("")
        log("**interrupted**: the summary covers the runs above")
    log("")
    summary(ready, engines, args.cap, results)
    log("")
    log("## commands")
    log("")
    log("RUN/<bug> is a fresh copy of bench/gobugs/<bug>; WORK the bench's "
        "temporary directory")
    log("")
    for e, c in b.commands.items():
        log("- %s: `%s`" % (e, c))
    log("- check: `bug.test -test.run=^T$/^NAME$` in the run's copy, output "
        "matched against bug.json's signature (go-118-fuzz-build %s)" % G118)


if __name__ == "__main__":
    main()

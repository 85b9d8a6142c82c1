#!/usr/bin/env python3
"""Real bugs fixed upstream in Go modules and in older standard libraries
(issue 26): time until `cgofuzz fuzz`, `go test -fuzz`, libFuzzer (through
go-118-fuzz-build) and gosentry (LibAFL under its `go test -fuzz`) first
trigger each one.

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
  gosentry   GOSENTRY/bin/go test -fuzz=^T$ -timeout=0 --focus-on-new-code=false
             --catch-races=false --catch-leaks=false [--libafl-config=CFG] .
             with the toolchain --gosentry names (a directory with the
             peer.json describing a gosentry built outside this tree by its
             own README, bench/README.md): go test
             builds the target as a c-archive with Go's libFuzzer
             instrumentation and cargo links gosentry's LibAFL runner
             (golibafl) against it, then runs it; CFG gives it
             {"cores": "0,...,P-1"} for -parallel P > 1 (one LibAFL client
             per core; one client is its default). It has no time limit of
             its own: the cap counts from the runner's start (cargo's
             "Running `target/release/golibafl fuzz ..."), SIGINT at the
             cap. Not for the standard-library bugs (bug.json's "go"):
             gosentry is a Go toolchain of its own.

bug.test is built once per bug with `go test -c -fuzz=^T$`; every run starts
in a fresh copy of the bug's directory with a fresh fuzz cache, no seed
pinned, and each engine's defaults otherwise (cgofuzz and go: no memory
limit; hang timer: the Go release's, which go itself lacks before 1.27). A
run's time is the wall time from its start until a failure shows (go test's
"fuzz: minimizing" or "--- FAIL"; libFuzzer's crash-, timeout- or oom- file);
it counts only when the failing input the engine wrote, re-run with
`bug.test -test.run=^T$/^NAME$` in the run's copy, fails with output matching
the bug's signature (libFuzzer's file first goes through `cgofuzz corpus
convert -from go118`; gosentry's, the first file in its LibAFL output
directory's crashes/ or hangs/ (under GOCACHE/fuzz/<package>/libafl/), is
decoded as gosentry's testing package decodes inputs into arguments and
written as a go test fuzz v1 file). gosentry's time runs from its runner's
start to that file's appearance. A failure that is another bug, or an input not written
(go test -fuzz does not write hangs), is not counted; a run without a counted
failure counts as the cap.

Writes a markdown report (bench/results/gobugs/<date>-gobugs.md; -quick with
--quick: one run per engine, 20 s caps, cgofuzz and go only). Python 3
stdlib, Linux; needs go on PATH (and the Go module proxy), a built cgofuzz,
for libFuzzer clang, and for gosentry a build of it outside this tree,
described by a peer.json (bench/README.md).
"""
import argparse
import datetime
import glob
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import (G118, ROOT, RUNNING, clang_version,  # noqa: E402
                      fmt_time, fuzz_signature, go118_build, go118_seeds,
                      go118_to_corpus, go118_tool, go_corpus_file, header,
                      kill_running, kill_session, log, require_cgofuzz,
                      run_polled, settle_args, sh, start_session,
                      summary_cells, tail, write_report)

BUGS = os.path.join(ROOT, "bench", "gobugs")
ENGINES = ["cgofuzz", "go", "libfuzzer", "gosentry"]
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
# gosentry: where its builds are looked for (the newest
# peer.json there is the default --gosentry), how long go test may take to
# build the harness and link golibafl before the runner starts, and the
# line cargo prints as it starts the runner (the cap counts from there).
GOSENTRY_PEERS = "/tmp/cgofuzz-peers"
GOSENTRY_BUILD_LIMIT = 1800
GOSENTRY_START = re.compile(r"^\s*Running `\S*golibafl\S* fuzz", re.M)
GOSENTRY_FLAGS = ["--focus-on-new-code=false", "--catch-races=false",
                  "--catch-leaks=false"]


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
    env = go_env(bug)
    if bug["kind"] == "hang":
        # The test timeout's report may show the hung goroutine as "running
        # on other thread; stack unavailable" (its signature then missing:
        # 1 re-run in 3 of x/net/html's crasher); with GOTRACEBACK=crash
        # every thread is stopped and shown (4 of 4).
        env = dict(env or os.environ, GOTRACEBACK="crash")
    try:
        r = subprocess.run(argv, cwd=pkg, env=env,
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


def load_gosentry(path):
    """The gosentry build that path names (a peer.json or its directory;
    None: the newest under GOSENTRY_PEERS): (its peer.json as a dict,
    None) or (None, why it cannot run)."""
    if path is None:
        found = sorted(glob.glob(os.path.join(GOSENTRY_PEERS, "gosentry-*",
                                              "peer.json")),
                       key=os.path.getmtime)
        if not found:
            return None, ("not built: no %s/gosentry-*/peer.json (build "
                          "gosentry by its README and describe it: "
                          "bench/README.md)" % GOSENTRY_PEERS)
        path = found[-1]
    if not path.endswith(".json"):
        path = os.path.join(path, "peer.json")
    if not os.path.exists(path):
        return None, ("not built: no %s (bench/README.md says what it "
                      "holds)" % path)
    try:
        with open(path) as f:
            gs = json.load(f)
    except (OSError, ValueError) as e:
        return None, "not built: %s" % e
    if "smoke" not in gs.get("steps", {}):
        return None, "not built: %s records no passing smoke step" % path
    env = gosentry_env(gs, None)
    r = sh([gs["go"], "version"], env=env)
    if r.returncode != 0:
        return None, "not built: %s version: %s" % (
            gs["go"], (r.stdout + r.stderr).strip()[-200:])
    gs["version"] = r.stdout.strip()
    gs["file"] = path
    return gs, None


def gosentry_env(gs, bug):
    """The environment of a gosentry go test: the bug's, with its own
    toolchain forced (GOTOOLCHAIN=local), cargo's home and the GOCACHE of
    its build (peer.json's env), its go and rustup's cargo first on PATH."""
    env = go_env(bug, toolchain="local") if bug else dict(os.environ)
    env.pop("GOROOT", None)
    env.update(gs["env"])
    env["PATH"] = os.pathsep.join(gs["path"] + [env.get("PATH", "")])
    return env


def gosentry_decode(types, data):
    """The arguments gosentry's testing package (libaflUnmarshalArgs)
    passes the fuzz function for the LibAFL input data: a lone []byte or
    string is the input itself (a string cut at 1 MiB); otherwise each
    argument in turn, strings and []byte as a uvarint length (cut to what
    is left) and the bytes, integers little-endian, missing bytes zero."""
    maxlen = 1 << 20
    if types == ["[]byte"]:
        return [data]
    if types == ["string"]:
        return [data[:maxlen]]
    pos = 0

    def take(n):
        nonlocal pos
        b = data[pos:pos + max(n, 0)]
        pos += len(b)
        return b

    def uvarint():
        # encoding/binary.Uvarint; a bad one consumes a byte and reads 0.
        nonlocal pos
        if pos >= len(data):
            return 0
        x = s = 0
        for i, c in enumerate(data[pos:]):
            if i == 10 or (i == 9 and c > 1 and c < 0x80):
                break
            if c < 0x80:
                pos += i + 1
                return x | c << s
            x |= (c & 0x7f) << s
            s += 7
        pos += 1
        return 0

    sizes = {"int": 8, "int64": 8, "uint": 8, "uint64": 8, "int32": 4,
             "uint32": 4, "rune": 4, "int16": 2, "uint16": 2, "int8": 1,
             "uint8": 1, "byte": 1}
    vals = []
    for t in types:
        if t in ("[]byte", "string"):
            n = min(uvarint(), len(data) - pos, maxlen)
            vals.append(take(n))
        elif t in sizes:
            n = sizes[t]
            v = int.from_bytes(take(n).ljust(n, b"\0"), "little")
            if not t.startswith("u") and t != "byte" and v >> (8 * n - 1):
                v -= 1 << (8 * n)
            vals.append(v)
        else:
            raise ValueError("type %s is not decoded here" % t)
    return vals


# gosentry's runner gave up (say, the fuzz function failed before f.Fuzz:
# LibAFL's clients then wait without an exec until they are stopped).
GOSENTRY_DIED = r"^golibafl: .*"


def failure_line(out):
    """The line that says what failed, for a report row."""
    for pat in (r"^panic: .*", r"^fatal error: .*", r"^\s*\w[^\n]*\.go:\d+: .*",
                r"fuzzing process .*",
                r"^Found \d+ (?:crashing|hanging) input\(s\)\.",  # gosentry
                GOSENTRY_DIED):
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
        self.gs, self.gs_why = None, None
        if "gosentry" in (args.engines or []):
            self.gs, self.gs_why = load_gosentry(args.gosentry)

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


    def gosentry_skip(self, bug):
        """Why gosentry does not run on bug, or None."""
        if self.gs is None:
            return self.gs_why
        if bug["go"]:
            return ("n/a: a bug of %s's standard library; gosentry is a Go "
                    "toolchain of its own (%s)" % (
                        bug["go"], " ".join(self.gs["version"].split()[2:3])))
        return None

    def run_gosentry(self, bug):
        a, gs = self.args, self.gs
        d, pkg, _ = self.fresh("gosentry-" + bug["name"], bug)
        target = bug["target"]
        env = gosentry_env(gs, bug)
        with open(os.path.join(pkg, "go.mod")) as f:
            module = re.search(r"^module\s+(\S+)", f.read(), re.M).group(1)
        # go test keeps LibAFL's campaign (input/, queue/, crashes/, hangs/)
        # in GOCACHE/fuzz/<package>/libafl/<module dir>-<hash>/<target>/ and
        # resumes it on a rerun: each run starts without one.
        libafl = os.path.join(env["GOCACHE"], "fuzz", module, "libafl")
        shutil.rmtree(libafl, ignore_errors=True)
        argv = [gs["go"], "test", "-fuzz=^%s$" % target, "-timeout=0"] + \
            GOSENTRY_FLAGS
        if a.parallel > 1:
            cfg = os.path.join(d, "libafl.jsonc")
            with open(cfg, "w") as f:
                json.dump({"cores": ",".join(str(i) for i in
                                             range(a.parallel))}, f)
            argv.append("--libafl-config=" + cfg)
        argv.append(".")
        self.note_command("gosentry", argv, d)
        r = run_gosentry_polled(argv, pkg, env, a.cap, libafl, target)
        if r.start is None:
            t, note = None, "the runner did not start in %d s (rc=%s): %s" % (
                GOSENTRY_BUILD_LIMIT, r.rc, failure_line(r.out))
        elif not r.inputs:
            t, note = None, "not found (rc=%s%s; runner started at %.1fs)" % (
                r.rc, ", stopped at the cap" if r.timed_out else "", r.start)
        else:
            name = "gosentry-" + os.path.basename(r.inputs[0])
            corpus = os.path.join(pkg, "testdata", "fuzz", target)
            os.makedirs(corpus, exist_ok=True)
            try:
                with open(r.inputs[0], "rb") as f:
                    values = gosentry_decode(bug["types"], f.read())
                with open(os.path.join(corpus, name), "w") as f:
                    f.write(go_corpus_file(bug["types"], values))
            except (OSError, ValueError) as e:
                values, why = None, "%s cannot be read back: %s" % (
                    r.inputs[0], e)
            if values is None:
                t, note = None, why
            else:
                ok, out, rc = reproduce(bug, self.bins[bug["name"]], pkg,
                                        name)
                t = r.found if ok else None
                kind = os.path.basename(os.path.dirname(r.inputs[0]))
                note = ("%s/ input reproduces (decoded; runner started at "
                        "%.1fs, exit at %.1fs)" % (kind, r.start, r.wall)
                        if ok else "its %s/ input: %s" % (
                            kind, other_failure(rc, out, r.out)))
        shutil.rmtree(libafl, ignore_errors=True)
        shutil.rmtree(d, ignore_errors=True)
        return t, note


def run_gosentry_polled(argv, cwd, env, cap, libafl, target):
    """Runs gosentry's go test -fuzz in a session of its own, output to a
    file in cwd, polled as run_polled does once the runner has started
    (cargo's Running line; GOSENTRY_BUILD_LIMIT before that): .start is
    that time from launch, .found the time from .start until the first
    file shows in the campaign's crashes/ or hangs/, .inputs those files
    (oldest first). SIGINT to the session at the cap (go test passes it on
    to the runner's process group), SIGKILL to all of it 15 s later and
    at the end. .wall, .rc, .out, .timed_out."""
    outp = os.path.join(cwd, ".bench.out")
    r = type("Run", (), {})()
    r.start = r.found = None
    r.timed_out, r.inputs = False, []
    campaign = None

    def inputs():
        files = []
        for k in ("crashes", "hangs"):
            dd = os.path.join(campaign, k)
            try:
                names = os.listdir(dd)
            except OSError:
                continue
            files += [os.path.join(dd, n) for n in names
                      if not n.startswith(".") and
                      os.path.isfile(os.path.join(dd, n))]
        return sorted(files, key=os.path.getmtime)

    p, t0 = start_session(argv, cwd, outp, env)
    size, killed = -1, 0
    try:
        while p.poll() is None:
            now = time.monotonic() - t0
            if r.start is None:
                sz = os.path.getsize(outp)
                if sz != size:
                    size = sz
                    with open(outp, errors="replace") as f:
                        if GOSENTRY_START.search(f.read()):
                            r.start = now
                if r.start is None and now > GOSENTRY_BUILD_LIMIT:
                    break
            if campaign is None:
                found = glob.glob(os.path.join(libafl, "*", target))
                campaign = found[0] if len(found) == 1 else None
            since = None if r.start is None else now - r.start
            if since is not None and r.found is None and campaign and \
                    inputs():
                r.found = since
            if since is not None and since > cap and killed == 0:
                r.timed_out = True
                kill_session(p.pid, signal.SIGINT)
                killed = 1
            elif since is not None and since > cap + 15 and killed == 1:
                kill_session(p.pid)
                killed = 2
            t = since if since is not None else 0
            time.sleep(0.005 if t < 1 else 0.02 if t < 10 else 0.05)
    finally:
        if p.poll() is None:
            kill_session(p.pid, signal.SIGINT)
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                pass
        kill_session(p.pid)  # the runner's process group, if left
        p.wait()
        RUNNING[:] = []
    r.wall = time.monotonic() - t0
    r.rc = p.returncode
    with open(outp, errors="replace") as f:
        r.out = f.read()
    if campaign is None:
        m = re.search(r"^libafl output dir:\s+(\S+)", r.out, re.M)
        campaign = m.group(1) if m else None
    if r.start is None and GOSENTRY_START.search(r.out):
        r.start = r.wall  # started and ended between two polls
    if campaign:
        r.inputs = inputs()
        if r.inputs and r.found is None and r.start is not None:
            r.found = r.wall - r.start
    return r


def summary(bugs, engines, cap, results, gaps=None):
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
        for k, e in enumerate(engines):
            why = (gaps or {}).get((bug["name"], e))
            if why and not cells[k]:
                cells[k] = "%s (no runs)" % why.split(":")[0]
        for e, m in meds.items():
            stats[e][bug["name"]] = m
        log("| %s | %s | %s |" % (bug["name"], bug["kind"],
                                  " | ".join(cells)))
    log("")
    log("`>=`: the median is the cap (most runs missed), so the real one is "
        "higher; a ratio marked `>=` or `<=` is a bound.")
    if gaps:
        log("`n/a`, `not built` (no runs): the engine was not run on the "
            "bug; the runs table says why.")
    log("")
    for e in engines:
        found = [n for n, s in stats[e].items() if s[0]]
        gap = sorted(n for n, g in (gaps or {}) if g == e and
                     n not in stats[e])
        log("- %s found %d of %d bugs (%d of %d runs)%s" % (
            e, len(found), len(stats[e]),
            sum(s[0] for s in stats[e].values()),
            sum(s[1] for s in stats[e].values()),
            "; not run on %d: %s" % (len(gap), ", ".join(gap))
            if gap else ""))
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


RUN_ROW = re.compile(r"^\| ([\w.-]+) \| (cgofuzz|go|libfuzzer|gosentry) \| "
                     r"(\d+) \| (miss|[\d.]+) \| (.*) \|$")
# A bug an engine was not run on (a peer not built, a bug it cannot take):
# no run, no time, and why.
GAP_ROW = re.compile(r"^\| ([\w.-]+) \| (gosentry) \| - \| - \| (.*) \|$")
CAP_LINE = re.compile(r"^- settings: .*; cap (\d+) s for every engine")


def summarize(args):
    """--summarize: the summary of the runs rows of several reports, as a
    full run would print it (the engines are those that have runs). A bug
    and engine's runs come from the last report, in the order given, that
    has runs of them: a rerun supersedes (a bug entry mended after its
    runs, a run taken again whole). Runs whose numbers are all new for
    that bug and engine are another round (--first-run) and join those
    held."""
    results, caps, sources, gaps, numbers = {}, set(), [], {}, {}
    for path in args.summarize:
        n, mine, mine_no = 0, {}, {}
        with open(path) as f:
            for line in f:
                m = CAP_LINE.match(line)
                if m:
                    caps.add(int(m.group(1)))
                m = GAP_ROW.match(line.rstrip("\n"))
                if m:
                    gaps[(m.group(1), m.group(2))] = m.group(3)
                m = RUN_ROW.match(line.rstrip("\n"))
                if m:
                    t = None if m.group(4) == "miss" else float(m.group(4))
                    key = (m.group(1), m.group(2))
                    mine.setdefault(key, []).append(t)
                    mine_no.setdefault(key, set()).add(int(m.group(3)))
                    n += 1
        if n == 0:
            sys.exit("%s: no runs rows" % path)
        replaced, joined = set(), set()
        for key, times in mine.items():
            if key in results and numbers[key].isdisjoint(mine_no[key]):
                results[key] = results[key] + times
                numbers[key] |= mine_no[key]
                joined.add(key[0])
                continue
            if key in results:
                replaced.add(key[0])
            results[key], numbers[key] = times, mine_no[key]
        sources.append("%s (%d runs%s%s)" % (
            os.path.relpath(path, ROOT), n,
            "; replacing earlier runs of " + ", ".join(sorted(replaced))
            if replaced else "",
            "; joining the earlier rounds of %d bugs" % len(joined)
            if joined else ""))
    if len(caps) != 1:
        sys.exit("the reports' caps differ or are missing: %s" % sorted(caps))
    cap = caps.pop()
    gaps = {k: v for k, v in gaps.items() if k not in results}
    names = {n for n, _ in results} | {n for n, _ in gaps}
    bugs = [b for b in read_bugs() if b["name"] in names]
    unknown = names - {b["name"] for b in bugs}
    if unknown:
        sys.exit("runs of bugs not in bench/gobugs: %s" % ", ".join(
            sorted(unknown)))
    engines = [e for e in ENGINES if any(k[1] == e for k in results) or
               any(k[1] == e for k in gaps)]
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "gobugs",
                                "%s-gobugs-summary.md" %
                                datetime.date.today().isoformat())
    log("# gobugs: summary of runs taken in parts (issue 26)")
    log("")
    log("- date: %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    log("- from: " + "; ".join(sources))
    log("")
    summary(bugs, engines, cap, results, gaps)
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
    ap.add_argument("--first-run", type=int, default=1, metavar="N",
                    help="number the runs from N (a round taken on its own "
                    "day: --runs 1 --first-run 3 is the third; the engines' "
                    "order turns with the number, and --summarize joins "
                    "rounds whose numbers differ)")
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
    ap.add_argument("--gosentry", metavar="DIR",
                    help="gosentry's build: a directory with the peer.json "
                    "describing a gosentry build, bench/README.md (default: the newest "
                    "%s/gosentry-*)" % GOSENTRY_PEERS)
    ap.add_argument("--out", help="the markdown report (default "
                    "bench/results/gobugs/<date>-gobugs[-quick].md)")
    args = ap.parse_args()
    q = args.quick
    settle_args(ap, args, (("runs", 3, 1), ("cap", 300, 20),
                           ("engines", ENGINES, ["cgofuzz", "go"])), ENGINES)
    if args.summarize:
        summarize(args)
        return
    args.cgofuzz = require_cgofuzz(args.cgofuzz)
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
    if "gosentry" in engines:
        if b.gs:
            st = b.gs.get("steps", {})
            log("- gosentry: %s at %s (%s; LibAFL-git-aware %s; %s), built "
                "%s into %s" % (
                    b.gs["repo"], b.gs["commit"][:12], b.gs["version"],
                    b.gs["libafl_commit"][:12],
                    st.get("cargo-fetch", {}).get("rustc", "rustc ?"),
                    st.get("smoke", {}).get("at", "?"),
                    os.path.dirname(b.gs["file"])))
        else:
            log("- gosentry: %s" % b.gs_why)
    log("- settings: %d runs per engine and bug%s, engines alternating; "
        "-parallel %d; cap %d s for every engine; a miss counts as the cap"
        % (args.runs, " (numbered from %d)" % args.first_run
           if args.first_run > 1 else "", args.parallel, args.cap))
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
    ready, lf_skip, gaps = [], {}, {}
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
        if "gosentry" in engines:
            why = b.gosentry_skip(bug)
            if why:
                gaps[(bug["name"], "gosentry")] = why
    log("build: `go test -c -fuzz=^T$ -o bug.test .` in a copy of "
        "bench/gobugs/<bug> (GOTOOLCHAIN as bug.json's \"go\"); each "
        "crasher checked to fail it with the bug's signature")
    if "libfuzzer" in engines:
        log("libFuzzer: go-118-fuzz-build -func T (its testing package in "
            "place of the test file's), clang -fsanitize=fuzzer (%s); the "
            "f.Add seeds in go-fuzz-headers' layout" % clang_version())
        for n, why in lf_skip.items():
            log("- libFuzzer skipped for %s: %s" % (n, why.splitlines()[0]))
    if "gosentry" in engines:
        log("gosentry: its own `go test -fuzz` per run (it builds the "
            "harness and links its LibAFL runner each time; the cap and the "
            "time count from the runner's start); its failing input decoded "
            "and re-run with the bug.test above; a bug it is not run on has "
            "a row with `-` saying why")
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
                    if not (e == "libfuzzer" and bug["name"] in lf_skip)
                    and (bug["name"], e) not in gaps]
            for e in engines:
                if (bug["name"], e) in gaps:
                    log("| %s | %s | - | - | %s |" % (
                        bug["name"], e,
                        gaps[(bug["name"], e)].replace("|", "\\|")))
            if not mine:  # only peers asked for, and none runs on it
                continue
            for i in range(args.first_run - 1,
                           args.first_run - 1 + args.runs):
                k = i % len(mine)
                for e in mine[k:] + mine[:k]:
                    if e == "libfuzzer":
                        t, note = b.run_libfuzzer(bug)
                    elif e == "gosentry":
                        t, note = b.run_gosentry(bug)
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
    summary(ready, engines, args.cap, results, gaps)
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
    if "gosentry" in b.commands:
        log("- gosentry's environment: GOTOOLCHAIN=local, and peer.json's "
            "env (its CARGO_HOME, GOCACHE, CARGO_NET_OFFLINE=true)")


if __name__ == "__main__":
    main()

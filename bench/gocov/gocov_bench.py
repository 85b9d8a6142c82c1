#!/usr/bin/env python3
"""Coverage over time on real Go fuzz targets of popular modules (issue
38): `cgofuzz fuzz`, `go test -fuzz`, libFuzzer (through go-118-fuzz-build)
and gosentry (LibAFL under its `go test -fuzz`) side by side, every corpus
counted by one independent coverage build.

bench/gocov/<name>/target.json names one target: a module pinned to a
version (fetched from the Go module proxy with `go mod download`, nothing
of it kept in this tree), the package, the module's OWN fuzz function
(`target`, in `test_file`, used as the module zip has it) and its argument
types (one []byte or string), and for libFuzzer which declarations of the
test file go-118-fuzz-build gets (`libfuzzer`: see libfuzzer_source).

Per target, once: the module is copied out of the module cache and built
there: the fuzzing binary (`go test -c -fuzz=^T$`, run by cgofuzz and go),
the counting binary (`go test -c -cover -covermode=set -coverpkg=PKGS`,
PKGS the package and the module's packages it imports), and for libFuzzer
the go-118-fuzz-build archive linked by clang -fsanitize=fuzzer. The seeds
every engine starts from are the function's own (its f.Add values and the
module's testdata/fuzz/<T> files); libFuzzer gets them in go-fuzz-headers'
layout, read out of a `cgofuzz compile-go-fuzzer` launcher of the package
(its payload lists them).

Engines, alternating run by run (the order rotates), each in a fresh copy
of the package (gosentry: of the module) with a fresh cache and corpus,
-parallel P:

  cgofuzz    cgofuzz fuzz -fuzz=^T$ -fuzztime=CAP -parallel=P
             -fuzzcachedir=DIR T.test
  go         T.test -test.fuzz=^T$ -test.run=^T$ -test.fuzztime=CAP
             -test.parallel=P -test.fuzzcachedir=DIR
  libfuzzer  T.libfuzzer -use_value_profile=1 -fork=P -timeout=10
             -close_fd_mask=1 -max_total_time=CAP CORPUS (gobugs's command
             line; -close_fd_mask=1 drops the harness's stdout: go-118-
             fuzz-build's t.Log prints every exec)
  gosentry   its go test -fuzz=^T$ -timeout=0 (gobugs_bench.py's flags and
             --libafl-config); the cap counts from its runner's start

The corpus an engine keeps (cgofuzz's and go's DIR/<T>/, libFuzzer's
CORPUS, gosentry's LibAFL queue/) is listed every second: each new file is
copied to the run's directory with the time it was first seen (from the
engine's start; gosentry: from its runner's start). Files written after
the cap while the engine stops count at the cap. Failing inputs an engine
writes elsewhere (testdata/fuzz, crash-* files, crashes/) are not corpus.
libFuzzer's files are converted with `cgofuzz corpus convert -from go118`
(a file go-118-fuzz-build would not pass to the function is dropped),
gosentry's decoded as its testing package decodes them.

Coverage at snapshot time S (--snapshots, and the cap) is the statements
of PKGS covered by the seeds and the files first seen by S, as the
counting binary reports them: `T.cov.test -test.run=^T$ -test.v
-test.coverprofile=F` in a copy of the package with the files in
testdata/fuzz/<T>/; covered statements = the statements of the blocks
with a count > 0, each block once. The same binary counts every engine.
Each interval's new files are replayed once and the covered blocks
united with the earlier ones'. A file that kills the replay (a panic, a
fatal error, a hang past -test.timeout: no profile is written) is found
from the last `=== RUN T/<name>` line, left out and the rest replayed (a
batch whose culprit is not named is halved); an input that only fails
(t.Fatal) keeps its coverage. The report lists the inputs left out.

Writes a markdown report (bench/results/gocov/<date>-gocov.md): the
targets, every run (statements covered at each snapshot, the corpus
size, execs), per target and engine the median at each snapshot, and the
ratio cgofuzz / best peer at the cap with issue 38's criterion (>= 1.1x).
--summarize joins the runs tables of reports taken in parts; --union
counts what each engine's kept corpora cover together. --quick: 1
run, 20 s caps, cgofuzz and go, uuid-parse and dnsmessage-unpackpack.
Python 3 stdlib, Linux; go on PATH (and the module proxy), a built
cgofuzz, clang for libFuzzer, a gosentry build described by a peer.json
for gosentry (bench/README.md).
"""
import argparse
import datetime
import glob
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gobugs"))
from benchlib import (CACHE, G118, ROOT, clang_version,  # noqa: E402
                      fuzz_signature, go118_build, go118_seeds, go118_tool,
                      go_corpus_file, header, kill_running, log, note,
                      require_cgofuzz, run_polled, settle_args, sh,
                      write_report)
import gobugs_bench as gb  # noqa: E402  (engines shared with gobugs)

ENGINES = gb.ENGINES
SNAPSHOTS = [10, 30, 60, 120, 300]
QUICK_TARGETS = ["uuid-parse", "dnsmessage-unpackpack"]
POLL = 1.0  # seconds between two listings of an engine's corpus
STD = {"go": ""}  # gobugs's go_env for a module target (GOTOOLCHAIN=local)
KEYS = ("name", "module", "version", "package", "target", "types",
        "test_file", "origin", "libfuzzer", "summary")
LAUNCH_MAGIC = b"cgofuzz-golaunch"  # csrc/cli/golaunch.c's payload trailer
TAG_KINDS, TAG_SEED = 2, 3


def go_env():
    env = gb.go_env(STD)
    env["GOWORK"] = "off"
    return env


# -- targets ----------------------------------------------------------------

def read_targets(names=None):
    """The targets of bench/gocov (target.json of each directory), checked."""
    targets = []
    for path in sorted(glob.glob(os.path.join(HERE, "*", "target.json"))):
        with open(path) as f:
            t = json.load(f)
        where = os.path.relpath(path, ROOT)
        for k in KEYS:
            if k not in t:
                sys.exit("%s: no %r" % (where, k))
        if t["name"] != os.path.basename(os.path.dirname(path)):
            sys.exit("%s: name %r is not its directory's" % (where,
                                                             t["name"]))
        if t["types"] not in (["[]byte"], ["string"]):
            sys.exit("%s: types %s: one []byte or string argument only "
                     "(libFuzzer's seeds, gosentry's inputs)" % (
                         where, t["types"]))
        if not (t["package"] == t["module"] or
                t["package"].startswith(t["module"] + "/")):
            sys.exit("%s: package %s is not in module %s" % (
                where, t["package"], t["module"]))
        t["subdir"] = t["package"][len(t["module"]) + 1:]
        targets.append(t)
    if names:
        have = {t["name"] for t in targets}
        bad = [n for n in names if n not in have]
        if bad:
            sys.exit("unknown target %s (have: %s)" % (
                ", ".join(bad), ", ".join(sorted(have))))
        targets = [t for t in targets if t["name"] in names]
    return targets


def go_decl(text, name):
    """The source of the top-level declaration NAME (func, var, type,
    const) of gofmt'ed Go text, with the comment lines above it."""
    lines = text.split("\n")
    pat = re.compile(r"^(?:func|var|type|const)\s+%s\b" % re.escape(name))
    for i, line in enumerate(lines):
        if pat.match(line):
            break
    else:
        # A name of a group, const ( ... ): the whole group.
        inner = re.compile(r"^\t%s\b" % re.escape(name))
        for j, line in enumerate(lines):
            if inner.match(line):
                i = j
                while i > 0 and not re.match(r"^(?:const|var|type) \($",
                                             lines[i]):
                    i -= 1
                end = lines.index(")", j)
                if i > 0 and ")" not in lines[i:j]:
                    start = i
                    while start > 0 and lines[start - 1].startswith("//"):
                        start -= 1
                    return "\n".join(lines[start:end + 1])
        raise ValueError("no top-level declaration %s" % name)
    start = i
    while start > 0 and lines[start - 1].startswith("//"):
        start -= 1
    end = i
    if line.rstrip().endswith(("{", "(")):
        end = i + 1
        while lines[end] not in ("}", ")"):
            end += 1
    return "\n".join(lines[start:end + 1])


def libfuzzer_source(t, text, read):
    """The file go-118-fuzz-build gets in place of the module's test file
    (it builds no _test.go file, and its testing package has no testing.B,
    which the test files use): the declarations target.json's "libfuzzer"
    names ("decls": the fuzz function and the test helpers it calls),
    unchanged but for its "replace" pairs, with its "imports", in the
    test file's package, or in "package" (an external test package goes to
    a directory of its own, "dir"). "FILE:NAME" is a declaration of another
    file of the package (read(FILE): its text)."""
    lf = t["libfuzzer"]
    pkg = lf.get("package") or re.search(r"^package\s+(\w+)", text,
                                         re.M).group(1)
    body = "\n\n".join(go_decl(read(d.split(":")[0]), d.split(":")[1])
                       if ":" in d else go_decl(text, d)
                       for d in lf["decls"])
    for old, new in lf.get("replace", []):
        if old not in body:
            raise ValueError("%r is not in the declarations" % old)
        body = body.replace(old, new)
    return ("// Code generated by bench/gocov/gocov_bench.py from %s@%s's %s "
            "(%s); DO NOT EDIT.\n\npackage %s\n\nimport (\n%s\n)\n\n%s\n" % (
                t["module"], t["version"], t["test_file"],
                ", ".join(lf["decls"]), pkg,
                "\n".join('\t"%s"' % p for p in lf["imports"]), body))


def launcher_payload(path):
    """(argument kinds, seeds) of a compile-go-fuzzer launcher: its
    payload's metadata records (csrc/cli/golaunch.c), the seeds as "go test
    fuzz v1" files (f.Add's, then testdata/fuzz/<T>'s)."""
    with open(path, "rb") as f:
        data = f.read()
    tr = data[-80:]
    if tr[64:80] != LAUNCH_MAGIC:
        raise ValueError("%s has no launcher payload" % path)
    off, blen, mlen = struct.unpack("<QQQ", tr[8:32])
    meta = data[off + blen:off + blen + mlen]
    if meta[:8] != b"CGFZMETA":
        raise ValueError("%s: no metadata" % path)
    kinds, seeds, i = None, [], 8
    while i + 8 <= len(meta):
        tag, n = struct.unpack("<II", meta[i:i + 8])
        rec = meta[i + 8:i + 8 + n]
        if tag == TAG_KINDS:
            kinds = rec.decode().split(",")
        elif tag == TAG_SEED:
            seeds.append(rec)
        i += 8 + n
    return kinds, seeds


# -- coverage profiles --------------------------------------------------------

def read_profile(path):
    """{block: statements}, {covered blocks} of a -coverprofile file."""
    blocks, covered = {}, set()
    with open(path) as f:
        for line in f:
            if line.startswith("mode:"):
                continue
            m = re.match(r"^(\S+:\d+\.\d+,\d+\.\d+) (\d+) (\d+)$",
                         line.rstrip("\n"))
            if not m:
                continue
            blocks[m.group(1)] = int(m.group(2))
            if int(m.group(3)) > 0:
                covered.add(m.group(1))
    return blocks, covered


class CountError(Exception):
    pass


class Counter:
    """The independent count of one target: its -cover test binary run on
    a copy of the package with the files to count in testdata/fuzz/<T>/."""

    def __init__(self, t, binary, src_pkg, work):
        self.t, self.binary = t, binary
        self.dir = os.path.join(work, "count", t["name"])
        shutil.copytree(src_pkg, self.dir, symlinks=True)
        self.corpus = os.path.join(self.dir, "testdata", "fuzz", t["target"])
        os.makedirs(self.corpus, exist_ok=True)
        self.shipped = set(os.listdir(self.corpus))
        self.out = os.path.join(work, "count", t["name"] + ".out")
        self.prof = os.path.join(work, "count", t["name"] + ".cov")
        self.blocks = {}
        self.shipped_dropped = []
        self.replays = 0
        self.base = self.replay([])[0]  # the seeds alone

    def statements(self, covered=None):
        keys = self.blocks if covered is None else covered
        return sum(self.blocks[k] for k in keys)

    def run_batch(self, batch):
        """Replays the seeds and batch: (covered blocks or None, the entry
        that was running when the process died, why)."""
        for n in os.listdir(self.corpus):
            if n not in self.shipped:
                os.remove(os.path.join(self.corpus, n))
        for p in batch:
            shutil.copyfile(p, os.path.join(self.corpus,
                                            os.path.basename(p)))
        if os.path.exists(self.prof):
            os.remove(self.prof)
        limit = 60 + len(batch) // 10
        argv = [self.binary, "-test.run=^%s$" % self.t["target"],
                "-test.count=1", "-test.v", "-test.timeout=%ds" % limit,
                "-test.coverprofile=" + self.prof]
        self.replays += 1
        with open(self.out, "w") as out:
            try:
                r = subprocess.run(argv, cwd=self.dir, env=go_env(),
                                   stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL,
                                   timeout=limit + 60,
                                   preexec_fn=gb.limit_memory)
                rc = r.returncode
            except subprocess.TimeoutExpired:
                rc = None
        if rc in (0, 1) and os.path.exists(self.prof) and \
                os.path.getsize(self.prof) > 0:
            blocks, covered = read_profile(self.prof)
            if blocks:
                self.blocks.update(blocks)
                return covered, None, None
        last, why = None, "rc=%s" % rc
        run = re.compile(r"^=== RUN\s+%s/(\S+)\s*$" % re.escape(
            self.t["target"]))
        with open(self.out, errors="replace") as f:
            text = f.read()
        for line in text.splitlines():
            m = run.match(line)
            if m:
                last = m.group(1)
        why = gb.failure_line(text) if rc is not None else \
            "over %d s" % (limit + 60)
        return None, last, why

    def replay(self, files):
        """(covered blocks, [(file, why left out)]) of the seeds and files."""
        covered, dropped = set(), []
        pending = [list(files)]
        while pending:
            batch = pending.pop()
            got, culprit, why = self.run_batch(batch)
            if got is not None:
                covered |= got
                continue
            names = [os.path.basename(p) for p in batch]
            if culprit in names:
                dropped.append((culprit, why))
                rest = [p for p in batch if os.path.basename(p) != culprit]
                if rest:
                    pending.append(rest)
            elif culprit in self.shipped:
                os.remove(os.path.join(self.corpus, culprit))
                self.shipped.discard(culprit)
                self.shipped_dropped.append((culprit, why))
                pending.append(batch)
            elif len(batch) > 1:
                h = len(batch) // 2
                pending += [batch[:h], batch[h:]]
            elif batch:
                dropped.append((names[0], why))
            else:
                raise CountError("the seeds alone fail the counting binary "
                                 "(%s, last entry %s): %s" % (
                                     self.binary, culprit, why))
        return covered, dropped

    def count(self, files, snaps):
        """Statements covered at each snapshot by the seeds and the files
        first seen by then (files: [(time, path)]); the files left out."""
        cum, res, dropped, prev = set(self.base), [], [], None
        for s in snaps:
            batch = [p for t, p in files if (prev is None or t > prev)
                     and t <= s]
            if batch:
                got, dr = self.replay(batch)
                cum |= got
                dropped += dr
            res.append(self.statements(cum))
            prev = s
        return res, dropped


# -- a corpus listed while an engine runs -------------------------------------

class Poller(threading.Thread):
    """Lists the directories dirs() gives every POLL seconds and copies
    each new file (dot files skipped) into keep, with the time it was first
    seen (seconds from start()). finish() lists them a last time and copies
    again the files still there (one seen while written is then whole)."""

    def __init__(self, dirs, keep):
        super().__init__(daemon=True)
        self.dirs, self.keep = dirs, keep
        self.seen = {}  # source path: (time, copy)
        self.halt = threading.Event()
        os.makedirs(keep, exist_ok=True)

    def start(self):
        self.t0 = time.monotonic()
        super().start()

    def sweep(self):
        now = time.monotonic() - self.t0
        for d in self.dirs():
            try:
                names = os.listdir(d)
            except OSError:
                continue
            for n in names:
                src = os.path.join(d, n)
                if n.startswith(".") or src in self.seen or \
                        not os.path.isfile(src):
                    continue
                dst, k = os.path.join(self.keep, n), 1
                while os.path.exists(dst):
                    dst, k = os.path.join(self.keep, "%s.%d" % (n, k)), k + 1
                try:
                    shutil.copyfile(src, dst)
                except OSError:
                    continue  # gone: not corpus
                self.seen[src] = (now, dst)

    def run(self):
        while not self.halt.is_set():
            self.sweep()
            self.halt.wait(POLL)

    def finish(self):
        self.halt.set()
        self.join()
        self.sweep()
        for src, (_, dst) in self.seen.items():
            try:
                shutil.copyfile(src, dst)
            except OSError:
                pass
        return sorted(self.seen.values())


def last_int(pattern, text):
    m = re.findall(pattern, text, re.M)
    return int(m[-1]) if m else None


# -- the benchmark ------------------------------------------------------------

class Bench:
    def __init__(self, args, go, work, runs_dir):
        self.args, self.go, self.work, self.runs_dir = args, go, work, \
            runs_dir
        self.n = 0
        self.commands = {}
        self.prep = {}  # target name: what prepare() made
        self.gs, self.gs_why = None, None
        if "gosentry" in args.engines:
            self.gs, self.gs_why = gb.load_gosentry(args.gosentry)

    def note_command(self, engine, argv, d):
        if engine not in self.commands:
            self.commands[engine] = " ".join(
                a.replace(d, "RUN").replace(self.work, "WORK") for a in argv)

    # -- building -------------------------------------------------------------

    def prepare(self, t):
        """Fetches and builds a target, counts its seeds alone. None, or why
        it cannot be measured."""
        go, env, name = self.go, go_env(), t["name"]
        r = sh([go, "mod", "download", "-json",
                "%s@%s" % (t["module"], t["version"])], env=env)
        try:
            moddir = json.loads(r.stdout)["Dir"]
        except (ValueError, KeyError):
            return "go mod download %s@%s failed: %s" % (
                t["module"], t["version"], (r.stdout + r.stderr)[-300:])
        src = os.path.join(self.work, "src", name)
        shutil.copytree(moddir, src, symlinks=True)
        subprocess.run(["chmod", "-R", "u+w", src], check=True)
        pkg = os.path.join(src, t["subdir"])
        tf = os.path.join(pkg, t["test_file"])
        if not os.path.exists(tf):
            return "%s@%s has no %s/%s" % (t["module"], t["version"],
                                           t["subdir"] or ".", t["test_file"])
        with open(tf) as f:
            text = f.read()
        try:
            # (f.Add lines dropped: fuzz_signature reads literal seeds only)
            types, _ = fuzz_signature(re.sub(r"(?m)^\s*f\.Add\(.*$", "",
                                             go_decl(text, t["target"])))
        except (ValueError, AttributeError) as e:
            return "%s: no fuzz function %s (%s)" % (t["test_file"],
                                                     t["target"], e)
        if types != t["types"]:
            return "%s takes %s, target.json says %s" % (t["target"], types,
                                                         t["types"])
        p = {"src": src, "pkg": pkg, "text": text}
        p["bin"] = os.path.join(self.work, name + ".test")
        r = sh([go, "test", "-c", "-fuzz=^%s$" % t["target"], "-o", p["bin"],
                "."], cwd=pkg, env=env)
        if r.returncode != 0:
            return "go test -c -fuzz failed: %s" % (r.stdout + r.stderr)[-400:]
        r = sh([go, "list", "-deps", "-f",
                "{{with .Module}}{{.Path}}{{end}} {{.ImportPath}}", "."],
               cwd=pkg, env=env)
        p["cover"] = t.get("cover") or [
            ip for mod, ip in (l.split(" ", 1) for l in r.stdout.splitlines()
                               if " " in l) if mod == t["module"]]
        p["cov"] = os.path.join(self.work, name + ".cov.test")
        r = sh([go, "test", "-c", "-cover", "-covermode=set",
                "-coverpkg=" + ",".join(p["cover"]), "-o", p["cov"], "."],
               cwd=pkg, env=env)
        if r.returncode != 0:
            return "go test -c -cover failed: %s" % (r.stdout +
                                                     r.stderr)[-400:]
        # The seeds, as compile-go-fuzzer's launcher lists them.
        out = os.path.join(self.work, "launch", name)
        os.makedirs(out)
        r = sh([self.args.cgofuzz, "compile-go-fuzzer", pkg, t["target"],
                name, "gocovbench"], cwd=pkg, env=dict(env, OUT=out))
        try:
            kinds, seeds = launcher_payload(os.path.join(out, name))
        except (OSError, ValueError) as e:
            return "cgofuzz compile-go-fuzzer: %s: %s" % (
                e, (r.stdout + r.stderr)[-300:])
        shutil.rmtree(out)
        if kinds != t["types"]:
            return "the launcher says %s takes %s" % (t["target"], kinds)
        p["seeds"] = os.path.join(self.runs_dir, name, "seeds")
        os.makedirs(p["seeds"], exist_ok=True)
        for i, s in enumerate(seeds):
            with open(os.path.join(p["seeds"], "seed%03d" % i), "wb") as f:
                f.write(s)
        p["n_seeds"] = len(seeds)
        try:
            p["counter"] = Counter(t, p["cov"], pkg, self.work)
        except CountError as e:
            return str(e)
        self.prep[name] = p
        return None

    def prepare_libfuzzer(self, t):
        """The target's libFuzzer binary and go-fuzz-headers seeds; None or
        why not."""
        p, name = self.prep[t["name"]], t["name"]
        tool, version, why = go118_tool(self.go)
        if why:
            return why
        src = os.path.join(self.work, "lf", name)
        shutil.copytree(p["src"], src, symlinks=True)
        lf = t["libfuzzer"]
        # go-118-fuzz-build converts the package file that holds the
        # function (a _test.go file too, whole: testing.B and helpers of
        # other test files break it): the package's test files go, the
        # generated copy of the declarations takes their place.
        for f in glob.glob(os.path.join(src, t["subdir"], "*_test.go")):
            os.remove(f)
        pkg = os.path.join(src, t["subdir"], lf.get("dir", ""))
        os.makedirs(pkg, exist_ok=True)
        gen = "gocov_%s_test.go" % t["target"].lower()
        def read(name):
            with open(os.path.join(p["pkg"], name)) as f:
                return f.read()
        try:
            text = libfuzzer_source(t, p["text"], read)
        except (OSError, ValueError) as e:
            return "its libFuzzer source: %s" % e
        with open(os.path.join(pkg, gen), "w") as f:
            f.write(text)
        outdir = os.path.join(self.work, "lf", name + ".bin")
        os.makedirs(outdir)
        bins, why = go118_build(self.go, tool, version, pkg, gen,
                                [t["target"]], outdir, env=go_env())
        if why:
            return why
        # The seeds' values (cgofuzz corpus convert -to raw), then
        # go-fuzz-headers' layout, each checked to decode back.
        raw = os.path.join(self.work, "lf", name + ".raw")
        files = sorted(glob.glob(os.path.join(p["seeds"], "*")))
        if files:
            r = sh([self.args.cgofuzz, "corpus", "convert", "-to", "raw",
                    "-types", ",".join(t["types"]), "-o", raw] + files)
            if r.returncode != 0:
                return "corpus convert -to raw: %s" % (r.stdout +
                                                       r.stderr)[-300:]
        values = []
        for f in sorted(glob.glob(os.path.join(raw, "*"))):
            with open(f, "rb") as fh:
                b = fh.read()
            if b:  # go-fuzz-headers cannot give an empty value
                values.append([b])
        seeds = os.path.join(self.work, "lf", name + ".seeds")
        problems = go118_seeds(self.args.cgofuzz, self.work, seeds,
                               t["types"], values)
        if problems:
            return "seed encoding: " + "; ".join(problems)
        p["lf_bin"], p["lf_seeds"] = bins[t["target"]], seeds
        p["lf_gen"] = text
        return None

    # -- one run ----------------------------------------------------------------

    def fresh(self, engine, t, i):
        self.n += 1
        scratch = os.path.join(self.work, "run%03d" % self.n)
        keep = os.path.join(self.runs_dir, t["name"], "%s-%d" % (engine, i))
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
        return scratch, keep

    def run(self, engine, t, i):
        """One run: ([(time, go corpus file)], execs, note)."""
        a, p, target = self.args, self.prep[t["name"]], t["target"]
        scratch, keep = self.fresh(engine, t, i)
        raw = os.path.join(keep, "raw")
        if engine == "gosentry":
            files, execs, why, out = self.run_gosentry(t, scratch, raw)
        else:
            pkg = os.path.join(scratch, "pkg")
            shutil.copytree(p["pkg"], pkg, symlinks=True)
            cache = os.path.join(scratch, "cache")
            if engine == "go":
                argv = [p["bin"], "-test.paniconexit0", "-test.timeout=0",
                        "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
                        "-test.fuzztime=%ds" % a.cap,
                        "-test.parallel=%d" % a.parallel,
                        "-test.fuzzcachedir=" + cache]
                dirs, limit = [os.path.join(cache, target)], a.cap + gb.GRACE
            elif engine == "cgofuzz":
                argv = [a.cgofuzz, "fuzz", "-fuzz=^%s$" % target,
                        "-fuzztime=%ds" % a.cap, "-parallel=%d" % a.parallel,
                        "-fuzzcachedir=" + cache, p["bin"]]
                dirs, limit = [os.path.join(cache, target)], a.cap + gb.GRACE
            else:
                corpus = os.path.join(scratch, "corpus")
                shutil.copytree(p["lf_seeds"], corpus)
                argv = [p["lf_bin"], "-use_value_profile=1",
                        "-fork=%d" % a.parallel, "-timeout=10",
                        "-close_fd_mask=1", "-max_total_time=%d" % a.cap,
                        "-artifact_prefix=%s/" % scratch, corpus]
                dirs, limit = [corpus], a.cap + 15
            self.note_command(engine, argv, scratch)
            poller = Poller(lambda: dirs, raw)
            poller.start()
            # found() true at once: run_polled then stops reading the output
            r = run_polled(argv, pkg, limit, lambda out: True, env=go_env())
            seen = poller.finish()
            out = r.out
            files = [(min(s, a.cap), f) for s, f in seen]
            if engine == "libfuzzer":
                execs = last_int(r"^#(\d+)", out)
                crashes = [x for k in ("crash", "timeout", "oom")
                           for x in glob.glob(os.path.join(scratch, k + "-*"))]
                why = "rc=%s, %.0f s%s" % (
                    r.rc, r.wall, "; stopped by a failure: %s" %
                    os.path.basename(crashes[0]) if crashes else "")
            else:
                execs = last_int(r"execs: (\d+)", out)
                why = "rc=%s, %.0f s%s" % (
                    r.rc, r.wall, "" if r.rc == 0 else
                    "; stopped by a failure: %s" % gb.failure_line(out))
        with open(os.path.join(keep, "engine.out"), "w") as f:
            f.write(out[-200000:])
        files, lost = self.to_go_files(engine, t, files, keep)
        if lost:
            why += "; %d of its inputs not passed to the function (%s)" % (
                lost, "go-118-fuzz-build" if engine == "libfuzzer" else
                "undecodable")
        with open(os.path.join(keep, "seen.json"), "w") as f:
            json.dump({os.path.basename(q): s for s, q in files}, f, indent=0)
        shutil.rmtree(raw, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
        return files, execs, why

    def to_go_files(self, engine, t, files, keep):
        """The run's corpus as go test fuzz v1 files in keep/corpus:
        ([(time, file)], how many could not be converted)."""
        corpus = os.path.join(keep, "corpus")
        os.makedirs(corpus)
        got, lost = [], 0
        for s, f in files:
            if engine in ("go", "cgofuzz"):
                dst = os.path.join(corpus, os.path.basename(f))
                shutil.move(f, dst)
                got.append((s, dst))
            elif engine == "libfuzzer":
                tmp = os.path.join(keep, "conv")
                shutil.rmtree(tmp, ignore_errors=True)
                r = sh([self.args.cgofuzz, "corpus", "convert", "-from",
                        "go118", "-types", ",".join(t["types"]), "-o", tmp,
                        f])
                names = os.listdir(tmp) if os.path.isdir(tmp) else []
                if r.returncode != 0 or len(names) != 1:
                    lost += 1
                    continue
                dst = os.path.join(corpus, names[0])
                if not os.path.exists(dst):
                    shutil.move(os.path.join(tmp, names[0]), dst)
                    got.append((s, dst))
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                try:
                    with open(f, "rb") as fh:
                        values = gb.gosentry_decode(t["types"], fh.read())
                except (OSError, ValueError):
                    lost += 1
                    continue
                dst = os.path.join(corpus, "gosentry-" + os.path.basename(f))
                with open(dst, "w") as fh:
                    fh.write(go_corpus_file(t["types"], values))
                got.append((s, dst))
        return sorted(got), lost

    def run_gosentry(self, t, scratch, raw):
        """gosentry's run, as gobugs_bench.py's run_gosentry runs it (a copy
        of the module, the campaign removed first), its LibAFL queue listed
        while it runs: (files, execs, note, output)."""
        a, gs, target = self.args, self.gs, t["target"]
        mod = os.path.join(scratch, "mod")
        shutil.copytree(self.prep[t["name"]]["src"], mod, symlinks=True)
        pkg = os.path.join(mod, t["subdir"])
        env = gb.gosentry_env(gs, STD)
        libafl = os.path.join(env["GOCACHE"], "fuzz", t["package"], "libafl")
        shutil.rmtree(libafl, ignore_errors=True)
        argv = [gs["go"], "test", "-fuzz=^%s$" % target, "-timeout=0"] + \
            gb.GOSENTRY_FLAGS
        if a.parallel > 1:
            cfg = os.path.join(scratch, "libafl.jsonc")
            with open(cfg, "w") as f:
                json.dump({"cores": ",".join(str(i) for i in
                                             range(a.parallel))}, f)
            argv.append("--libafl-config=" + cfg)
        argv.append(".")
        self.note_command("gosentry", argv, scratch)
        poller = Poller(lambda: glob.glob(os.path.join(
            libafl, "*", target, "queue", "*")), raw)
        poller.start()
        r = gb.run_gosentry_polled(argv, pkg, env, a.cap, libafl, target)
        seen = poller.finish()
        shutil.rmtree(libafl, ignore_errors=True)
        if r.start is None:
            return [], None, "the runner did not start in %d s (rc=%s): %s" % (
                gb.GOSENTRY_BUILD_LIMIT, r.rc, gb.failure_line(r.out)), r.out
        files = [(min(max(s - r.start, 0), a.cap), f) for s, f in seen]
        why = "rc=%s, runner started at %.0f s%s" % (
            r.rc, r.start, "; %d failing inputs (%s)" % (
                len(r.inputs), os.path.basename(os.path.dirname(
                    r.inputs[0]))) if r.inputs else "")
        # A fuzz function that fails before f.Fuzz (say, a seed file read
        # by a path relative to the package: the runner's working directory
        # is a directory of its own in gosentry's cache) leaves LibAFL's
        # clients waiting for the cap.
        died = re.search(gb.GOSENTRY_DIED, r.out, re.M)
        if died:
            why += "; " + died.group(0)
        return files, last_int(r"executions: (\d+)", r.out), why, r.out


# -- the report ---------------------------------------------------------------

def snaps_of(args):
    return sorted({s for s in args.snapshots if s < args.cap} | {args.cap})


def fmt_num(x):
    return "-" if x is None else ("%d" % x if x == int(x) else "%.1f" % x)


def summary(targets, engines, snaps, results, info, gaps):
    """results[(target, engine)]: [[covered at each snapshot], ...];
    info[target]: (statements, seeds only)."""
    cap = snaps[-1]
    log("## summary")
    log("")
    log("median statements covered (of the counted packages' total) at each "
        "snapshot; at the cap also each run's figure")
    log("")
    log("| target | statements | seeds only | engine | runs | " +
        " | ".join("%d s" % s for s in snaps) + " |")
    log("|---|---|---|---|---|" + "---|" * len(snaps))
    meds = {}
    for t in targets:
        total, base = info.get(t, (None, None))
        for e in engines:
            runs = results.get((t, e), [])
            if not runs:
                if (t, e) in gaps:
                    log("| %s | %s | %s | %s | 0 | %s |" % (
                        t, fmt_num(total), fmt_num(base), e, " | ".join(
                            ["%s (no runs)" % gaps[(t, e)].split(":")[0]] +
                            [""] * (len(snaps) - 1))))
                continue
            m = [statistics.median(r[k] for r in runs)
                 for k in range(len(snaps))]
            meds[(t, e)] = m
            cells = [fmt_num(x) for x in m]
            cells[-1] += " (%s)" % " ".join(fmt_num(r[-1]) for r in runs)
            log("| %s | %s | %s | %s | %d | %s |" % (
                t, fmt_num(total), fmt_num(base), e, len(runs),
                " | ".join(cells)))
    log("")
    peers = [e for e in engines if e != "cgofuzz"]
    if "cgofuzz" not in engines or not peers:
        return
    log("cgofuzz against the best peer at %d s (medians; issue 38's "
        "criterion: >= 1.1x on every target%s)" % (
            cap, "" if cap == 300 else "; the issue's cap is 300 s, these "
            "runs' is %d s" % cap))
    log("")
    log("| target | cgofuzz | best peer | its median | cgofuzz / best peer "
        "| >= 1.1x |")
    log("|---|---|---|---|---|---|")
    verdicts = []
    for t in targets:
        if (t, "cgofuzz") not in meds:
            continue
        have = [(meds[(t, e)][-1], e) for e in peers if (t, e) in meds]
        if not have:
            continue
        best, who = max(have)
        c = meds[(t, "cgofuzz")][-1]
        ok = best > 0 and c / best >= 1.1
        verdicts.append(ok)
        log("| %s | %s | %s | %s | %s | %s |" % (
            t, fmt_num(c), who, fmt_num(best),
            "%.2fx" % (c / best) if best else "?", "yes" if ok else "no"))
    log("")
    missing = sorted({e for (t, e) in gaps})
    log("- issue 38's criterion (cgofuzz >= 1.1x the best peer's median at "
        "the cap on every target): %s%s" % (
            "PASS" if verdicts and all(verdicts) else "FAIL",
            "; peers without runs: %s" % ", ".join(missing) if missing
            else ""))


SETTINGS = re.compile(r"^- settings: .*cap (\d+) s for every engine; "
                      r"snapshots at ([\d, ]+) s")
TARGET_ROW = re.compile(r"^\| ([\w.-]+) \| \S+@\S+ \| .* \| (\d+) \| "
                        r"(\d+) \|$")


def split_row(line):
    return [c.strip().replace("\\|", "|")
            for c in re.split(r"(?<!\\)\|", line.rstrip("\n"))[1:-1]]


def summarize(args):
    """--summarize: one summary of the runs rows of several reports (caps
    and snapshots must agree); a target and engine's runs are those of
    every report given that has them, so a full run may be taken in parts
    by target or by run (a report given twice counts once)."""
    results, sources, gaps, info, keys = {}, [], {}, {}, set()
    for path in dict.fromkeys(os.path.realpath(p) for p in args.summarize):
        mine, n, snaps = {}, 0, None
        with open(path) as f:
            for line in f:
                m = SETTINGS.match(line)
                if m:
                    snaps = [int(x) for x in m.group(2).split(",")]
                    keys.add((int(m.group(1)), tuple(snaps)))
                    continue
                m = TARGET_ROW.match(line.rstrip("\n"))
                if m:
                    info[m.group(1)] = (int(m.group(2)), int(m.group(3)))
                    continue
                c = split_row(line) if line.startswith("| ") else []
                if len(c) < 4 or c[1] not in ENGINES:
                    continue
                if c[2] == "-":
                    gaps[(c[0], c[1])] = c[-1]
                elif c[2].isdigit() and snaps and \
                        len(c) == 4 + len(snaps) + 2:
                    mine.setdefault((c[0], c[1]), []).append(
                        [int(x) for x in c[4:4 + len(snaps)]])
                    n += 1
        if n == 0:
            sys.exit("%s: no runs rows" % path)
        for k, runs in mine.items():
            results.setdefault(k, []).extend(runs)
        sources.append("%s (%d runs)" % (os.path.relpath(path, ROOT), n))
    if len(keys) != 1:
        sys.exit("the reports' caps or snapshots differ or are missing: %s"
                 % sorted(keys))
    cap, snaps = keys.pop()
    gaps = {k: v for k, v in gaps.items() if k not in results}
    names = sorted({t for t, _ in results} | {t for t, _ in gaps})
    engines = [e for e in ENGINES if any(k[1] == e for k in results) or
               any(k[1] == e for k in gaps)]
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "gocov",
                                "%s-gocov-summary.md" % datetime.date.today())
    log("# gocov: summary of runs taken in parts (issue 38)")
    log("")
    log("- date: %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    log("- from: " + "; ".join(sources))
    log("- settings: cap %d s for every engine; snapshots at %s s" % (
        cap, ", ".join(str(s) for s in snaps)))
    log("")
    summary(names, engines, list(snaps), results, info, gaps)
    write_report(args.out)


def union(args, go):
    """--union: per target, the statements the corpora of all of each
    engine's runs cover together (kept by earlier runs in RUNS_DIR/<target>
    /<engine>-<run>/corpus), counted by a fresh counting binary, and what
    each peer's covers that cgofuzz's do not: whether an engine reaches
    code another never does, or a target is saturated for all of them."""
    work = tempfile.mkdtemp(prefix="cgofuzz-gocov-union-")
    args.engines = []
    b = Bench(args, go, work, os.path.join(work, "runs"))
    log("# gocov: what every engine's corpora cover together (issue 38)")
    log("")
    log("- date: %s; runs from %s" % (
        datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        ", ".join(os.path.relpath(d, ROOT) for d in args.union)))
    log("")
    log("| target | engine | runs | statements | of them not in cgofuzz's "
        "| inputs left out (they kill the replay) |")
    log("|---|---|---|---|---|---|")
    try:
        for t in read_targets(args.targets):
            why = b.prepare(t)
            if why:
                log("| %s | - | - | - | not built: %s | |" % (t["name"], why))
                continue
            c, files = b.prep[t["name"]]["counter"], {}
            for d in args.union:
                for run in glob.glob(os.path.join(d, t["name"], "*-*")):
                    e = os.path.basename(run).rsplit("-", 1)[0]
                    entry = files.setdefault(e, [0, []])
                    entry[0] += 1
                    entry[1] += glob.glob(os.path.join(run, "corpus", "*"))
            cov, left = {}, {}
            for e, (_, fs) in files.items():
                got, left[e] = c.replay(fs)
                cov[e] = got | c.base
            mine = cov.get("cgofuzz", set())
            for e in sorted(cov, key=ENGINES.index):
                log("| %s | %s | %d | %d | %s | %d |" % (
                    t["name"], e, files[e][0], c.statements(cov[e]),
                    "-" if e == "cgofuzz" else
                    c.statements(cov[e] - mine), len(left[e])))
            if cov:
                log("| %s | all | | %d | | |" % (
                    t["name"], c.statements(set().union(*cov.values()))))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        write_report(args.out or os.path.join(
            ROOT, "bench", "results", "gocov",
            "%s-gocov-union.md" % datetime.date.today()))


# -- main -------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="--quick: 1 run, 20 s caps, engines cgofuzz,go, targets %s; "
        "explicit options win." % ",".join(QUICK_TARGETS))
    ap.add_argument("--quick", action="store_true", help="a few-minute taste")
    ap.add_argument("--targets", type=lambda s: s.split(","),
                    help="comma-separated target names (default: all)")
    ap.add_argument("--engines", type=lambda s: s.split(","),
                    help="comma-separated, from %s (default: all)" %
                    ",".join(ENGINES))
    ap.add_argument("--runs", type=int, help="runs per engine (default 3)")
    ap.add_argument("--cap", type=int, help="seconds per run (default 300)")
    ap.add_argument("--snapshots", type=lambda s: [int(x) for x in
                                                   s.split(",")],
                    default=SNAPSHOTS, help="seconds at which coverage is "
                    "counted (default %s; the cap is always one)" %
                    ",".join(map(str, SNAPSHOTS)))
    ap.add_argument("--parallel", type=int, default=2,
                    help="workers of each engine (default 2)")
    ap.add_argument("--summarize", nargs="+", metavar="REPORT",
                    help="run nothing: the summary of the runs tables of "
                    "earlier reports (a full run taken in parts)")
    ap.add_argument("--union", nargs="+", metavar="RUNS_DIR",
                    help="run nothing: the statements each engine's kept "
                    "corpora cover together, and what cgofuzz's lack")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--gosentry", metavar="DIR",
                    help="gosentry's build (a directory with its peer.json; "
                    "default: the newest %s/gosentry-*)" % gb.GOSENTRY_PEERS)
    ap.add_argument("--runs-dir", help="where each run's corpus is kept "
                    "(default bench/.cache/gocov/<date-time>)")
    ap.add_argument("--out", help="the markdown report (default "
                    "bench/results/gocov/<date>-gocov[-quick].md)")
    args = ap.parse_args()
    q = args.quick
    settle_args(ap, args, (("runs", 3, 1), ("cap", 300, 20),
                           ("engines", ENGINES, ["cgofuzz", "go"]),
                           ("targets", None, QUICK_TARGETS)), ENGINES)
    if args.summarize:
        summarize(args)
        return
    go = shutil.which("go") or "/usr/local/go/bin/go"
    args.cgofuzz = require_cgofuzz(args.cgofuzz)
    if args.union:
        union(args, go)
        return
    if not args.out:
        args.out = os.path.join(ROOT, "bench", "results", "gocov",
                                "%s-gocov%s.md" % (datetime.date.today(),
                                                   "-quick" if q else ""))
    runs_dir = os.path.abspath(args.runs_dir or os.path.join(
        CACHE, "gocov", datetime.datetime.now().strftime("%Y%m%d-%H%M%S")))
    if not os.access(go, os.X_OK):
        sys.exit("go is not installed")
    targets = read_targets(args.targets)
    work = tempfile.mkdtemp(prefix="cgofuzz-gocov-bench-")
    try:
        measure(args, go, work, runs_dir, targets)
    finally:
        kill_running()
        shutil.rmtree(work, ignore_errors=True)
        write_report(args.out)


def measure(args, go, work, runs_dir, targets):
    b = Bench(args, go, work, runs_dir)
    engines, snaps = list(args.engines), snaps_of(args)
    log("# gocov: coverage over time on real Go fuzz targets (issue 38)")
    log("")
    header(args, go, True)
    if "libfuzzer" in engines:
        _, version, why = go118_tool(go)
        log("- libFuzzer: %s, %s@%s%s" % (clang_version(), G118, version,
                                          "; %s" % why if why else ""))
    if "gosentry" in engines:
        if b.gs:
            log("- gosentry: %s at %s (%s), %s" % (
                b.gs["repo"], b.gs["commit"][:12], b.gs["version"],
                os.path.dirname(b.gs["file"])))
        else:
            log("- gosentry: %s" % b.gs_why)
    log("- settings: %d runs per engine and target, engines alternating; "
        "-parallel %d; cap %d s for every engine; snapshots at %s s" % (
            args.runs, args.parallel, args.cap,
            ", ".join(str(s) for s in snaps)))
    log("- runs kept in %s (per run: corpus/, seen.json: each file's first "
        "time, engine.out)" % runs_dir)
    log("")
    ready, gaps, info = [], {}, {}
    rows = []
    for t in targets:
        note("gocov: building %s" % t["name"])
        why = b.prepare(t)
        if why:
            log("**%s: not measured**: %s" % (t["name"], why))
            continue
        ready.append(t)
        p = b.prep[t["name"]]
        c = p["counter"]
        info[t["name"]] = (c.statements(), c.statements(c.base))
        rows.append("| %s | %s@%s | %s | %s(%s) | %s | %d | %d | %d |" % (
            t["name"], t["module"], t["version"], t["package"], t["target"],
            t["types"][0], ", ".join(p["cover"]), p["n_seeds"],
            c.statements(), c.statements(c.base)))
        if "libfuzzer" in engines:
            why = b.prepare_libfuzzer(t)
            if why:
                gaps[(t["name"], "libfuzzer")] = "n/a: " + why
        if "gosentry" in engines and not b.gs:
            gaps[(t["name"], "gosentry")] = b.gs_why
    log("## targets")
    log("")
    log("| target | module | package | function | counted packages | seeds "
        "| statements | seeds only |")
    log("|---|---|---|---|---|---|---|---|")
    for r in rows:
        log(r)
    log("")
    for t in ready:
        log("- %s: %s; %s" % (t["name"], t["summary"], t["origin"]))
        c = b.prep[t["name"]]["counter"]
        for n, why in c.shipped_dropped:
            log("  - the module's testdata file %s left out of every count: "
                "%s" % (n, why))
        if "why" in t["libfuzzer"] and "libfuzzer" in engines:
            log("  - libFuzzer's copy: %s" % t["libfuzzer"]["why"])
    for (n, e), why in sorted(gaps.items()):
        if e == "libfuzzer":
            log("- libFuzzer not run on %s: %s" % (n, " / ".join(
                l.strip() for l in why.splitlines() if l.strip())))
    log("")
    log("## runs")
    log("")
    log("statements covered by the seeds and the run's corpus as first seen "
        "by each time; inputs: the corpus files at the cap")
    log("")
    log("| target | engine | run | inputs | " +
        " | ".join("%d s" % s for s in snaps) + " | execs | note |")
    log("|---|---|---|---|" + "---|" * len(snaps) + "---|---|")
    results = {}
    try:
        for t in ready:
            c = b.prep[t["name"]]["counter"]
            mine = [e for e in engines if (t["name"], e) not in gaps]
            for e in engines:
                if (t["name"], e) in gaps:
                    log("| %s | %s | - | - | %s| - | %s |" % (
                        t["name"], e, "- | " * len(snaps),
                        gaps[(t["name"], e)].splitlines()[0].replace(
                            "|", "\\|")))
            for i in range(args.runs):
                k = i % len(mine) if mine else 0
                for e in mine[k:] + mine[:k]:
                    note("gocov: %s %s run %d" % (t["name"], e, i + 1))
                    files, execs, why = b.run(e, t, i + 1)
                    t0 = time.monotonic()
                    cov, dropped = c.count(files, snaps)
                    if dropped:
                        why += "; left out of the count: %s" % ", ".join(
                            "%s (%s)" % d for d in dropped[:3]) + (
                                " and %d more" % (len(dropped) - 3)
                                if len(dropped) > 3 else "")
                    note("gocov: counted %d files in %.0f s: %s" % (
                        len(files), time.monotonic() - t0, cov))
                    log("| %s | %s | %d | %d | %s | %s | %s |" % (
                        t["name"], e, i + 1, len(files),
                        " | ".join(str(x) for x in cov), fmt_num(execs),
                        why.replace("|", "\\|")))
                    results.setdefault((t["name"], e), []).append(cov)
    except KeyboardInterrupt:
        log("")
        log("**interrupted**: the summary covers the runs above")
    log("")
    summary([t["name"] for t in ready], engines, snaps, results, info, gaps)
    log("")
    log("## commands")
    log("")
    log("RUN is the run's scratch directory (the engines run in RUN/pkg, a "
        "copy of the package; gosentry in RUN/mod/<package>), WORK the "
        "bench's temporary directory")
    log("")
    for e, cmd in b.commands.items():
        log("- %s: `%s`" % (e, cmd))
    log("- count: `T.cov.test -test.run=^T$ -test.count=1 -test.v "
        "-test.timeout=Ns -test.coverprofile=F` (built with `go test -c "
        "-cover -covermode=set -coverpkg=<counted packages>`) in a copy of "
        "the package, the files in testdata/fuzz/T/")
    if "libfuzzer" in engines:
        log("- libFuzzer's build: go-118-fuzz-build -func T on a copy of the "
            "target.json \"libfuzzer\" declarations of the test file, clang "
            "-fsanitize=fuzzer; its files converted by `cgofuzz corpus "
            "convert -from go118`")


if __name__ == "__main__":
    main()

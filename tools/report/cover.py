"""cover.py: `cgofuzz cover`, the coverage of a fuzz corpus.

    cgofuzz cover [-o report.html] [-fuzz T] [-corpus DIR]... PKG|BINARY

PKG (a Go package directory or import path; "." by default) gets Go's own
coverage tooling: `go test -c -cover -covermode=count -coverpkg=PKG` builds
a test binary, which replays the corpus (-test.run=^T$ over a temporary
testdata/fuzz/T holding the package's testdata/fuzz/T, Go's fuzz cache
$GOCACHE/fuzz/<import path>/T and every -corpus DIR, plus the f.Add seeds)
with -test.gocoverdir; `go tool covdata textfmt` turns that into a profile,
whose blocks give per-file statements and per-line hits, and `go tool cover
-func` the per-function figures. A cgo package's C files are built with
clang's source-based coverage (CC=clang-14, CGO_CFLAGS += -fprofile-instr-
generate -fcoverage-mapping; its C++ files with clang++-14 and
CGO_CXXFLAGS alike) and reported as C below.

BINARY (a C target built by `cgofuzz cc -cover`) replays the corpus the same
way (testdata/fuzz/T under the current directory and -corpus DIRs; raw
libFuzzer files are passed as arguments) with LLVM_PROFILE_FILE set;
llvm-profdata-14 merges the profiles, `llvm-cov-14 export -format=lcov`
gives per-line hits and per-file line totals (the figures `llvm-cov report`
prints).

A replay that fails (a crashing corpus entry) is repeated one entry per
process so the other entries still count; the failing entries are named.
Output: a text summary on stdout (per file and total; Go in statements as
go tool cover counts them, C in lines as llvm-cov counts them); with -o, one
HTML page (jinja2 template report.html.j2, pygments highlighting): a summary
table, then each file's source with covered / uncovered / partly covered
line backgrounds and hit counts. Exit status: 0, 1 when a tool failed, 2 for
bad arguments.
"""
import argparse
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deps  # noqa: E402
from outfile import write_replacing  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GO_HEADER = b"go test fuzz v1"
LLVM_PROFDATA = os.environ.get("CGOFUZZ_LLVM_PROFDATA", "llvm-profdata-14")
LLVM_COV = os.environ.get("CGOFUZZ_LLVM_COV", "llvm-cov-14")
CLANG = os.environ.get("CGOFUZZ_COVER_CC", "clang-14")
CLANGXX = os.environ.get("CGOFUZZ_COVER_CXX", "clang++-14")


class Fail(Exception):
    """A failure to report: message, exit status."""

    def __init__(self, msg, status=1):
        Exception.__init__(self, msg)
        self.status = status


def run(cmd, cwd=None, env=None, what=None, check=True):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        raise Fail("%s: %s not found" % (what or "running", cmd[0]))
    if check and p.returncode != 0:
        raise Fail("%s failed (exit %d): %s\n%s" % (
            what or cmd[0], p.returncode, " ".join(cmd),
            (p.stderr or p.stdout).strip()))
    return p


# --- the corpus ---------------------------------------------------------

def corpus_files(dirs):
    """Regular files of the existing dirs, sorted by name per dir."""
    out = []
    for d in dirs:
        if d and os.path.isdir(d):
            for n in sorted(os.listdir(d)):
                p = os.path.abspath(os.path.join(d, n))
                if os.path.isfile(p):
                    out.append(p)
    return out


def stage_corpus(files, dest, allow_raw):
    """Copies Go corpus files into dest (a testdata/fuzz/T); returns
    (names of staged files, raw file paths). Identical contents are
    staged once; a name clash gets a content-hash suffix."""
    os.makedirs(dest, exist_ok=True)
    seen, names, raw = set(), [], []
    for p in files:
        with open(p, "rb") as f:
            data = f.read()
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        if not data.startswith(GO_HEADER):
            if allow_raw:
                raw.append(p)
            else:
                sys.stderr.write("cgofuzz cover: %s: not a \"go test fuzz "
                                 "v1\" file, skipped (cgofuzz corpus convert "
                                 "turns raw inputs into one)\n" % p)
            continue
        name = os.path.basename(p)
        if os.path.exists(os.path.join(dest, name)):
            name = "%s-%s" % (name, digest[:8])
        with open(os.path.join(dest, name), "wb") as f:
            f.write(data)
        names.append(name)
    return names, raw


def go_regexp_quote(s):
    return re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", s)


def replay(binary, target, rundir, names, raw, env, reset):
    """Runs the corpus through binary: all at once, or, if that fails,
    one entry per process. reset() clears partial coverage output before
    the per-entry pass. Returns the failing entries' names."""
    whole = [binary, "-test.run=^%s$" % go_regexp_quote(target)]
    jobs_ok = run(whole, cwd=rundir, env=env, check=False).returncode == 0
    raw_ok = True
    if raw:
        e = dict(env, CGOFUZZ_TARGET=target)
        raw_ok = run([binary, "-runs=1"] + raw, cwd=rundir, env=e,
                     check=False).returncode == 0
    if jobs_ok and raw_ok:
        return []
    reset()
    failed = []
    # The f.Add seeds (subtests seed#N), then each file alone.
    per = [("seeds", "^%s$/^seed#" % go_regexp_quote(target))]
    per += [(n, "^%s$/^%s$" % (go_regexp_quote(target), go_regexp_quote(n)))
            for n in names]
    for label, pat in per:
        if run([binary, "-test.run=" + pat], cwd=rundir, env=env,
               check=False).returncode != 0:
            failed.append(label)
    for p in raw:
        e = dict(env, CGOFUZZ_TARGET=target)
        if run([binary, "-runs=1", p], cwd=rundir, env=e,
               check=False).returncode != 0:
            failed.append(p)
    return failed


def pick_target(binary, want, cwd, env):
    p = run([binary, "-test.list=^Fuzz"], cwd=cwd, env=env,
            what="listing the fuzz targets", check=False)
    targets = [l.strip() for l in p.stdout.splitlines()
               if l.strip().startswith("Fuzz")]
    if want:
        if want not in targets:
            raise Fail("no fuzz target %s in %s (it has: %s)" % (
                want, binary, ", ".join(targets) or "none"), 2)
        return want
    if len(targets) != 1:
        raise Fail("name the fuzz target with -fuzz: %s has %s" % (
            binary, ", ".join(targets) or "none"), 2)
    return targets[0]


# --- Go -----------------------------------------------------------------

class FileCov:
    """One source file's coverage: unit is "statements" (Go) or "lines"
    (C); lines maps line number -> (hits, state) with state one of
    covered, uncovered, partial."""

    def __init__(self, lang, name, path, unit):
        self.lang, self.name, self.path, self.unit = lang, name, path, unit
        self.covered = self.total = 0
        self.lines = {}
        self.funcs = []  # (name, line, percent string)

    @property
    def percent(self):
        return 100.0 * self.covered / self.total if self.total else 0.0


def parse_go_profile(path):
    """{file: {(l0, c0, l1, c1): (nstmt, count)}}, duplicates summed."""
    blocks = {}
    with open(path) as f:
        first = f.readline()
        if not first.startswith("mode:"):
            raise Fail("%s: not a Go coverage profile" % path)
        for line in f:
            m = re.match(r"^(.+):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$",
                         line.strip())
            if not m:
                continue
            key = tuple(int(x) for x in m.group(2, 3, 4, 5))
            fb = blocks.setdefault(m.group(1), {})
            n, c = int(m.group(6)), int(m.group(7))
            old = fb.get(key)
            fb[key] = (n, c + (old[1] if old else 0))
    return blocks


def go_file_cov(name, path, blocks):
    """Per-file statements and per-line hits. A block's first line counts
    only if the block starts before the line's trailing "{", and its last
    line only if it ends after more than a closing "}": so `if x {` shows
    the if statement's block, not the body's, as go tool cover -html does
    by columns."""
    fc = FileCov("go", name, path, "statements")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read().split("\n")
    except OSError:
        src = []

    def text(ln):
        return src[ln - 1] if 0 < ln <= len(src) else None

    per_line = {}
    for (l0, c0, l1, c1), (n, c) in blocks.items():
        fc.total += n
        if c > 0:
            fc.covered += n
        first, last = l0, l1
        t0, t1 = text(l0), text(l1)
        if t0 is not None and t0.encode()[c0 - 1:].strip() in (b"{", b""):
            first += 1
        if t1 is not None and t1.encode()[:c1 - 1].strip() in (b"}", b""):
            last -= 1
        for ln in range(first, last + 1):
            per_line.setdefault(ln, []).append(c)
    for ln, counts in per_line.items():
        hit = max(counts)
        if min(counts) > 0:
            state = "covered"
        elif hit == 0:
            state = "uncovered"
        else:
            state = "partial"
        fc.lines[ln] = (hit, state)
    return fc


def go_cover(a, tmp):
    pkg = a.target or "."
    env = dict(os.environ)
    p = run(["go", "list", "-f",
             "{{.ImportPath}}\t{{.Dir}}\t{{len .CgoFiles}}", pkg],
            what="go list %s" % pkg)
    fields = p.stdout.strip().split("\t")
    if len(fields) != 3:
        raise Fail("go list %s: unexpected output %r" % (pkg, p.stdout), 2)
    imp, pkgdir, ncgo = fields[0], fields[1], int(fields[2])
    cgo = ncgo > 0
    profdir = os.path.join(tmp, "prof")
    os.makedirs(profdir)
    if cgo:
        # C++ files too: the link then runs $CXX, which must know clang's
        # profile flags (g++ does not).
        env["CC"] = CLANG
        env["CXX"] = CLANGXX
        # The nonce makes go run cgo again rather than take the package
        # from its build cache: preamble_map reads what cgo writes.
        for var in ("CGO_CFLAGS", "CGO_CXXFLAGS"):
            env[var] = (env.get(var, "-O2 -g") +
                        " -fprofile-instr-generate -fcoverage-mapping"
                        " -mllvm -runtime-counter-relocation"
                        " -DCGOFUZZ_COVER_NONCE=%d%d" % (os.getpid(),
                                                          time.time_ns()))
        env["CGO_LDFLAGS"] = (env.get("CGO_LDFLAGS", "") +
                              " -fprofile-instr-generate").strip()
        # %c: continuous mode, the counters live in the mapped file, so the
        # profile is complete although Go's exit skips C's atexit handlers.
        env["LLVM_PROFILE_FILE"] = os.path.join(profdir, "%p%c.profraw")
    binary = os.path.join(tmp, "pkg.test")
    # -work keeps cgo's generated C (the preambles' lines, see preamble_map)
    b = run(["go", "test", "-c", "-work", "-cover", "-covermode=count",
             "-coverpkg=" + imp, "-o", binary, "."], cwd=pkgdir, env=env,
            what="building %s with coverage" % imp)
    work = re.search(r"^WORK=(\S+)$", b.stderr, re.M)
    remap = {}
    if work:
        if cgo:
            remap = preamble_map(work.group(1), pkgdir)
        shutil.rmtree(work.group(1), ignore_errors=True)
    rundir = os.path.join(tmp, "run")
    os.makedirs(rundir)
    target = pick_target(binary, a.fuzz, rundir, env)
    cache = run(["go", "env", "GOCACHE"], what="go env GOCACHE").stdout.strip()
    dirs = [os.path.join(pkgdir, "testdata", "fuzz", target)]
    if cache:
        dirs.append(os.path.join(cache, "fuzz", imp, target))
    dirs += a.corpus
    names, _ = stage_corpus(corpus_files(dirs),
                            os.path.join(rundir, "testdata", "fuzz", target),
                            allow_raw=False)
    gcov = os.path.join(tmp, "gocov")

    def reset():
        for d in (gcov, profdir):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)

    reset()
    # -test.gocoverdir is a flag of the test binary: pass it via GOFLAGS-free
    # argv by wrapping the binary call.
    wrapper = os.path.join(tmp, "cov.sh")
    # shlex.quote: inside double quotes, a path's $, ` or " would still be
    # the shell's to read.
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec %s -test.gocoverdir=%s "$@"\n'
                % (shlex.quote(binary), shlex.quote(gcov)))
    os.chmod(wrapper, 0o755)
    failed = replay(wrapper, target, rundir, names, [], env, reset)
    profile = os.path.join(tmp, "cover.out")
    run(["go", "tool", "covdata", "textfmt", "-i=" + gcov, "-o", profile],
        what="go tool covdata textfmt")
    funcs = run(["go", "tool", "cover", "-func=" + profile], cwd=pkgdir,
                what="go tool cover -func").stdout
    files = []
    for gofile, blocks in sorted(parse_go_profile(profile).items()):
        rel = gofile[len(imp) + 1:] if gofile.startswith(imp + "/") else gofile
        files.append(go_file_cov(rel, os.path.join(pkgdir, rel), blocks))
    by_name = {f.name: f for f in files}
    go_total = None
    for line in funcs.splitlines():
        m = re.match(r"^(\S+):(\d+):\s+(\S+)\s+([\d.]+%)$", line)
        if m:
            rel = m.group(1)
            rel = rel[len(imp) + 1:] if rel.startswith(imp + "/") else rel
            if rel in by_name:
                by_name[rel].funcs.append((m.group(3), int(m.group(2)),
                                           m.group(4)))
        m = re.match(r"^total:\s+\(statements\)\s+([\d.]+%)$", line)
        if m:
            go_total = m.group(1)
    cfiles = []
    if cgo:
        raws = glob.glob(os.path.join(profdir, "*.profraw"))
        if raws:
            cfiles = llvm_cover(binary, raws, tmp, only_under=pkgdir,
                                remap=remap)
    title = "%s %s" % (imp, target)
    return Report(title, target, len(names), failed, files, cfiles,
                  go_total=go_total)


# --- C (llvm-cov) ---------------------------------------------------------

GO_WORK_NAME = "/tmp/go-build"  # what go's -ffile-prefix-map makes of $WORK


def preamble_map(work, pkgdir):
    """The C in a cgo package's preambles (the comment above `import "C"`)
    is compiled from cgo's X.cgo2.c, which copies it under `#line N
    "X.go"` directives (X.cover.cgo2.c and X.cover.go in a -cover build).
    clang's coverage counts the physical lines of that file, named as go's
    -ffile-prefix-map makes the build directory ($WORK/b001/X.cgo2.c
    becomes /tmp/go-build/X.cgo2.c). Returns
    {that name: {line of X.cgo2.c: (X.go path, its line)}} for the files
    of pkgdir; lines under cgo's own directives (its wrappers and
    prologues) are left out, as is a name two packages share."""
    real = os.path.realpath(pkgdir) + os.sep
    out, seen = {}, set()
    for path in sorted(glob.glob(os.path.join(work, "b*", "*.cgo2.c"))):
        name = GO_WORK_NAME + "/" + os.path.basename(path)
        m, cur = {}, None
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                for i, text in enumerate(f, 1):
                    d = re.match(r'^#line (\d+) "([^"]*)"', text)
                    if d:
                        src = d.group(2)
                        # A -cover build's cgo reads go's instrumented copy
                        # ($WORK/bNNN/X.cover.go), which keeps X.go's lines.
                        if (src.startswith(work + os.sep) and
                                src.endswith(".cover.go")):
                            src = os.path.join(pkgdir, os.path.basename(
                                src)[:-len(".cover.go")] + ".go")
                        ok = (src.endswith(".go") and
                              os.path.realpath(src).startswith(real))
                        cur = (src, int(d.group(1)) - i - 1) if ok else None
                    elif cur:
                        m[i] = (cur[0], i + cur[1])
        except OSError:
            continue
        if name in seen:
            out.pop(name, None)
        elif m:
            out[name] = m
        seen.add(name)
    return out


def remap_record(cur, m):
    """One llvm-cov record of X.cgo2.c as records of the .go files its
    lines came from (preamble_map), named "<file> (C preamble)"."""
    by = {}
    for ln, v in cur.lines.items():
        if ln in m:
            src, sl = m[ln]
            by.setdefault(src, FileCov("c", src, src, "lines")).lines[sl] = v
    for name, ln, calls in cur.funcs:
        if ln in m and m[ln][0] in by:
            by[m[ln][0]].funcs.append([name, m[ln][1], calls])
    for f in by.values():
        f.total = len(f.lines)
        f.covered = sum(1 for h, _ in f.lines.values() if h > 0)
        f.preamble = True
    return list(by.values())


def llvm_cover(binary, raws, tmp, only_under=None, remap=None):
    for tool in (LLVM_PROFDATA, LLVM_COV):
        if not shutil.which(tool):
            raise Fail("cgofuzz cover needs %s for C coverage (Debian: "
                       "llvm-14)" % tool)
    merged = os.path.join(tmp, "merged.profdata")
    run([LLVM_PROFDATA, "merge", "-sparse", "-o", merged] + raws,
        what="llvm-profdata merge")
    lcov = run([LLVM_COV, "export", "-format=lcov",
                "-instr-profile=" + merged, binary],
               what="llvm-cov export").stdout
    files, cur = [], None
    for line in lcov.splitlines():
        if line.startswith("SF:"):
            path = line[3:]
            cur = FileCov("c", path, path, "lines")
        elif cur is None:
            continue
        elif line.startswith("DA:"):
            ln, hits = line[3:].split(",")[:2]
            h = int(hits)
            cur.lines[int(ln)] = (h, "covered" if h > 0 else "uncovered")
        elif line.startswith("FN:"):
            ln, name = line[3:].split(",", 1)
            cur.funcs.append([name.split(":")[-1], int(ln), None])
        elif line.startswith("FNDA:"):
            hits, name = line[5:].split(",", 1)
            for fn in cur.funcs:
                if fn[0] == name.split(":")[-1] and fn[2] is None:
                    fn[2] = "%s calls" % hits
                    break
        elif line.startswith("LF:"):
            cur.total = int(line[3:])
        elif line.startswith("LH:"):
            cur.covered = int(line[3:])
        elif line == "end_of_record":
            recs = [cur]
            if remap and cur.path in remap:
                recs = remap_record(cur, remap[cur.path])
            for rec in recs:
                keep = only_under is None or os.path.realpath(
                    rec.path).startswith(os.path.realpath(only_under) + os.sep)
                if keep:
                    rec.funcs = [tuple(f) for f in rec.funcs]
                    files.append(rec)
            cur = None
    # Names relative to the current directory when under it, else the
    # absolute paths llvm-cov gives (headers of other trees, e.g.
    # cgofuzz/target.h, whose CGOFUZZ_TARGET expands in the target).
    cwd = os.path.realpath(os.getcwd())
    for f in files:
        real = os.path.realpath(f.path)
        if only_under is not None:
            f.name = os.path.relpath(real, os.path.realpath(only_under))
        elif real.startswith(cwd + os.sep):
            f.name = os.path.relpath(real, cwd)
        if getattr(f, "preamble", False):
            f.name += " (C preamble)"
    # The target's own files first, then other trees' headers.
    return sorted(files, key=lambda f: (os.path.isabs(f.name), f.name))


def c_cover(a, tmp):
    binary = os.path.abspath(a.target)
    with open(binary, "rb") as f:
        data = f.read()
    if b"__llvm_profile" not in data and b"__llvm_prf_" not in data:
        if b"go.buildid" in data or b"runtime.main" in data:
            raise Fail("%s is a Go binary: give the package directory instead "
                       "(cover builds its own coverage test binary)"
                       % a.target, 2)
        raise Fail("%s has no coverage instrumentation: build C targets with "
                   "`cgofuzz cc -cover ...` (clang's -fprofile-instr-generate "
                   "-fcoverage-mapping)" % a.target, 2)
    rundir = os.path.join(tmp, "run")
    profdir = os.path.join(tmp, "prof")
    os.makedirs(rundir)
    env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(profdir,
                                                          "%p.profraw"))
    target = pick_target(binary, a.fuzz, rundir, env)
    dirs = [os.path.join("testdata", "fuzz", target)] + a.corpus
    names, raw = stage_corpus(
        corpus_files(dirs), os.path.join(rundir, "testdata", "fuzz", target),
        allow_raw=True)

    def reset():
        shutil.rmtree(profdir, ignore_errors=True)
        os.makedirs(profdir)

    reset()
    failed = replay(binary, target, rundir, names, raw, env, reset)
    raws = glob.glob(os.path.join(profdir, "*.profraw"))
    if not raws:
        raise Fail("%s wrote no coverage profile" % a.target)
    cfiles = llvm_cover(binary, raws, tmp)
    return Report("%s %s" % (os.path.basename(binary), target), target,
                  len(names) + len(raw), failed, [], cfiles)


# --- output -------------------------------------------------------------

class Report:
    def __init__(self, title, target, entries, failed, gofiles, cfiles,
                 go_total=None):
        self.title, self.target, self.entries = title, target, entries
        self.failed, self.gofiles, self.cfiles = failed, gofiles, cfiles
        self.go_total = go_total

    def groups(self):
        out = []
        if self.gofiles:
            out.append(("Go", "statements", "go tool cover", self.gofiles))
        if self.cfiles:
            out.append(("C", "lines", "llvm-cov", self.cfiles))
        return out


def pct(c, t, digits):
    return ("%.*f%%" % (digits, 100.0 * c / t)) if t else "-"


def text_summary(r):
    out = ["cgofuzz cover: %s: %d corpus entries (and the f.Add seeds)"
           % (r.title, r.entries)]
    for lang, unit, tool, files in r.groups():
        # Each language in its tool's precision: go tool cover prints one
        # decimal, llvm-cov report two.
        digits = 1 if lang == "Go" else 2
        out.append("%s (%s, as %s counts them):" % (lang, unit, tool))
        width = max([len(f.name) for f in files] + [5])
        for f in files:
            out.append("  %-*s %7d/%-7d %8s" % (width, f.name, f.covered,
                                                 f.total, pct(f.covered,
                                                              f.total, digits)))
            if lang == "Go":
                for name, line, p in f.funcs:
                    out.append("    func %s (line %d) %s" % (name, line, p))
        c = sum(f.covered for f in files)
        t = sum(f.total for f in files)
        out.append("  %-*s %7d/%-7d %8s" % (width, "total", c, t,
                                            pct(c, t, digits)))
    for name in r.failed:
        out.append("failing corpus entry: %s (its coverage may be missing)"
                   % name)
    return "\n".join(out) + "\n"


def highlight_lines(path, lang):
    """The file's lines as HTML (pygments, one string per line)."""
    import pygments
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    lexer = get_lexer_by_name("go" if lang == "go" else "c",
                              stripnl=False, ensurenl=True)
    fmt = HtmlFormatter(nowrap=True)
    lines, cur = [], []
    for ttype, value in lexer.get_tokens(text):
        parts = value.split("\n")
        for i, part in enumerate(parts):
            if i > 0:
                lines.append(cur)
                cur = []
            if part:
                cur.append((ttype, part))
    if cur:
        lines.append(cur)
    return [pygments.format(toks, fmt) for toks in lines]


def write_html(r, out):
    import jinja2
    from pygments.formatters import HtmlFormatter
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE),
        autoescape=jinja2.select_autoescape(["html", "j2"]))
    tpl = env.get_template("report.html.j2")
    groups, sections, idx = [], [], 0
    for lang, unit, tool, files in r.groups():
        digits = 1 if lang == "Go" else 2
        rows = []
        for f in files:
            idx += 1
            anchor = "f%d" % idx
            rows.append(dict(name=f.name, anchor=anchor, covered=f.covered,
                             total=f.total, percent=pct(f.covered, f.total,
                                                        digits),
                             width=round(f.percent, 1)))
            src = highlight_lines(f.path, f.lang)
            lines = []
            if src is not None:
                for i, h in enumerate(src, 1):
                    hits, state = f.lines.get(i, (None, ""))
                    lines.append(dict(n=i, html=h, hits=hits, state=state))
            sections.append(dict(name=f.name, anchor=anchor, lang=lang,
                                 unit=unit, path=f.path, lines=lines,
                                 percent=pct(f.covered, f.total, digits),
                                 covered=f.covered, total=f.total,
                                 funcs=f.funcs))
        c = sum(f.covered for f in files)
        t = sum(f.total for f in files)
        groups.append(dict(lang=lang, unit=unit, tool=tool, rows=rows,
                           covered=c, total=t, percent=pct(c, t, digits)))
    page = tpl.render(title=r.title, target=r.target, entries=r.entries,
                      failed=r.failed, groups=groups, sections=sections,
                      pygments_css=HtmlFormatter().get_style_defs(".src"))
    write_replacing(out, lambda f: f.write(page))


def main(argv):
    ap = argparse.ArgumentParser(
        prog="cgofuzz cover",
        description="Coverage of a fuzz corpus: a text summary, and with -o "
        "an HTML page. PKG is a Go package (directory or import path); "
        "BINARY a C target built with `cgofuzz cc -cover`.")
    ap.add_argument("--prog", help=argparse.SUPPRESS)
    ap.add_argument("target", metavar="PKG|BINARY", nargs="?", default=".")
    ap.add_argument("-o", dest="out", metavar="HTML",
                    help="write the HTML report here")
    ap.add_argument("-fuzz", metavar="T", help="the fuzz target (needed "
                    "when there are several)")
    ap.add_argument("-corpus", metavar="DIR", action="append", default=[],
                    help="another corpus directory (repeatable)")
    ap.add_argument("-keep", action="store_true",
                    help="keep the temporary directory (its path is printed)")
    a = ap.parse_args(argv)
    prog = a.prog or "cgofuzz cover"
    for d in a.corpus:
        if not os.path.isdir(d):
            sys.stderr.write("%s: -corpus %s: not a directory\n" % (prog, d))
            return 2
    deps.require(prog, ["jinja2", "pygments"] if a.out else [])
    tmp = tempfile.mkdtemp(prefix="cgofuzz-cover-")
    try:
        if os.path.isfile(a.target):
            r = c_cover(a, tmp)
        else:
            r = go_cover(a, tmp)
        sys.stdout.write(text_summary(r))
        if a.out:
            write_html(r, a.out)
            sys.stdout.write("wrote %s\n" % a.out)
    except Fail as e:
        sys.stderr.write("%s: %s\n" % (prog, e))
        return e.status
    except OSError as e:
        sys.stderr.write("%s: %s: %s\n" % (prog, e.filename, e.strerror))
        return 1
    finally:
        if a.keep:
            sys.stderr.write("%s: kept %s\n" % (prog, tmp))
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

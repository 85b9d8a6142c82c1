#!/usr/bin/env python3
"""C targets: cgofuzz against libFuzzer and AFL++ on the same C code.

Builds each harness in bench/c/ (libFuzzer form, LLVMFuzzerTestOneInput)
three ways -- as a cgofuzz target (target FuzzLibFuzzer), as a libFuzzer
binary and, where afl++ is installed, as an AFL++ binary -- plus a plain
coverage build used as the common yardstick, and runs them one after the
other, one process/worker each, in the same run:

  1. execs/sec on small targets (empty, tiny parser);
  2. edges covered after --seconds (60) on real C libraries built from
     Debian source packages (zlib inflate, libpng read, cJSON parse),
     counted by replaying each fuzzer's output corpus through one coverage
     binary (bench/c/covdrive.c);
  3. time to a planted bug: a magic value behind eight byte comparisons in
     a loop (bench/c/magic.c), cgofuzz with and without trace-cmp,
     libFuzzer (and AFL++, with cmplog when available) for reference.

Prints tables with ratios and a PASS/FAIL line per done-when criterion of
issue 4. Dependencies come from Debian packages (installed when missing,
as root): clang-14, libclang-rt-14-dev, afl++, dpkg-dev, and the source
packages zlib, libpng1.6 and cjson (a deb-src entry is added if none is
configured). Everything built or fetched goes to bench/.cache/.

C targets are fuzzed by their own -test.fuzz (cgofuzz's coordinator linked
into the target). The fallback, for a runtime that cannot, is Go's
coordinator: a Go test binary (bench/c/gopkg) runs with argv[0] set to the C
target, so Go starts the C binary as its worker; the table's header says
which was used. Edge runs are repeated --runs times (3; 1 with --quick),
the engines alternating, and the median is reported.

usage: bench/c_bench.py [--quick] [--seconds 60] [--build build]
                        [--no-rebuild] [--only execs,edges,bug]
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from testlib import go_unquote  # noqa: E402  (shared with the tests)
BENCH = os.path.join(ROOT, "bench")
CDIR = os.path.join(BENCH, "c")
CACHE = os.path.join(BENCH, ".cache")
SRC = os.path.join(CACHE, "src")
OBJ = os.path.join(CACHE, "obj")
BIN = os.path.join(CACHE, "bin")
RUNS = os.path.join(CACHE, "runs")

CLANG = shutil.which("clang-14") or shutil.which("clang") or "clang"
AFLCC = shutil.which("afl-clang-fast")
GO = shutil.which("go") or "/usr/local/go/bin/go"

OPT = ["-O2", "-g", "-w"]
COV_CG = "-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp"
COV_CGN = "-fsanitize-coverage=inline-8bit-counters,pc-table"

# Flavours: how the library and the harness are compiled, how it is linked.
FLAVOURS = {
    "cg": dict(cc=CLANG, cflags=[COV_CG]),      # cgofuzz, trace-cmp
    "cgn": dict(cc=CLANG, cflags=[COV_CGN]),    # cgofuzz, edges only
    "lf": dict(cc=CLANG, cflags=["-fsanitize=fuzzer-no-link"],
               ldflags=["-fsanitize=fuzzer"]),
    "afl": dict(cc=AFLCC, cflags=[], ldflags=["-fsanitize=fuzzer"],
                env={"AFL_QUIET": "1"}),
    "aflcl": dict(cc=AFLCC, cflags=[], ldflags=["-fsanitize=fuzzer"],
                  env={"AFL_QUIET": "1", "AFL_LLVM_CMPLOG": "1"}),
    "cov": dict(cc=CLANG, cflags=[COV_CGN]),    # the yardstick
}

SRCPKGS = {"zlib": "zlib", "libpng": "libpng1.6", "cjson": "cjson"}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def sh(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors="replace", **kw)


# ---------------------------------------------------------------- deps --

def have_deb_src():
    files = glob.glob("/etc/apt/sources.list") + \
        glob.glob("/etc/apt/sources.list.d/*.list") + \
        glob.glob("/etc/apt/sources.list.d/*.sources")
    for f in files:
        try:
            text = open(f).read()
        except OSError:
            continue
        if re.search(r"^\s*deb-src\s", text, re.M) or \
                re.search(r"^Types:.*\bdeb-src\b", text, re.M):
            return True
    return False


def suites():
    """The configured Debian suites (bookworm, bookworm-updates...)."""
    code = "bookworm"
    try:
        for line in open("/etc/os-release"):
            if line.startswith("VERSION_CODENAME="):
                code = line.split("=", 1)[1].strip().strip('"') or code
    except OSError:
        pass
    return code


def apt(argv):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = sh(["apt-get"] + argv, env=env)
    if r.returncode != 0:
        log(r.stdout[-2000:])
    return r.returncode == 0


def ensure_deps(notes):
    root = os.geteuid() == 0
    want = []
    if not shutil.which("clang-14") and not shutil.which("clang"):
        want += ["clang-14"]
    if not glob.glob("/usr/lib/llvm-14/lib/clang/*/lib/linux/"
                     "libclang_rt.fuzzer-x86_64.a"):
        want += ["libclang-rt-14-dev"]
    if not shutil.which("afl-clang-fast"):
        want += ["afl++"]
    if not shutil.which("dpkg-source"):
        want += ["dpkg-dev"]
    updated = False
    if want and root:
        log("installing " + " ".join(want))
        if not apt(["install", "-y", "-q"] + want):
            apt(["update", "-q"])
            updated = True
            apt(["install", "-y", "-q"] + want)
    elif want:
        notes.append("not root: could not install " + " ".join(want))
    global CLANG, AFLCC
    CLANG = shutil.which("clang-14") or shutil.which("clang") or CLANG
    AFLCC = shutil.which("afl-clang-fast")
    for k in ("cg", "cgn", "lf", "cov"):
        FLAVOURS[k]["cc"] = CLANG
    for k in ("afl", "aflcl"):
        FLAVOURS[k]["cc"] = AFLCC

    os.makedirs(SRC, exist_ok=True)
    missing = [p for p in SRCPKGS.values() if not srcdir(p)]
    if missing and not have_deb_src():
        if root:
            path = "/etc/apt/sources.list.d/cgofuzz-bench-src.sources"
            code = suites()
            with open(path, "w") as f:
                f.write("Types: deb-src\nURIs: http://deb.debian.org/debian\n"
                        "Suites: %s %s-updates\nComponents: main\n"
                        "Signed-By: /usr/share/keyrings/"
                        "debian-archive-keyring.gpg\n" % (code, code))
            log("added " + path)
            updated = False
        else:
            notes.append("no deb-src entry and not root")
    if missing and not updated:
        apt(["update", "-q"])
    for p in missing:
        r = sh(["apt-get", "source", "--download-only", "-q", p], cwd=SRC)
        for dsc in glob.glob(os.path.join(SRC, p + "_*.dsc")):
            sh(["dpkg-source", "-q", "-x", os.path.basename(dsc)], cwd=SRC)
        if not srcdir(p):
            notes.append("source package %s not available: %s" %
                         (p, r.stdout.strip().splitlines()[-1:]))


def srcdir(pkg):
    d = sorted(d for d in glob.glob(os.path.join(SRC, pkg + "-*"))
               if os.path.isdir(d))
    return d[-1] if d else None


# --------------------------------------------------------------- build --

def libraries():
    """name -> (sources, include dirs, extra cflags, deps, link libs)."""
    libs = {}
    z = srcdir("zlib")
    if z:
        libs["zlib"] = ([os.path.join(z, f + ".c") for f in (
            "adler32 compress crc32 deflate gzclose gzlib gzread gzwrite "
            "infback inffast inflate inftrees trees uncompr zutil").split()],
            [z], ["-DHAVE_UNISTD_H", "-D_LARGEFILE64_SOURCE=1"], [], [])
    p = srcdir("libpng1.6")
    if p and z:
        conf = os.path.join(p, "pnglibconf.h")
        if not os.path.exists(conf):
            shutil.copy(os.path.join(p, "scripts", "pnglibconf.h.prebuilt"),
                        conf)
        libs["libpng"] = ([os.path.join(p, f + ".c") for f in (
            "png pngerror pngget pngmem pngpread pngread pngrio pngrtran "
            "pngrutil pngset pngtrans pngwio pngwrite pngwtran "
            "pngwutil").split()], [p, z], [], ["zlib"], ["-lm"])
    j = srcdir("cjson")
    if j:
        libs["cjson"] = ([os.path.join(j, "cJSON.c")], [j], [], [], ["-lm"])
    return libs


# harness -> library it needs (None: none)
HARNESSES = {"empty": None, "tiny": None, "magic": None,
             "zlib_inflate": "zlib", "png_read": "libpng",
             "cjson_parse": "cjson"}


def compile_obj(fl, src, incs, extra):
    f = FLAVOURS[fl]
    argv = [f["cc"]] + OPT + f["cflags"] + extra + \
        ["-I" + i for i in incs] + ["-c", src]
    key = hashlib.sha1(("\0".join(argv)).encode()).hexdigest()[:12]
    out = os.path.join(OBJ, fl, "%s-%s.o" % (
        os.path.basename(src)[:-2], key))
    if os.path.exists(out) and os.path.getmtime(out) >= \
            os.path.getmtime(src):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    env = dict(os.environ, **f.get("env", {}))
    r = sh(argv + ["-o", out + ".tmp"], env=env)
    if r.returncode != 0:
        raise RuntimeError("compile failed: %s\n%s" % (" ".join(argv),
                                                       r.stdout[-3000:]))
    os.replace(out + ".tmp", out)
    return out


def build_all(flavours, harnesses, cgo_libs, jobs, notes):
    """Returns {(flavour, harness): binary path}."""
    libs = libraries()
    tasks = []
    for fl in flavours:
        for h in harnesses:
            lib = HARNESSES[h]
            if lib and lib not in libs:
                continue
            chain = []
            if lib:
                chain = [lib] + libs[lib][3]
            for l in chain:
                s, incs, extra, _, _ = libs[l]
                for src in s:
                    tasks.append((fl, src, incs, extra))
            incs = sum((libs[l][1] for l in chain), [ROOT + "/include"])
            tasks.append((fl, os.path.join(CDIR, h + ".c"), incs, []))
    for fl in flavours:
        tasks.append((fl, os.path.join(CDIR, "covdrive.c"), [], []))
    tasks = list({(t[0], t[1]): t for t in tasks}.values())
    objs = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(compile_obj, *t): t for t in tasks}
        for fu in concurrent.futures.as_completed(futs):
            t = futs[fu]
            objs[(t[0], t[1])] = fu.result()
    bins = {}
    os.makedirs(BIN, exist_ok=True)
    for fl in flavours:
        f = FLAVOURS[fl]
        for h in harnesses:
            lib = HARNESSES[h]
            if lib and lib not in libs:
                continue
            chain = [lib] + libs[lib][3] if lib else []
            o = [objs[(fl, os.path.join(CDIR, h + ".c"))]]
            ldl = []
            for l in chain:
                o += [objs[(fl, s)] for s in libs[l][0]]
                ldl += libs[l][4]
            if fl in ("cg", "cgn"):
                o += cgo_libs + ["-lpthread"]
            elif fl == "cov":
                o += [objs[(fl, os.path.join(CDIR, "covdrive.c"))]]
            out = os.path.join(BIN, "%s.%s" % (h, fl))
            argv = [f["cc"]] + OPT + f.get("ldflags", []) + o + ldl + \
                ["-o", out]
            env = dict(os.environ, **f.get("env", {}))
            r = sh(argv, env=env)
            if r.returncode != 0:
                notes.append("link failed for %s.%s: %s" % (
                    h, fl, r.stdout.strip()[-500:]))
                continue
            bins[(fl, h)] = out
    return bins


def build_cgofuzz(build, rebuild):
    if rebuild:
        r = sh(["cmake", "--build", build, "--target", "cgofuzz",
                "cgofuzz_main"])
        if r.returncode != 0:
            log(r.stdout[-3000:])
            raise SystemExit("cgofuzz build failed")
    libs = [os.path.join(build, "libcgofuzz_main.a"),
            os.path.join(build, "libcgofuzz.a")]
    for l in libs:
        if not os.path.exists(l):
            raise SystemExit("missing %s (build cgofuzz first)" % l)
    return libs


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def self_coordinates(target):
    """True if the C target fuzzes by itself (-test.fuzz)."""
    d = fresh(os.path.join(RUNS, "probe"))
    try:
        r = subprocess.run(
            [target, "-test.fuzz=^FuzzLibFuzzer$", "-test.run=^$",
             "-test.fuzztime=1x", "-test.parallel=1",
             "-test.fuzzcachedir=" + os.path.join(d, "cache")],
            cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace", timeout=60)
    except subprocess.TimeoutExpired:
        return False
    return r.returncode == 0 and "needs the cgofuzz coordinator" \
        not in r.stdout


def build_go_coordinator():
    exe = os.path.join(CACHE, "go-coordinator.test")
    src = os.path.join(CDIR, "gopkg", "fuzz_test.go")
    if os.path.exists(exe) and os.path.getmtime(exe) > os.path.getmtime(src):
        return exe
    work = fresh(os.path.join(CACHE, "gopkg"))
    for f in ("go.mod", "fuzz_test.go"):
        shutil.copy(os.path.join(CDIR, "gopkg", f), work)
    # Go's coordinator sizes the coverage mask by *its own* counter table,
    # and the C worker folds its counters into that size (counter i lands
    # in byte i % len), so a small Go binary would merge the C target's
    # edges. Padding the package with never-run branches gives Go a table
    # larger than any target here (png_read: ~8.7k counters).
    with open(os.path.join(work, "pad.go"), "w") as f:
        f.write("package cgofuzzbench\n\n")
        for fn in range(40):
            f.write("func pad%d(x int) int {\n" % fn)
            for k in range(1000):
                f.write("\tif x == %d {\n\t\tx += %d\n\t}\n" % (k, fn))
            f.write("\treturn x\n}\n\n")
        f.write("var Pad = []func(int) int{%s}\n" %
                ", ".join("pad%d" % i for i in range(40)))
    env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local")
    r = sh([GO, "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=work, env=env)
    if r.returncode != 0:
        raise SystemExit("go test -c failed:\n" + r.stdout)
    return exe


# ---------------------------------------------------------------- runs --

class Proc:
    """Runs a process, timestamps its output lines, stops on a pattern."""

    def __init__(self, argv, cwd, timeout, env=None, executable=None,
                 stop=None):
        self.lines = []
        self.t0 = time.monotonic()
        self.hit = None
        self.p = subprocess.Popen(argv, cwd=cwd, env=env,
                                  executable=executable,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL,
                                  start_new_session=True)
        t = threading.Thread(target=self._read, args=(stop,), daemon=True)
        t.start()
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.p.wait()
        t.join(5)
        self.rc = self.p.returncode
        self.wall = time.monotonic() - self.t0
        self.out = "\n".join(l for _, l in self.lines)

    def _read(self, stop):
        for raw in self.p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            now = time.monotonic() - self.t0
            self.lines.append((now, line))
            if stop and self.hit is None and re.search(stop, line):
                self.hit = now

    def kill(self):
        try:
            os.killpg(self.p.pid, 9)
        except ProcessLookupError:
            pass


def write_seeds(d, seeds):
    os.makedirs(d, exist_ok=True)
    for i, s in enumerate(seeds):
        with open(os.path.join(d, "seed%d" % i), "wb") as f:
            f.write(s)


def go_quote(b):
    out = ['"']
    for c in b:
        ch = chr(c)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 0x20 <= c < 0x7f:
            out.append(ch)
        else:
            out.append("\\x%02x" % c)
    out.append('"')
    return "".join(out)


def decode_go_corpus(src, dst):
    """Writes the raw bytes of each `go test fuzz v1` []byte file."""
    os.makedirs(dst, exist_ok=True)
    n = 0
    for path in sorted(glob.glob(os.path.join(src, "*"))):
        text = open(path, encoding="utf-8", errors="surrogateescape").read()
        lines = text.split("\n")
        if not lines or lines[0] != "go test fuzz v1":
            continue
        val = lines[1].strip()
        m = re.match(r'^\[\]byte\((".*")\)$', val)
        if not m:
            m2 = re.match(r"^\[\]byte\(`(.*)`\)$", val, re.S)
            if not m2:
                continue
            data = m2.group(1).encode("utf-8", "surrogateescape")
        else:
            data = go_unquote(m.group(1))
        with open(os.path.join(dst, os.path.basename(path)), "wb") as f:
            f.write(data)
        n += 1
    return n


PROGRESS = re.compile(r"elapsed: (\d+)s, execs: (\d+) \((\d+)/sec\)")


def run_cgofuzz(cfg, target, name, seconds, seeds, stop=None, count=None,
                env=None):
    d = fresh(os.path.join(RUNS, name))
    write_seeds(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer"),
                [])
    for i, s in enumerate(seeds):
        with open(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer",
                               "seed%d" % i), "w") as f:
            f.write("go test fuzz v1\n[]byte(%s)\n" % go_quote(s))
    argv = [target, "-test.fuzz=^FuzzLibFuzzer$",
            "-test.run=^FuzzLibFuzzer$",
            "-test.fuzztime=" + (count or "%ds" % seconds),
            "-test.parallel=1",
            "-test.fuzzcachedir=" + os.path.join(d, "cache")]
    exe = None if cfg["self"] else cfg["gocoord"]
    p = Proc(argv, d, seconds + 60, env=env, executable=exe, stop=stop)
    execs = el = 0
    for m in PROGRESS.finditer(p.out):
        if int(m.group(2)) >= execs:
            execs, el = int(m.group(2)), int(m.group(1))
    raw = os.path.join(d, "raw")
    decode_go_corpus(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer"),
                     raw)
    decode_go_corpus(os.path.join(d, "cache", "FuzzLibFuzzer"), raw)
    note = ""
    if "context deadline exceeded" in p.out:
        note = "context deadline exceeded"
    return dict(execs=execs, secs=el or p.wall,
                eps=execs / el if el else None, corpus=raw, hit=p.hit,
                rc=p.rc, wall=p.wall, note=note, tail=p.out[-1500:])


def run_libfuzzer(target, name, seconds, seeds, extra=(), stop=None):
    d = fresh(os.path.join(RUNS, name))
    corpus = os.path.join(d, "corpus")
    write_seeds(corpus, seeds)
    argv = [target, corpus, "-max_total_time=%d" % seconds,
            "-print_final_stats=1", "-artifact_prefix=" + d + "/",
            "-close_fd_mask=1"] + list(extra)
    p = Proc(argv, d, seconds + 60, stop=stop)
    units = re.search(r"stat::number_of_executed_units: (\d+)", p.out)
    eps = re.search(r"stat::average_exec_per_sec:\s+(\d+)", p.out)
    return dict(execs=int(units.group(1)) if units else 0,
                eps=int(eps.group(1)) if eps else None, corpus=corpus,
                hit=p.hit, rc=p.rc, wall=p.wall, note="",
                tail=p.out[-1500:])


def run_afl(target, name, seconds, seeds, cmplog=None, until_crash=False):
    d = fresh(os.path.join(RUNS, name))
    write_seeds(os.path.join(d, "in"), seeds)
    env = dict(os.environ, AFL_NO_UI="1", AFL_SKIP_CPUFREQ="1",
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_AFFINITY="1", AFL_FAST_CAL="1",
               AFL_NO_CRASH_README="1")
    if until_crash:
        env["AFL_BENCH_UNTIL_CRASH"] = "1"
    argv = ["afl-fuzz", "-i", os.path.join(d, "in"), "-o",
            os.path.join(d, "out"), "-V", str(seconds)]
    if cmplog:
        argv += ["-c", cmplog]
    argv += ["--", target]
    p = Proc(argv, d, seconds + 60, env=env)
    stats = {}
    try:
        for line in open(os.path.join(d, "out", "default", "fuzzer_stats")):
            k, _, v = line.partition(":")
            stats[k.strip()] = v.strip()
    except OSError:
        pass
    crashes = glob.glob(os.path.join(d, "out", "default", "crashes", "id*"))
    execs = int(stats.get("execs_done", 0))
    rt = float(stats.get("run_time", 0) or 0)
    return dict(execs=execs, eps=execs / rt if rt else None,
                corpus=os.path.join(d, "out", "default", "queue"),
                hit=p.wall if crashes else None, rc=p.rc, wall=p.wall,
                note="" if stats else "no fuzzer_stats",
                tail=p.out[-1500:])


def count_edges(covbin, corpus):
    files = sorted(f for f in glob.glob(os.path.join(corpus, "*"))
                   if os.path.isfile(f))
    r = subprocess.run([covbin], input="\n".join(files) + "\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=600)
    m = re.search(r"edges (\d+) of (\d+) files (\d+)", r.stdout)
    if not m:
        return None, len(files), "coverage replay failed (rc %d): %s" % (
            r.returncode, r.stderr[-300:])
    return int(m.group(1)), int(m.group(3)), ""


# -------------------------------------------------------------- report --

def ratio(a, b):
    if a is None or b is None or not b:
        return "-"
    return "%.2fx" % (a / b)


def fmt(v, spec="%d"):
    return "-" if v is None else spec % v


def table(head, rows):
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda r: "  ".join(str(x).rjust(n) if i else str(x).ljust(n)
                               for i, (x, n) in enumerate(zip(r, w)))
    print(line(head))
    print("  ".join("-" * n for n in w))
    for r in rows:
        print(line(r))
    print()


SEEDS = {
    "empty": [b"hello"],
    "tiny": [b"a=1;b=\"x\""],
    "magic": [b"00000000"],
    "zlib_inflate": [b"\x00x\x9c\xcbH\xcd\xc9\xc9\x07\x00\x06,\x02\x15"],
    # a 1x1 8-bit grey PNG
    "png_read": [bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010800000000"
        "3a7e9b550000000a49444154789c63600000000200015e0d1cc8000000"
        "0049454e44ae426082")],
    "cjson_parse": [b'{"a":[1,2.5e3,"x\\u00e9",true,null,{}]}'],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: short runs (about 3 minutes)")
    ap.add_argument("--seconds", type=int, help="edge runs (default 60)")
    ap.add_argument("--speed-seconds", type=int,
                    help="execs/sec runs (default 15)")
    ap.add_argument("--bug-seconds", type=int,
                    help="limit for the planted bug (default 90)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="cgofuzz CMake build dir (libcgofuzz*.a)")
    ap.add_argument("--no-rebuild", action="store_true",
                    help="do not run cmake --build on --build first")
    ap.add_argument("--no-deps", action="store_true",
                    help="do not install packages or fetch sources")
    ap.add_argument("--no-afl", action="store_true")
    ap.add_argument("--only", default="execs,edges,bug")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int,
                    help="edge rounds per target; the median is reported")
    ap.add_argument("--json", help="also write the results here")
    a = ap.parse_args()
    secs = a.seconds or (8 if a.quick else 60)
    speed = a.speed_seconds or (3 if a.quick else 15)
    bugs = a.bug_seconds or (12 if a.quick else 90)
    a.runs = a.runs or (1 if a.quick else 3)
    only = set(a.only.split(","))
    notes = []
    t_start = time.monotonic()

    if not a.no_deps:
        ensure_deps(notes)
    cgo_libs = build_cgofuzz(a.build, not a.no_rebuild)
    use_afl = bool(AFLCC) and not a.no_afl and shutil.which("afl-fuzz")
    flavours = ["cg", "lf", "cov"] + (["afl"] if use_afl else [])
    harnesses = []
    if "execs" in only:
        harnesses += ["empty", "tiny"]
    if "edges" in only:
        harnesses += ["zlib_inflate", "png_read", "cjson_parse"]
    log("building %s for %s" % (", ".join(harnesses), ", ".join(flavours)))
    bins = build_all(flavours, harnesses, cgo_libs, a.jobs, notes)
    if "bug" in only:
        bins.update(build_all(["cg", "cgn", "lf"] + (
            ["afl", "aflcl"] if use_afl else []), ["magic"], cgo_libs,
            a.jobs, notes))
    log("built in %.0fs" % (time.monotonic() - t_start))

    # Probe with any cgofuzz-built harness: an edges-only run builds
    # neither "empty" nor "magic", and a missing probe once sent every
    # edges run through Go's coordinator without saying why.
    probe = next((b for (f, _), b in sorted(bins.items()) if f == "cg"),
                 None)
    cfg = {"self": bool(probe) and self_coordinates(probe)}
    if not cfg["self"]:
        cfg["gocoord"] = build_go_coordinator()
        notes.append("%s does not fuzz by itself (-test.fuzz failed): "
                     "cgofuzz = the C worker driven by Go's coordinator "
                     "(exec -a <target> go.test)" % probe)
    mode = "self-coordinated" if cfg["self"] else "C worker, Go coordinator"
    results = {"mode": mode, "execs": {}, "edges": {}, "bug": {}}

    print("commit %s" % subprocess.run(
        ["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
        stdout=subprocess.PIPE, text=True).stdout.strip())
    print("cgofuzz C targets vs libFuzzer%s (%s; one process/worker each)"
          % (" vs AFL++" if use_afl else "", mode))
    print("load average at start: %s\n" % " ".join(
        open("/proc/loadavg").read().split()[:3]))

    # 1. execs/sec on small targets.
    if "execs" in only:
        rows = []
        for h in ("empty", "tiny"):
            r = {}
            log("execs/sec: %s" % h)
            if ("cg", h) in bins:
                r["cgofuzz"] = run_cgofuzz(cfg, bins[("cg", h)],
                                           "speed-cg-" + h, speed, SEEDS[h])
            if ("lf", h) in bins:
                r["libfuzzer"] = run_libfuzzer(bins[("lf", h)],
                                               "speed-lf-" + h, speed,
                                               SEEDS[h])
            if ("afl", h) in bins:
                r["afl"] = run_afl(bins[("afl", h)], "speed-afl-" + h,
                                   speed, SEEDS[h])
            e = {k: v["eps"] for k, v in r.items()}
            results["execs"][h] = e
            for k, v in r.items():
                if v["note"]:
                    notes.append("%s %s: %s" % (h, k, v["note"]))
                if v["eps"] is None:
                    notes.append("%s %s: no exec count (rc %s): %s" % (
                        h, k, v["rc"], v["tail"][-400:]))
            rows.append([h, fmt(e.get("cgofuzz")), fmt(e.get("libfuzzer")),
                         fmt(e.get("afl")),
                         ratio(e.get("cgofuzz"), e.get("libfuzzer")),
                         ratio(e.get("cgofuzz"), e.get("afl"))])
        print("execs/sec, %d s each" % speed)
        table(["target", "cgofuzz", "libFuzzer", "AFL++", "cg/lF",
               "cg/AFL"], rows)

    # 2. edges after N seconds: --runs rounds, the engines alternating
    # within each round so that load drifts hit both alike; the table
    # shows each engine's median round (its corpus size beside it).
    if "edges" in only:
        rows = []
        for h in ("zlib_inflate", "png_read", "cjson_parse"):
            if ("cov", h) not in bins:
                continue
            engines = [(k, f) for k, f in (("cgofuzz", "cg"),
                                           ("libfuzzer", "lf"),
                                           ("afl", "afl"))
                       if (f, h) in bins]
            rounds = {k: [] for k, _ in engines}
            for rnd in range(a.runs):
                log("edges: %s (round %d of %d)" % (h, rnd + 1, a.runs))
                for k, f in engines:
                    name = "edges-%s-%s-%d" % (f, h, rnd)
                    if k == "cgofuzz":
                        v = run_cgofuzz(cfg, bins[(f, h)], name, secs,
                                        SEEDS[h])
                    elif k == "libfuzzer":
                        v = run_libfuzzer(bins[(f, h)], name, secs,
                                          SEEDS[h])
                    else:
                        v = run_afl(bins[(f, h)], name, secs, SEEDS[h])
                    ed, nf, err = count_edges(bins[("cov", h)], v["corpus"])
                    if err:
                        notes.append("%s %s: %s" % (h, k, err))
                    if v["note"]:
                        notes.append("%s %s: %s" % (h, k, v["note"]))
                    rounds[k].append(dict(edges=ed, files=nf,
                                          execs=v["execs"]))
            e, n = {}, {}
            for k, rs in rounds.items():
                ok = sorted((r for r in rs if r["edges"] is not None),
                            key=lambda r: r["edges"])
                if ok:
                    mid = ok[(len(ok) - 1) // 2]
                    e[k], n[k] = mid["edges"], mid["files"]
            seed_dir = fresh(os.path.join(RUNS, "seeds-" + h))
            write_seeds(seed_dir, SEEDS[h])
            e["seeds"], _, _ = count_edges(bins[("cov", h)], seed_dir)
            results["edges"][h] = dict(edges=e, files=n, rounds=rounds)
            rows.append([h, fmt(e.get("seeds")),
                         "%s (%s)" % (fmt(e.get("cgofuzz")),
                                      fmt(n.get("cgofuzz"))),
                         "%s (%s)" % (fmt(e.get("libfuzzer")),
                                      fmt(n.get("libfuzzer"))),
                         "%s (%s)" % (fmt(e.get("afl")), fmt(n.get("afl"))),
                         ratio(e.get("cgofuzz"), e.get("libfuzzer")),
                         ratio(e.get("cgofuzz"), e.get("afl"))])
        print("edges covered after %d s, median of %d run(s) (corpus files "
              "in parentheses; replayed through one coverage build, "
              "bench/c/covdrive.c)" % (secs, a.runs))
        table(["library", "seeds", "cgofuzz", "libFuzzer", "AFL++",
               "cg/lF", "cg/AFL"], rows)
        for h, r in results["edges"].items():
            print("  %s: %s" % (h, "; ".join(
                "%s %s" % (k, [x["edges"] for x in rs])
                for k, rs in r["rounds"].items())))
        print()

    # 3. time to the planted bug.
    if "bug" in only:
        rows = []
        found = "minimizing|--- FAIL|Failing input|signal: aborted"
        runs = []
        if ("cg", "magic") in bins:
            runs.append(("cgofuzz, trace-cmp", lambda: run_cgofuzz(
                cfg, bins[("cg", "magic")], "bug-cg", bugs, SEEDS["magic"],
                stop=found)))
        if ("cgn", "magic") in bins:
            runs.append(("cgofuzz, no trace-cmp", lambda: run_cgofuzz(
                cfg, bins[("cgn", "magic")], "bug-cgn", bugs,
                SEEDS["magic"], stop=found)))
        if ("lf", "magic") in bins:
            runs.append(("libFuzzer", lambda: run_libfuzzer(
                bins[("lf", "magic")], "bug-lf", bugs, SEEDS["magic"],
                stop=r"deadly signal|==ERROR")))
        if ("afl", "magic") in bins:
            runs.append(("AFL++", lambda: run_afl(
                bins[("afl", "magic")], "bug-afl", bugs, SEEDS["magic"],
                until_crash=True)))
        if ("afl", "magic") in bins and ("aflcl", "magic") in bins and \
                not a.quick:
            runs.append(("AFL++ cmplog", lambda: run_afl(
                bins[("afl", "magic")], "bug-aflcl", bugs, SEEDS["magic"],
                cmplog=bins[("aflcl", "magic")], until_crash=True)))
        for label, fn in runs:
            log("bug: " + label)
            v = fn()
            results["bug"][label] = v["hit"]
            rows.append([label, "yes" if v["hit"] is not None else "no",
                         "%.1f" % v["hit"] if v["hit"] is not None else
                         "> %d" % bugs, fmt(v["execs"])])
        print("time to the planted bug (magic value behind 8 byte "
              "comparisons in a loop), limit %d s" % bugs)
        table(["fuzzer", "found", "seconds", "execs"], rows)

    # Done-when criteria.
    print("done when (issue 4):")
    verdicts = []
    if results["execs"]:
        ok = all(e.get("cgofuzz") and e.get("libfuzzer") and
                 e["cgofuzz"] >= e["libfuzzer"]
                 for e in results["execs"].values())
        verdicts.append(("execs/sec >= 1.0x libFuzzer on small targets", ok))
    if results["edges"]:
        wins = sum(1 for v in results["edges"].values()
                   if v["edges"].get("cgofuzz") is not None and
                   v["edges"].get("libfuzzer") is not None and
                   v["edges"]["cgofuzz"] >= v["edges"]["libfuzzer"])
        verdicts.append(("edges after %d s >= libFuzzer's on >= 2 real "
                         "libraries (%d of %d)" % (secs, wins,
                                                   len(results["edges"])),
                         wins >= 2))
        verdicts.append(("edges after %d s >= libFuzzer's on all three, "
                         "median of %d (issue 13)" % (secs, a.runs),
                         wins == len(results["edges"]) == 3))
    if results["bug"]:
        b = results["bug"]
        ok = b.get("cgofuzz, trace-cmp") is not None and \
            b.get("cgofuzz, no trace-cmp") is None
        verdicts.append(("planted magic bug found with trace-cmp, not "
                         "without (within %d s)" % bugs, ok))
    for what, ok in verdicts:
        print("  %s  %s" % ("PASS" if ok else "FAIL", what))
    print("\nload average at end: %s; total %.0f s" % (
        " ".join(open("/proc/loadavg").read().split()[:3]),
        time.monotonic() - t_start))
    if notes:
        print("notes:")
        for n in notes:
            print("  - " + n.replace("\n", "\n    "))
    results["verdicts"] = verdicts
    results["notes"] = notes
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

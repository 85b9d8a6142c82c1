#!/usr/bin/env python3
"""C targets: cgofuzz against libFuzzer and AFL++ on the same C code.

Builds each harness (libFuzzer form, LLVMFuzzerTestOneInput) three ways --
as a cgofuzz target (target FuzzLibFuzzer), as a libFuzzer binary and,
where afl++ is installed, as an AFL++ binary -- plus a plain coverage build
used as the common yardstick, and runs them one after the other, one
process/worker each, in the same run:

  1. execs/sec on small targets (empty, tiny parser);
  2. edges covered after --seconds (60) on real C libraries built from
     Debian source packages, counted by replaying each fuzzer's output
     corpus through one coverage binary (bench/c/covdrive.c). Six
     harnesses (--libs picks some): zlib_inflate, png_read, cjson_parse
     (bench/c/, issue 4's three), and three libraries fuzzed through
     their upstream libFuzzer harnesses: expat_parse (expat's
     fuzz/xml_parse_fuzzer.c, UTF-8, compiled from the source package),
     pcre2_match (pcre2's src/pcre2_fuzzsupport.c, from the source
     package, OSS-Fuzz's limits: match limit and depth 1000, \\C off)
     and jsonc_parse (bench/c/jsonc_parse.c: json-c's
     fuzz/tokener_parse_ex_fuzzer.cc in C, since the copy in Debian's
     json-c 0.16 does not compile). expat and json-c are configured once
     with their own CMake into bench/.cache/cfg/, pcre2 from its .generic
     files;
  3. time to a planted bug: a magic value behind eight byte comparisons in
     a loop (bench/c/magic.c), cgofuzz with and without trace-cmp,
     libFuzzer (and AFL++, with cmplog when available) for reference.

Prints tables with ratios and a PASS/FAIL line per done-when criterion:
issue 4's (execs/sec, edges on >= 2 of the first three libraries, the
planted bug), issue 13's (edges on all of the first three) and issue 24's
(edges >= 1.2x libFuzzer's on each of the six, median of 5 rounds per
engine: PASS, FAIL, or INCOMPLETE while a library has fewer than 5
rounds). Dependencies come from Debian packages (installed when missing,
as root): clang-14, libclang-rt-14-dev, afl++ (not with --no-afl),
dpkg-dev, cmake, and the source packages zlib, libpng1.6, cjson, expat,
json-c and pcre2 (a deb-src entry is added if none is configured).
Everything built or fetched goes to bench/.cache/.

C targets are fuzzed by their own -test.fuzz (cgofuzz's coordinator linked
into the target). The fallback, for a runtime that cannot, is Go's
coordinator: a Go test binary (bench/c/gopkg) runs with argv[0] set to the C
target, so Go starts the C binary as its worker; the table's header says
which was used. Edge runs are repeated --runs times (3; 1 with --quick),
the engines alternating (cgofuzz first in even rounds, last in odd ones),
and each engine's median round is reported (the lower middle one for an
even count).

Issue 24's measurement is `--only edges --seconds 600 --runs 5` (about
10 hours for the six libraries without AFL++). It can be taken in parts,
on different days: each part writes --json (which records the seconds,
the cgofuzz commit and, for every round, the engine that ran it: a hash of
cgofuzz's runtime libraries, the clang version of libFuzzer, afl-fuzz's
version), e.g. `--libs zlib_inflate,png_read` one day and the others the
next, or `--runs 3` then `--runs 2 --first-round 3` (which keeps the
alternation going); `--summarize a.json b.json ...` then joins the rounds
(the files must agree on --seconds; it says which differ), warns if the
parts ran different engines, and prints the edges table and issue 24's
line. --summarize runs nothing.

usage: bench/c/c_bench.py [--quick] [--seconds 60] [--runs 3] [--build build]
                        [--no-rebuild] [--only execs,edges,bug]
                        [--libs zlib_inflate,...] [--first-round 0]
                        [--json FILE]
       bench/c/c_bench.py --summarize FILE.json [FILE.json ...]
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
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import (BENCH, CACHE, ROOT, Proc, fresh, note,  # noqa: E402
                      sh_merged, table)
from testlib import go_unquote  # noqa: E402  (shared with the tests)
CDIR = os.path.join(BENCH, "c")
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

SRCPKGS = {"zlib": "zlib", "libpng": "libpng1.6", "cjson": "cjson",
           "expat": "expat", "jsonc": "json-c", "pcre2": "pcre2"}


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
    r = sh_merged(["apt-get"] + argv, env=env)
    if r.returncode != 0:
        note(r.stdout[-2000:])
    return r.returncode == 0


def ensure_deps(notes, afl=True):
    root = os.geteuid() == 0
    want = []
    if not shutil.which("clang-14") and not shutil.which("clang"):
        want += ["clang-14"]
    if not glob.glob("/usr/lib/llvm-14/lib/clang/*/lib/linux/"
                     "libclang_rt.fuzzer-x86_64.a"):
        want += ["libclang-rt-14-dev"]
    if afl and not shutil.which("afl-clang-fast"):
        want += ["afl++"]
    if not shutil.which("dpkg-source"):
        want += ["dpkg-dev"]
    if not shutil.which("cmake"):
        want += ["cmake"]  # configures expat and json-c (their headers)
    updated = False
    if want and root:
        note("installing " + " ".join(want))
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
            note("added " + path)
            updated = False
        else:
            notes.append("no deb-src entry and not root")
    if missing and not updated:
        apt(["update", "-q"])
    for p in missing:
        r = sh_merged(["apt-get", "source", "--download-only", "-q", p], cwd=SRC)
        for dsc in glob.glob(os.path.join(SRC, p + "_*.dsc")):
            sh_merged(["dpkg-source", "-q", "-x", os.path.basename(dsc)], cwd=SRC)
        if not srcdir(p):
            notes.append("source package %s not available: %s" %
                         (p, r.stdout.strip().splitlines()[-1:]))


def srcdir(pkg):
    d = sorted(d for d in glob.glob(os.path.join(SRC, pkg + "-*"))
               if os.path.isdir(d))
    return d[-1] if d else None


# --------------------------------------------------------------- build --

def cmake_configure(name, src, args, want):
    """Runs the package's own CMake configure once, into
    bench/.cache/cfg/<name>, for the headers it generates (want); returns
    that directory, or None (and says why) if configuring failed."""
    d = os.path.join(CACHE, "cfg", name)
    if all(os.path.exists(os.path.join(d, w)) for w in want):
        return d
    shutil.rmtree(d, ignore_errors=True)
    r = sh_merged(["cmake", "-S", src, "-B", d, "-DCMAKE_C_COMPILER=" + CLANG,
            "-DCMAKE_BUILD_TYPE=Release"] + args)
    if r.returncode != 0 or not all(
            os.path.exists(os.path.join(d, w)) for w in want):
        note("cmake configure of %s failed (rc %d):\n%s" % (
            name, r.returncode, r.stdout[-2000:]))
        return None
    return d


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
    # The three below as OSS-Fuzz configures them (its projects' build.sh):
    # expat and json-c by their CMake defaults (static), pcre2 as
    # `configure --enable-fuzz-support --enable-never-backslash-C
    # --with-match-limit=1000 --with-match-limit-depth=1000` (Unicode on,
    # JIT off), here from the shipped .generic files and -D flags.
    x = srcdir("expat")
    if x:
        x = os.path.join(x, "expat")
        cfg = cmake_configure("expat", x, [
            "-DEXPAT_SHARED_LIBS=OFF", "-DEXPAT_BUILD_TESTS=OFF",
            "-DEXPAT_BUILD_TOOLS=OFF", "-DEXPAT_BUILD_EXAMPLES=OFF",
            "-DEXPAT_BUILD_DOCS=OFF"], ["expat_config.h"])
        if cfg:
            # Debian's security patches test `#if XML_DTD == 1`: Debian
            # configures with autotools, which defines XML_DTD and XML_NS
            # as 1, and 2.5.0's CMake template defines them empty.
            conf = os.path.join(cfg, "expat_config.h")
            text = open(conf).read()
            fixed = re.sub(r"^#define (XML_DTD|XML_NS)[ \t]*$",
                           r"#define \1 1", text, flags=re.M)
            if fixed != text:
                with open(conf, "w") as f:
                    f.write(fixed)
            libs["expat"] = ([os.path.join(x, "lib", f + ".c") for f in (
                "xmlparse", "xmlrole", "xmltok")],
                [cfg, os.path.join(x, "lib")], ["-fno-strict-aliasing"],
                [], [])
    jc = srcdir("json-c")
    if jc:
        cfg = cmake_configure("json-c", jc, ["-DBUILD_SHARED_LIBS=OFF"],
                              ["json.h", "json_config.h", "config.h"])
        if cfg:
            libs["jsonc"] = ([os.path.join(jc, f + ".c") for f in (
                "arraylist debug json_c_version json_object "
                "json_object_iterator json_pointer json_tokener json_util "
                "json_visit linkhash printbuf random_seed "
                "strerror_override").split()], [cfg, jc],
                ["-D_GNU_SOURCE", "-D_REENTRANT"], [], ["-lm"])
    pc = srcdir("pcre2")
    if pc:
        sd = os.path.join(pc, "src")
        for a, b in (("config.h.generic", "config.h"),
                     ("pcre2.h.generic", "pcre2.h"),
                     ("pcre2_chartables.c.dist", "pcre2_chartables.c")):
            if not os.path.exists(os.path.join(sd, b)):
                shutil.copy(os.path.join(sd, a), os.path.join(sd, b))
        libs["pcre2"] = ([os.path.join(sd, "pcre2_" + f + ".c") for f in (
            "auto_possess chartables compile config context convert "
            "dfa_match error extuni find_bracket jit_compile maketables "
            "match match_data newline ord2utf pattern_info script_run "
            "serialize string_utils study substitute substring tables ucd "
            "valid_utf xclass").split()], [sd],
            ["-DHAVE_CONFIG_H", "-DPCRE2_CODE_UNIT_WIDTH=8", "-DPCRE2_STATIC",
             "-DSUPPORT_PCRE2_8", "-DSUPPORT_UNICODE", "-DNEVER_BACKSLASH_C",
             "-DMATCH_LIMIT=1000", "-DMATCH_LIMIT_DEPTH=1000",
             "-DHAVE_STDLIB_H", "-DHAVE_STRING_H", "-DHAVE_MEMMOVE",
             "-DHAVE_INTTYPES_H", "-DHAVE_STDINT_H", "-DHAVE_UNISTD_H"],
            [], [])
    return libs


# harness -> library it needs (None: none)
HARNESSES = {"empty": None, "tiny": None, "magic": None,
             "zlib_inflate": "zlib", "png_read": "libpng",
             "cjson_parse": "cjson", "expat_parse": "expat",
             "jsonc_parse": "jsonc", "pcre2_match": "pcre2"}

# The edge section's harnesses, in table order: issue 4's three, then
# three libraries fuzzed through their upstream libFuzzer harnesses.
EDGE_HARNESSES = ["zlib_inflate", "png_read", "cjson_parse",
                  "expat_parse", "jsonc_parse", "pcre2_match"]
ISSUE4 = EDGE_HARNESSES[:3]

# Harnesses compiled from the library's source package rather than from
# bench/c/: harness -> (path in the unpacked package, its own cflags).
# expat: the UTF-8 one of the six binaries its CMake builds per encoding.
# pcre2: SUPPORT_LIBFUZZER is what configure --enable-fuzz-support
# defines (10.42's pcre2_fuzzsupport.c does not test it; later ones do).
UPSTREAM = {
    "expat_parse": ("expat/fuzz/xml_parse_fuzzer.c",
                    ["-DENCODING_FOR_FUZZING=UTF-8"]),
    "pcre2_match": ("src/pcre2_fuzzsupport.c", ["-DSUPPORT_LIBFUZZER"]),
}


def harness_source(h):
    """(source file, extra cflags) of harness h."""
    if h in UPSTREAM:
        d = srcdir(SRCPKGS[HARNESSES[h]])
        if d:
            return os.path.join(d, UPSTREAM[h][0]), UPSTREAM[h][1]
    return os.path.join(CDIR, h + ".c"), []


def compile_obj(fl, src, incs, extra):
    f = FLAVOURS[fl]
    argv = [f["cc"]] + OPT + f["cflags"] + extra + \
        ["-I" + i for i in incs] + ["-c", src]
    key = hashlib.sha1(("\0".join(argv)).encode()).hexdigest()[:12]
    out = os.path.join(OBJ, fl, "%s-%s.o" % (
        os.path.splitext(os.path.basename(src))[0], key))
    if os.path.exists(out) and os.path.getmtime(out) >= \
            os.path.getmtime(src):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    env = dict(os.environ, **f.get("env", {}))
    r = sh_merged(argv + ["-o", out + ".tmp"], env=env)
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
            hsrc, hflags = harness_source(h)
            tasks.append((fl, hsrc, incs, hflags))
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
            o = [objs[(fl, harness_source(h)[0])]]
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
            r = sh_merged(argv, env=env)
            if r.returncode != 0:
                notes.append("link failed for %s.%s: %s" % (
                    h, fl, r.stdout.strip()[-500:]))
                continue
            bins[(fl, h)] = out
    return bins


def build_cgofuzz(build, rebuild):
    if rebuild:
        r = sh_merged(["cmake", "--build", build, "--target", "cgofuzz",
                "cgofuzz_main"])
        if r.returncode != 0:
            note(r.stdout[-3000:])
            raise SystemExit("cgofuzz build failed")
    libs = [os.path.join(build, "libcgofuzz_main.a"),
            os.path.join(build, "libcgofuzz.a")]
    for l in libs:
        if not os.path.exists(l):
            raise SystemExit("missing %s (build cgofuzz first)" % l)
    return libs


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
    r = sh_merged([GO, "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=work, env=env)
    if r.returncode != 0:
        raise SystemExit("go test -c failed:\n" + r.stdout)
    return exe


# ---------------------------------------------------------------- runs --

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
                env=None, keep_going=False):
    d = fresh(os.path.join(RUNS, name))
    write_seeds(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer"),
                [])
    for i, s in enumerate(seeds):
        with open(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer",
                               "seed%d" % i), "w") as f:
            f.write("go test fuzz v1\n[]byte(%s)\n" % go_quote(s))
    execs_total, parts, failures = 0, [], 0
    t0 = time.monotonic()
    while True:
        left = seconds - (time.monotonic() - t0)
        argv = [target, "-test.fuzz=^FuzzLibFuzzer$",
                "-test.run=^FuzzLibFuzzer$",
                "-test.fuzztime=" + (count or "%ds" % max(1, round(left))),
                "-test.parallel=1",
                "-test.fuzzcachedir=" + os.path.join(d, "cache")]
        exe = None if cfg["self"] else cfg["gocoord"]
        p = Proc(argv, d, left + 60, env=env, executable=exe, stop=stop)
        execs = el = 0
        for m in PROGRESS.finditer(p.out):
            if int(m.group(2)) >= execs:
                execs, el = int(m.group(2)), int(m.group(1))
        execs_total += execs
        parts.append(p)
        if not keep_going or p.rc == 0 or count:
            break
        # A failure ended the run: its input is written to testdata, where
        # a restart would take it for a seed that fails. It goes to
        # failures/ (out of the corpus the edges are counted on).
        tdir = os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer")
        moved = 0
        for f in os.listdir(tdir):
            if not f.startswith("seed"):
                os.makedirs(os.path.join(d, "failures"), exist_ok=True)
                os.rename(os.path.join(tdir, f),
                          os.path.join(d, "failures", f))
                moved += 1
        failures += 1
        if not moved or seconds - (time.monotonic() - t0) < 5:
            break
    raw = os.path.join(d, "raw")
    decode_go_corpus(os.path.join(d, "testdata", "fuzz", "FuzzLibFuzzer"),
                     raw)
    decode_go_corpus(os.path.join(d, "cache", "FuzzLibFuzzer"), raw)
    out = "\n".join(q.out for q in parts)
    note = ""
    if "context deadline exceeded" in out:
        note = "context deadline exceeded"
    if failures:
        note = (note + "; " if note else "") + \
            "%d failure(s), restarted for the time left" % failures
    wall = time.monotonic() - t0
    el = sum(q.wall for q in parts) if len(parts) > 1 else el
    return dict(execs=execs_total, secs=el or wall,
                eps=execs_total / el if el else None, corpus=raw,
                hit=parts[0].hit, rc=parts[-1].rc, wall=wall, note=note,
                tail=out[-1500:], failures=failures)


def run_libfuzzer(target, name, seconds, seeds, extra=(), stop=None,
                  keep_going=False):
    d = fresh(os.path.join(RUNS, name))
    corpus = os.path.join(d, "corpus")
    write_seeds(corpus, seeds)
    execs, parts, failures = 0, [], 0
    t0 = time.monotonic()
    while True:
        left = seconds - (time.monotonic() - t0)
        argv = [target, corpus, "-max_total_time=%d" % max(1, round(left)),
                "-print_final_stats=1", "-artifact_prefix=" + d + "/",
                "-close_fd_mask=1"] + list(extra)
        p = Proc(argv, d, left + 60, stop=stop)
        parts.append(p)
        units = re.search(r"stat::number_of_executed_units: (\d+)", p.out)
        if units:
            execs += int(units.group(1))
        # libFuzzer exits 0 when its time is up, and on a crash, timeout,
        # OOM or leak writes the artifact and exits non-zero: the corpus
        # stays, so a restart goes on from it (the Magma script does the
        # same); the artifacts are outside the corpus.
        if not keep_going or p.rc == 0 or stop:
            break
        failures += 1
        if seconds - (time.monotonic() - t0) < 5:
            break
    wall = time.monotonic() - t0
    eps = re.search(r"stat::average_exec_per_sec:\s+(\d+)", parts[-1].out)
    note = ("%d failure(s), restarted for the time left" % failures
            if failures else "")
    return dict(execs=execs,
                eps=(execs / wall if len(parts) > 1 and wall else
                     int(eps.group(1)) if eps else None),
                corpus=corpus, hit=parts[0].hit, rc=parts[-1].rc, wall=wall,
                note=note, tail=parts[-1].out[-1500:], failures=failures)


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
    """Edges the files of corpus (a directory, or a list of them) reach
    together: (edges, files, error text)."""
    dirs = [corpus] if isinstance(corpus, str) else corpus
    files = sorted(f for d in dirs for f in glob.glob(os.path.join(d, "*"))
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


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


# ------------------------------------------------------------ identity --

def git_commit():
    """HEAD's commit; "-dirty" when the runtime's sources (csrc, include)
    differ from it."""
    def git(*argv):
        return subprocess.run(["git", "-C", ROOT] + list(argv),
                              stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL,
                              text=True).stdout.strip()
    head = git("rev-parse", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "csrc", "include")
    return head + ("-dirty" if dirty else "")


def short_commit(c):
    return c[:12] + c[40:] if len(c) >= 40 else c


def engine_ids(cgo_libs, use_afl):
    """What each engine is, recorded with every edge round so that rounds
    taken on different days can be checked for the same engines:
    cgofuzz's runtime libraries (hashed, as linked from --build), the
    clang that brings libFuzzer, afl-fuzz's version."""
    h = hashlib.sha256()
    for path in cgo_libs:
        with open(path, "rb") as f:
            h.update(f.read())
    ids = {"cgofuzz": "cgofuzz runtime " + h.hexdigest()[:16]}
    try:
        ids["libfuzzer"] = "libFuzzer of " + subprocess.run(
            [CLANG, "--version"], stdout=subprocess.PIPE, text=True,
            timeout=30).stdout.splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        ids["libfuzzer"] = "libFuzzer of " + CLANG
    if use_afl:
        try:
            out = sh_merged(["afl-fuzz"], timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        m = re.search(r"afl-fuzz\+\+\s*(\S+)", out)
        ids["afl"] = "afl-fuzz++" + (m.group(1) if m else " (version?)")
    return ids


# ---------------------------------------------------------- edge table --

ENGINES = (("cgofuzz", "cgofuzz"), ("libfuzzer", "libFuzzer"),
           ("afl", "AFL++"))


def median_round(rs):
    """The median round among those counted (the lower middle one for an
    even count) and how many were counted."""
    ok = sorted((r for r in rs if r.get("edges") is not None),
                key=lambda r: r["edges"])
    return (ok[(len(ok) - 1) // 2] if ok else None), len(ok)


def set_medians(v):
    """Fills v["edges"] and v["files"] (engine -> the median round's) from
    v["rounds"], keeping v["edges"]["seeds"]."""
    e = {"seeds": v["edges"]["seeds"]} if v["edges"].get("seeds") \
        is not None else {}
    n = {}
    for k, rs in v["rounds"].items():
        mid, _ = median_round(rs)
        if mid:
            e[k], n[k] = mid["edges"], mid["files"]
    v["edges"], v["files"] = e, n


def edge_order(edges):
    return [h for h in EDGE_HARNESSES if h in edges] + \
        sorted(h for h in edges if h not in EDGE_HARNESSES)


def edges_report(edges, secs):
    """The edges table: each engine's median round, the ratios, how many
    rounds each median is of, then every round's edges."""
    rows, counts = [], set()
    for h in edge_order(edges):
        v = edges[h]
        e, n = v["edges"], v["files"]
        nr = [median_round(v["rounds"].get(k, []))[1]
              for k, _ in ENGINES if k in v["rounds"]]
        counts.update(nr)
        rows.append([h, fmt(e.get("seeds"))] +
                    ["%s (%s)" % (fmt(e.get(k)), fmt(n.get(k)))
                     for k, _ in ENGINES] +
                    [ratio(e.get("cgofuzz"), e.get("libfuzzer")),
                     ratio(e.get("cgofuzz"), e.get("afl")),
                     "/".join(str(x) for x in sorted(set(nr)))])
    print("edges covered after %d s, median of %s round(s) per engine "
          "(corpus files in parentheses; replayed through one coverage "
          "build, bench/c/covdrive.c)" % (
              secs, "/".join(str(x) for x in sorted(counts)) or "0"))
    table(["library", "seeds"] + [name for _, name in ENGINES] +
          ["cg/lF", "cg/AFL", "rounds"], rows)
    for h in edge_order(edges):
        print("  %s: %s" % (h, "; ".join(
            "%s %s" % (k, [x["edges"] for x in rs])
            for k, rs in edges[h]["rounds"].items())))
    un = [(h, edges[h]["union"]["edges"]) for h in edge_order(edges)
          if (edges[h].get("union") or {}).get("edges")]
    if un:
        print("\n  union of every round's corpora, all engines (what they "
              "reached between them), and 1.2x libFuzzer's median:")
        for h, n in un:
            lf = edges[h]["edges"].get("libfuzzer")
            print("  %s: union %d; 1.2x libFuzzer = %s%s" % (
                h, n, fmt(lf and round(1.2 * lf)),
                " (above the union)" if lf and 1.2 * lf > n else ""))
    print()


ISSUE24_RATIO = 1.2
ISSUE24_ROUNDS = 5


def issue24(edges, secs):
    """Issue 24's done-when: (line, True/False/None = incomplete, detail).
    FAIL if a library with enough rounds misses the ratio; otherwise
    INCOMPLETE if a library is missing or has fewer than 5 rounds for
    cgofuzz or libFuzzer."""
    fails, short, good, counts = [], [], [], []
    for h in EDGE_HARNESSES:
        v = edges.get(h)
        if not v:
            short.append("%s not run" % h)
            continue
        cg = median_round(v["rounds"].get("cgofuzz", []))
        lf = median_round(v["rounds"].get("libfuzzer", []))
        counts += [cg[1], lf[1]]
        r = cg[0]["edges"] / lf[0]["edges"] if cg[0] and lf[0] and \
            lf[0]["edges"] else None
        what = "%s %s" % (h, "-" if r is None else "%.2fx" % r)
        if min(cg[1], lf[1]) < ISSUE24_ROUNDS:
            short.append("%s (%d/%d rounds)" % (what, cg[1], lf[1]))
        elif r is None or r < ISSUE24_RATIO:
            fails.append(what)
        else:
            good.append(what)
    lo, hi = (min(counts), max(counts)) if counts else (0, 0)
    line = ("edges after %d s >= %.1fx libFuzzer's on each of the six "
            "libraries, median of %s (issue 24)" % (
                secs, ISSUE24_RATIO,
                "%d" % lo if lo == hi else "%d-%d" % (lo, hi)))
    ok = False if fails else None if short else True
    detail = "; ".join(x for x in (
        "below: " + ", ".join(fails) if fails else "",
        "met: " + ", ".join(good) if good else "",
        "incomplete (%d rounds per engine needed): %s" % (
            ISSUE24_ROUNDS, ", ".join(short)) if short else "") if x)
    if secs != 600:
        detail += "; the issue's runs are 600 s"
    return line, ok, detail


def verdict(ok):
    return "PASS" if ok else "INCOMPLETE" if ok is None else "FAIL"


def summarize(paths):
    """--summarize: joins the edge rounds of several --json files (parts of
    one measurement taken at different times) and prints the edges table
    and issue 24's criterion."""
    parts = []
    for p in paths:
        try:
            with open(p) as f:
                parts.append((p, json.load(f)))
        except (OSError, ValueError) as e:
            print("cannot read %s: %s" % (p, e))
            return 2
    secs = {p: d.get("seconds") for p, d in parts}
    if None in secs.values():
        print("no --seconds recorded in %s (written by an older c_bench.py)"
              % ", ".join(p for p, v in secs.items() if v is None))
        return 2
    if len(set(secs.values())) > 1:
        print("cannot join: --seconds differ: %s" % ", ".join(
            "%s %d s" % (p, v) for p, v in secs.items()))
        return 2
    secs = parts[0][1]["seconds"]
    joined, seen = {}, {}
    print("joining %d result file(s), %d s edge runs:" % (len(parts), secs))
    for p, d in parts:
        libs = []
        for h, v in d.get("edges", {}).items():
            j = joined.setdefault(h, dict(edges={}, files={}, rounds={}))
            if v.get("edges", {}).get("seeds") is not None:
                j["edges"]["seeds"] = v["edges"]["seeds"]
            # Parts keep no corpora to join: the largest part's union
            # stands for the union (a lower bound of it).
            pu = (v.get("union") or {}).get("edges")
            if pu and pu > (j.get("union") or {}).get("edges", 0):
                j["union"] = dict(v["union"])
            nr = 0
            for k, rs in v.get("rounds", {}).items():
                j["rounds"].setdefault(k, []).extend(rs)
                nr = max(nr, len(rs))
                for r in rs:
                    eid = r.get("engine") or d.get("engines", {}).get(k) \
                        or "(not recorded)"
                    seen.setdefault(k, {}).setdefault(eid, set()).add(p)
            libs.append("%s %d" % (h, nr))
        seen.setdefault("mode", {}).setdefault(
            d.get("mode", "(not recorded)"), set()).add(p)
        print("  %s: commit %s, started %s, rounds: %s" % (
            p, short_commit(d.get("commit", "(not recorded)")),
            d.get("started", "?"), ", ".join(libs) or "none"))
    differ = False
    for k, ids in seen.items():
        if len(ids) > 1:
            differ = True
            print("WARNING: the parts ran different %s: %s" % (
                "modes" if k == "mode" else k + " engines", "; ".join(
                    "%s (%s)" % (i, ", ".join(sorted(ps)))
                    for i, ps in sorted(ids.items()))))
    if not differ:
        print("same engines in every round: %s" % "; ".join(
            next(iter(ids)) for k, ids in seen.items() if k != "mode"))
    print()
    for v in joined.values():
        set_medians(v)
    edges_report(joined, secs)
    line, ok, detail = issue24(joined, secs)
    print("done when (issue 24):")
    print("  %s  %s" % (verdict(ok), line))
    if detail:
        print("        " + detail)
    return 0


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
    "expat_parse": [
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<a x="1" y=\'2\'>t&amp;<b/><!-- c --><![CDATA[d]]></a>\n',
        b'<!DOCTYPE r [<!ENTITY e "v"><!ATTLIST r k CDATA "d">]>'
        b'<r xmlns:p="u"><p:q>&e;&#65;</p:q><?pi x?></r>'],
    "jsonc_parse": [b'{"a":[1,2.5e3,"x\\u00e9",true,null,{}],"b":-0}',
                    b'[0.5,"s\\n",false,{"k":{"n":null}}]'],
    # pcre2_fuzzsupport.c compiles the input as a pattern (options drawn
    # from the input) and matches it against itself.
    "pcre2_match": [b"(a|b)*?c\\d{2,}[^x-z]$",
                    b"^(?<n>\\w+)\\s\\k<n>(?=.)",
                    b"(?i)[[:alpha:]]+\\p{L}|\\bq\\B"],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: short runs (about 4 minutes)")
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
    ap.add_argument("--libs", default=",".join(EDGE_HARNESSES),
                    help="edge harnesses to run, comma-separated (or "
                    "their libraries' names; default all six: %s)" %
                    ",".join(EDGE_HARNESSES))
    ap.add_argument("--first-round", type=int, default=0,
                    help="number this part's edge rounds from N, so that "
                    "a later part continues the alternation of which "
                    "engine runs first (even rounds: cgofuzz)")
    ap.add_argument("--side-by-side", action="store_true",
                    help="run a round's engines at the same time (one "
                    "process each; needs a core per engine) instead of "
                    "one after the other")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--summarize", nargs="+", metavar="JSON",
                    help="join the edge rounds of these --json files "
                    "(same --seconds) and print the edges table and "
                    "issue 24's criterion; runs nothing")
    a = ap.parse_args()
    if a.summarize:
        return summarize(a.summarize)
    alias = {l: h for h, l in HARNESSES.items() if h in EDGE_HARNESSES}
    alias.update({"libpng1.6": "png_read", "json-c": "jsonc_parse"})
    libs_sel = []
    for x in a.libs.split(","):
        x = x.strip()
        h = x if x in EDGE_HARNESSES else alias.get(x)
        if not x:
            continue
        if not h:
            ap.error("--libs: unknown %r (one of %s, or %s)" % (
                x, ",".join(EDGE_HARNESSES), ",".join(sorted(alias))))
        if h not in libs_sel:
            libs_sel.append(h)
    secs = a.seconds or (8 if a.quick else 60)
    speed = a.speed_seconds or (3 if a.quick else 15)
    bugs = a.bug_seconds or (12 if a.quick else 90)
    a.runs = a.runs or (1 if a.quick else 3)
    only = set(a.only.split(","))
    notes = []
    t_start = time.monotonic()

    if not a.no_deps:
        ensure_deps(notes, afl=not a.no_afl)
    cgo_libs = build_cgofuzz(a.build, not a.no_rebuild)
    use_afl = bool(AFLCC) and not a.no_afl and shutil.which("afl-fuzz")
    flavours = ["cg", "lf", "cov"] + (["afl"] if use_afl else [])
    harnesses = []
    if "execs" in only:
        harnesses += ["empty", "tiny"]
    if "edges" in only:
        harnesses += libs_sel
    note("building %s for %s" % (", ".join(harnesses), ", ".join(flavours)))
    bins = build_all(flavours, harnesses, cgo_libs, a.jobs, notes)
    if "bug" in only:
        bins.update(build_all(["cg", "cgn", "lf"] + (
            ["afl", "aflcl"] if use_afl else []), ["magic"], cgo_libs,
            a.jobs, notes))
    note("built in %.0fs" % (time.monotonic() - t_start))

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
    commit = git_commit()
    results = {"mode": mode, "commit": commit,
               "started": time.strftime("%Y-%m-%d %H:%M:%S"),
               "argv": sys.argv[1:], "seconds": secs, "runs": a.runs,
               "execs": {}, "edges": {}, "bug": {}}

    print("commit %s" % short_commit(commit))
    print("cgofuzz C targets vs libFuzzer%s (%s; one process/worker each)"
          % (" vs AFL++" if use_afl else "", mode))
    print("load average at start: %s\n" % loadavg())

    # 1. execs/sec on small targets.
    if "execs" in only:
        rows = []
        for h in ("empty", "tiny"):
            r = {}
            note("execs/sec: %s" % h)
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

    # 2. edges after N seconds: --runs rounds; within a round each engine
    # runs once, cgofuzz first in even rounds and last in odd ones, so that
    # load drifts hit both alike; the table shows each engine's median
    # round (its corpus size beside it). Every round records the engine
    # that ran it, for --summarize.
    if "edges" in only:
        ids = engine_ids(cgo_libs, use_afl)
        results["engines"] = ids
        for h in libs_sel:
            if ("cov", h) not in bins:
                notes.append("%s: not built (library %s missing), skipped"
                             % (h, HARNESSES[h]))
                continue
            engines = [(k, f) for k, f in (("cgofuzz", "cg"),
                                           ("libfuzzer", "lf"),
                                           ("afl", "afl"))
                       if (f, h) in bins]
            rounds = {k: [] for k, _ in engines}
            corpora = []
            for i in range(a.runs):
                rnd = a.first_round + i
                order = engines if rnd % 2 == 0 else engines[::-1]
                note("edges: %s (round %d of %d)" % (h, i + 1, a.runs))

                def one(k, f, rnd=rnd, h=h):
                    name = "edges-%s-%s-%d" % (f, h, rnd)
                    started = time.strftime("%Y-%m-%d %H:%M:%S")
                    load = loadavg().split()[0]
                    if k == "cgofuzz":
                        v = run_cgofuzz(cfg, bins[(f, h)], name, secs,
                                        SEEDS[h], keep_going=True)
                    elif k == "libfuzzer":
                        v = run_libfuzzer(bins[(f, h)], name, secs,
                                          SEEDS[h], keep_going=True)
                    else:
                        v = run_afl(bins[(f, h)], name, secs, SEEDS[h])
                    return v, started, load

                # --side-by-side: the round's engines run at the same
                # time, each a single process, so that they share one
                # load (and a round takes one engine's time).
                if a.side_by_side:
                    with concurrent.futures.ThreadPoolExecutor(
                            len(order)) as pool:
                        futs = [pool.submit(one, k, f) for k, f in order]
                        done = [fu.result() for fu in futs]
                else:
                    done = [one(k, f) for k, f in order]
                for (k, f), (v, started, load) in zip(order, done):
                    corpora.append(v["corpus"])
                    ed, nf, err = count_edges(bins[("cov", h)], v["corpus"])
                    if err:
                        notes.append("%s %s: %s" % (h, k, err))
                    if v["note"]:
                        notes.append("%s %s: %s" % (h, k, v["note"]))
                    rounds[k].append(dict(
                        edges=ed, files=nf, execs=v["execs"], round=rnd,
                        failures=v.get("failures", 0),
                        wall=round(v["wall"], 1),
                        order=[x for x, _ in order], engine=ids[k],
                        started=started, load=load,
                        side_by_side=a.side_by_side))
            seed_dir = fresh(os.path.join(RUNS, "seeds-" + h))
            write_seeds(seed_dir, SEEDS[h])
            sd, _, _ = count_edges(bins[("cov", h)], seed_dir)
            # The union of every corpus of this part, all engines: what the
            # engines reached between them, a yardstick of how close to
            # the reachable whole each one got (a saturated library leaves
            # no room for a ratio much above 1).
            un, unf, _ = count_edges(bins[("cov", h)], corpora)
            results["edges"][h] = v = dict(edges={"seeds": sd}, files={},
                                           rounds=rounds,
                                           union=dict(edges=un, files=unf))
            set_medians(v)
        edges_report(results["edges"], secs)

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
            note("bug: " + label)
            v = fn()
            results["bug"][label] = v["hit"]
            rows.append([label, "yes" if v["hit"] is not None else "no",
                         "%.1f" % v["hit"] if v["hit"] is not None else
                         "> %d" % bugs, fmt(v["execs"])])
        print("time to the planted bug (magic value behind 8 byte "
              "comparisons in a loop), limit %d s" % bugs)
        table(["fuzzer", "found", "seconds", "execs"], rows)

    # Done-when criteria.
    print("done when (issue 4 unless marked):")
    verdicts = []
    if results["execs"]:
        ok = all(e.get("cgofuzz") and e.get("libfuzzer") and
                 e["cgofuzz"] >= e["libfuzzer"]
                 for e in results["execs"].values())
        verdicts.append(("execs/sec >= 1.0x libFuzzer on small targets", ok))
    details = {}
    # Issues 4 and 13 are about the first three libraries.
    e4 = [v for h, v in results["edges"].items() if h in ISSUE4]
    if e4:
        wins = sum(1 for v in e4
                   if v["edges"].get("cgofuzz") is not None and
                   v["edges"].get("libfuzzer") is not None and
                   v["edges"]["cgofuzz"] >= v["edges"]["libfuzzer"])
        verdicts.append(("edges after %d s >= libFuzzer's on >= 2 real "
                         "libraries (%d of %d)" % (secs, wins, len(e4)),
                         wins >= 2))
        verdicts.append(("edges after %d s >= libFuzzer's on all three, "
                         "median of %d (issue 13)" % (secs, a.runs),
                         wins == len(e4) == 3))
    if results["edges"]:
        line, ok, details[len(verdicts)] = issue24(results["edges"], secs)
        verdicts.append((line, ok))
    if results["bug"]:
        b = results["bug"]
        ok = b.get("cgofuzz, trace-cmp") is not None and \
            b.get("cgofuzz, no trace-cmp") is None
        verdicts.append(("planted magic bug found with trace-cmp, not "
                         "without (within %d s)" % bugs, ok))
    for i, (what, ok) in enumerate(verdicts):
        print("  %s  %s" % (verdict(ok), what))
        if details.get(i):
            print("        " + details[i])
    print("\nload average at end: %s; total %.0f s" % (
        loadavg(), time.monotonic() - t_start))
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

#!/usr/bin/env python3
"""Differential test: cgofuzz's C core against the installed Go's internal/fuzz.

Builds a reference driver from a temporary copy of five files of
$(go env GOROOT)/src/internal/fuzz plus our facade (tests/core/diff/refdriver),
generates thousands of cases per category from a random seed (printed; use
--seed to replay), streams them through the Go and the C driver (one process
each, one request per line) and compares the answers line by line.

Usage (from the repo root):
    python3 tests/core/diff/difftest.py --cdriver build/tests/cgofuzz_cdriver
    python3 tests/core/diff/difftest.py --seed 12345 --cases 1000
    python3 tests/core/diff/difftest.py --replay failing-lines.txt

Exit status: 0 when every case agrees, 1 on any disagreement, 2 when the
harness itself cannot run (no Go, no C driver, driver crash).
See tests/core/diff/README.md for the protocol.
"""

import argparse
from fractions import Fraction
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TESTDATA = os.path.join(REPO, "testdata", "diff")
GO_FILES = ["encoding.go", "pcg.go", "mutator.go", "mutators_byteslice.go", "minimize.go"]
CATEGORIES = ["encode", "decode", "mutate", "minimize", "pcg", "wire"]
M64 = (1 << 64) - 1
MAX_SHOW = 8  # mismatches printed per category


def die(msg):
    print("difftest: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------
# Drivers


def find_go(arg):
    if arg:
        return arg
    go = shutil.which("go")
    if go:
        return go
    if os.path.exists("/usr/local/go/bin/go"):
        return "/usr/local/go/bin/go"
    die("no Go toolchain found (use --go PATH)")


SKIP = 77  # exit status when --no-fetch finds the toolchain missing (ctest SKIP_RETURN_CODE)


def go_minor(version):
    """The minor number of a GOVERSION such as go1.26.8 or go1.27rc1."""
    m = re.match(r"go1\.(\d+)", version)
    if not m:
        die("cannot read the minor version of %r" % version)
    return int(m.group(1))


def parse_goversion(v):
    """'go1.N[.P]' -> N, or dies."""
    parts = v[len("go"):].split(".") if v.startswith("go1.") else []
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts) or int(parts[1]) < 18:
        die("--goversion wants go1.N or go1.N.P with N >= 18, not %r" % v)
    return int(parts[1])


def toolchain_go(go, version, fetch):
    """The go command of release `version` (e.g. go1.18.10). Toolchains live in
    the module cache as golang.org/toolchain@v0.0.1-<version>.<os>-<arch>;
    GOTOOLCHAIN=<version> makes the installed go command find one there (with
    GOPROXY=off: no network) or, when fetch is true, download it through the
    module proxy (about 100 MB, once). Returns <GOROOT>/bin/go, which is then
    run with GOTOOLCHAIN=local."""
    def goroot(env_extra):
        env = dict(os.environ, GOTOOLCHAIN=version, GOWORK="off", **env_extra)
        r = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, env=env,
                           cwd=tempfile.gettempdir())
        return r.stdout.strip() if r.returncode == 0 else None, r.stderr

    root, err = goroot({"GOPROXY": "off"})
    if not root and fetch:
        print("difftest: fetching %s through the Go module proxy (once)" % version)
        sys.stdout.flush()
        root, err = goroot({})
    if not root:
        if not fetch:
            print("difftest: SKIP: toolchain %s is not in the module cache (fetch it with "
                  "`GOTOOLCHAIN=%s go version`, as scripts/install-deps.sh does)"
                  % (version, version))
            sys.exit(SKIP)
        die("cannot get toolchain %s:\n%s" % (version, err))
    exe = os.path.join(root, "bin", "go")
    if not os.path.exists(exe):
        die("toolchain %s has no %s" % (version, exe))
    return exe


def build_refdriver(go, workdir):
    # GODEBUG=goindex=0: go1.19's module index fails on a GOROOT in the
    # module cache ("import "": import of unknown directory").
    env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local", GOWORK="off",
               GOPROXY="off", CGO_ENABLED="0", GODEBUG="goindex=0")
    goroot = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True,
                            env=env, check=True).stdout.strip()
    version = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True,
                             env=env, check=True).stdout.strip()
    src = os.path.join(goroot, "src", "internal", "fuzz")
    mod = os.path.join(workdir, "ref")
    os.makedirs(os.path.join(mod, "fuzz"))
    for f in GO_FILES:
        shutil.copy(os.path.join(src, f), os.path.join(mod, "fuzz", f))
    shutil.copy(os.path.join(HERE, "refdriver", "export.go.txt"),
                os.path.join(mod, "fuzz", "export.go"))
    shutil.copy(os.path.join(HERE, "refdriver", "main.go.txt"), os.path.join(mod, "main.go"))
    # The PCG stream counter became an atomic.Uint64 in Go 1.22.
    with open(os.path.join(src, "pcg.go")) as fh:
        plain = "var globalInc uint64" in fh.read()
    shutil.copy(os.path.join(HERE, "refdriver",
                             "globalinc_uint64.go.txt" if plain else "globalinc_atomic.go.txt"),
                os.path.join(mod, "fuzz", "globalinc.go"))
    # The module's language version is the release's own: 1.18's files define
    # their own min(), 1.27's use unsafe.SliceData (go >= 1.20).
    with open(os.path.join(mod, "go.mod"), "w") as fh:
        fh.write("module cgofuzzref\n\ngo 1.%d\n" % go_minor(version))
    exe = os.path.join(workdir, "refdriver")
    r = subprocess.run([go, "build", "-o", exe, "."], cwd=mod, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        die("building the reference driver failed:\n" + r.stdout + r.stderr)
    return exe, version, goroot


def find_cdriver(arg):
    cands = [arg] if arg else [
        os.path.join("build", "tests", "cgofuzz_cdriver"),
        os.path.join(REPO, "build", "tests", "cgofuzz_cdriver"),
    ]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    die("no C driver at %s (build target cgofuzz_cdriver, or pass --cdriver)"
        % " or ".join(c for c in cands if c))


def run_drivers(exes, lines, workdir, timeout):
    """Runs every driver on the same request lines; returns their answers."""
    req = os.path.join(workdir, "requests.txt")
    with open(req, "wb") as fh:
        for ln in lines:
            fh.write(ln.encode("ascii") + b"\n")
    procs = []
    for name, argv in exes:
        outp = os.path.join(workdir, "out-%s.txt" % name)
        errp = os.path.join(workdir, "err-%s.txt" % name)
        with open(req, "rb") as fin, open(outp, "wb") as fout, open(errp, "wb") as ferr:
            p = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr)
        procs.append((name, p, outp, errp))
    deadline = time.time() + timeout
    results = {}
    for name, p, outp, errp in procs:
        try:
            p.wait(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            die("%s driver timed out after %ds (a hang: bisect with --replay)" % (name, timeout))
        with open(outp, "rb") as fh:
            out = fh.read().decode("ascii", "replace").split("\n")
        if out and out[-1] == "":
            out.pop()
        with open(errp, "rb") as fh:
            err = fh.read().decode("utf-8", "replace")
        if p.returncode != 0 or len(out) != len(lines):
            n = len(out)
            at = lines[n] if n < len(lines) else "(end)"
            die("%s driver exited with status %d after %d of %d answers; request at the "
                "crash point:\n  %s\nstderr:\n%s" % (name, p.returncode, n, len(lines),
                                                    at[:2000], err[-4000:]))
        results[name] = out
    return results


# ---------------------------------------------------------------------------
# Values: "<n> kind:hex ..."

INT_KINDS = {"int": 64, "int8": 8, "int16": 16, "int32": 32, "int64": 64}
UINT_KINDS = {"uint": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
ALL_KINDS = ["[]byte", "string", "bool"] + list(INT_KINDS) + list(UINT_KINDS) + [
    "float32", "float64"]


def tok(kind, raw):
    if kind in ("[]byte", "string"):
        return kind + ":" + raw.hex()
    if kind == "bool":
        return "bool:" + ("1" if raw else "0")
    return "%s:%x" % (kind, raw & M64)


def vals_field(vals):
    return " ".join([str(len(vals))] + [tok(k, r) for k, r in vals])


def f64bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f64(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


SPECIAL_CPS = [0x0, 0x7, 0x8, 0x9, 0xA, 0xB, 0xC, 0xD, 0x1B, 0x20, 0x22, 0x27, 0x5C, 0x7E,
               0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xA1, 0xAD, 0xFF, 0x100, 0x34F, 0x378, 0x37E,
               0x061C, 0x0600, 0x070F, 0x1680, 0x180E, 0x2000, 0x200A, 0x200B, 0x200D,
               0x200E, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x2066, 0x3000, 0xD7FF,
               0xE000, 0xF8FF, 0xFDD0, 0xFEFF, 0xFFF9, 0xFFFC, 0xFFFD, 0xFFFE, 0xFFFF,
               0x10000, 0x1000C, 0x1D173, 0x1F600, 0x1FFFF, 0x2A6DF, 0x2FFFF, 0x30000,
               0xE0001, 0xE0100, 0xEFFFF, 0xF0000, 0xFFFFD, 0x10FFFD, 0x10FFFF]


def rand_cp(rng):
    """A random valid Unicode scalar value, biased to interesting regions."""
    c = rng.randrange(12)
    if c == 0:
        return rng.randrange(0x20, 0x7F)
    if c == 1:
        return rng.randrange(0, 0x20) if rng.random() < 0.8 else 0x7F
    if c == 2:
        return rng.randrange(0x80, 0x100)
    if c == 3:
        return rng.choice(SPECIAL_CPS)
    if c == 4:
        return rng.randrange(0x300, 0x370)  # combining marks
    if c == 5:
        return rng.randrange(0xE000, 0xF900)  # private use
    if c == 6:
        return rng.randrange(0x10000, 0x110000)
    if c == 7:
        return rng.randrange(0xF0000, 0x110000)  # planes 15-16 (private use)
    if c == 8:
        return rng.randrange(0x1000, 0x3000)
    while True:
        r = rng.randrange(0x100, 0x30000)
        if not 0xD800 <= r < 0xE000:
            return r


INVALID_UTF8 = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\xe0\x80\x80",
                b"\xe0\xa0", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xef\xbf", b"\xf0\x80\x80\x80",
                b"\xf0\x90\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8", b"\xfe",
                b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xf0\x9f\x98"]


def rand_text(rng, maxlen=24):
    out = bytearray()
    for _ in range(rng.randrange(maxlen + 1)):
        c = rng.randrange(10)
        if c < 7:
            out += chr(rand_cp(rng)).encode("utf-8")
        elif c < 9:
            out += rng.choice(INVALID_UTF8)
        else:
            out += rng.choice([b'"', b"\\", b"'", b"`", b"\n", b"\r", b"\t", b"\x00"])
    return bytes(out)


def rand_bytes(rng, maxlen=32):
    c = rng.randrange(4)
    n = rng.randrange(maxlen + 1)
    if c == 0:
        return bytes(rng.randrange(256) for _ in range(n))
    if c == 1:
        return rand_text(rng, max(1, maxlen // 3))
    if c == 2:
        return bytes(rng.randrange(0x20, 0x7F) for _ in range(n))
    return bytes(rng.choice(b"\x00\xff\x7f\x80 a\"\\'\n") for _ in range(n))


def rand_int(rng, bits, signed):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    c = rng.randrange(6)
    if c == 0:
        return rng.choice([lo, lo + 1, hi, hi - 1, 0, 1, -1 if signed else 2])
    if c == 1:
        return max(lo, min(hi, rng.randrange(-300, 300)))
    if c == 2:
        v = 1 << rng.randrange(bits)
        v += rng.choice([-1, 0, 1])
        if signed and rng.random() < 0.5:
            v = -v
        return max(lo, min(hi, v))
    return rng.randrange(lo, hi + 1)


def rand_rune(rng):
    c = rng.randrange(6)
    if c < 3:
        return rand_cp(rng)
    if c == 3:
        return rng.randrange(0xD800, 0xE000)  # surrogates
    if c == 4:
        return rng.choice([0x110000, 0x110001, 0x7FFFFFFF, -1, -0x80000000,
                           rng.randrange(0x110000, 0x80000000), rng.randrange(-0x80000000, 0)])
    return rand_int(rng, 32, True)


F64_SPECIAL = [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000001,
               0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FFFFFFFFFFFFFFF,
               0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
               0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000,
               f64bits(3.4028234663852886e38), f64bits(3.4028235677973366e38),
               f64bits(1.401298464324817e-45), f64bits(0.1), f64bits(1e21), f64bits(1e20),
               f64bits(123456789012345680000.0), f64bits(1e-4), f64bits(1e-5),
               f64bits(0.000123), f64bits(5e-324), f64bits(2.2250738585072014e-308)]
F32_SPECIAL = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00001, 0xFFC00000,
               0x7F800001, 0x7FFFFFFF, 0x1, 0x7FFFFF, 0x800000, 0x7F7FFFFF, 0xFF7FFFFF,
               0x3F800000, f32bits(0.1), f32bits(1e21), f32bits(1e20), f32bits(1e-4),
               f32bits(1e-5), f32bits(16777216.0), f32bits(16777217.0)]


def rand_float_bits(rng, f32):
    c = rng.randrange(9)
    if c == 0:
        return rng.choice(F32_SPECIAL if f32 else F64_SPECIAL)
    if c == 1:  # NaN with a random payload
        if f32:
            return (rng.randrange(2) << 31) | 0x7F800000 | rng.randrange(1, 1 << 23)
        return (rng.randrange(2) << 63) | 0x7FF0000000000000 | rng.randrange(1, 1 << 52)
    if c == 2:  # subnormal
        return (rng.randrange(2) << 31 | rng.randrange(1, 1 << 23)) if f32 else (
            rng.randrange(2) << 63 | rng.randrange(1, 1 << 52))
    if c == 3:  # powers of two / ten, +-1 ulp
        x = 2.0 ** rng.randrange(-160, 140) if rng.random() < 0.5 else 10.0 ** rng.randrange(-45, 39)
        if f32:
            b = f32bits(x) if abs(x) < 3.4e38 else 0x7F7FFFFF
            return (b + rng.choice([-1, 0, 1])) & 0xFFFFFFFF
        return (f64bits(x) + rng.choice([-1, 0, 1])) & M64
    if c == 4:  # short decimals
        x = rng.randrange(-10 ** 6, 10 ** 6) / 10 ** rng.randrange(0, 8)
        return f32bits(x) if f32 else f64bits(x)
    if c == 5:  # integers
        x = float(rng.randrange(-(1 << 60), 1 << 60) >> rng.randrange(60))
        return f32bits(x) if f32 else f64bits(x)
    return rng.randrange(1 << 32) if f32 else rng.randrange(1 << 64)


def rand_value(rng, kind, maxlen=32):
    if kind == "[]byte":
        return kind, rand_bytes(rng, maxlen)
    if kind == "string":
        return kind, rand_text(rng, maxlen) if rng.random() < 0.6 else rand_bytes(rng, maxlen)
    if kind == "bool":
        return kind, rng.random() < 0.5
    if kind == "int32" and rng.random() < 0.7:
        return kind, rand_rune(rng)
    if kind in INT_KINDS:
        return kind, rand_int(rng, INT_KINDS[kind], True)
    if kind in UINT_KINDS:
        return kind, rand_int(rng, UINT_KINDS[kind], False)
    return kind, rand_float_bits(rng, kind == "float32")


def rand_vals(rng, lo=1, hi=5, maxlen=32):
    return [rand_value(rng, rng.choice(ALL_KINDS), maxlen) for _ in range(rng.randint(lo, hi))]


# ---------------------------------------------------------------------------
# encode

def gen_encode(rng, n):
    cases = []
    for i in range(n):
        if i % 40 == 0:
            vals = []  # Go panics; the C encoder refuses
        elif i % 3 == 0:
            k = ALL_KINDS[(i // 3) % len(ALL_KINDS)]
            vals = [rand_value(rng, k) for _ in range(rng.randint(1, 4))]
        else:
            vals = rand_vals(rng)
        cases.append("enc\t" + vals_field(vals))
    return cases + float_sweep()


def float_sweep():
    """Fixed encode cases: every float32 whose mantissa has at most its top six
    bits set (both signs), and every float64 power of two and its neighbours.
    Shortest-digit formatting has rare ties (float32 2^-12 is one)."""
    f32 = [(sign << 31) | (e << 23) | (m << 17) for e in range(256) for m in range(64)
           for sign in (0, 1)]
    f64 = []
    for k in range(-1074, 1024):
        b = f64bits(2.0 ** k)
        f64 += [(b + d) & M64 for d in (-1, 0, 1)]
    toks = ["float32:%x" % v for v in f32] + ["float64:%x" % v for v in f64]
    cases = ["enc\t%d %s" % (len(toks[i:i + 8]), " ".join(toks[i:i + 8]))
             for i in range(0, len(toks), 8)]
    return cases + unicode_sweep()


def unicode_sweep():
    """Fixed encode cases covering every code point: as string contents
    (strconv.Quote) and as runes (strconv.QuoteRune), so the whole IsPrint
    table and the \\u / \\U / \\x choices are compared."""
    cases = []
    for base in range(0, 0x110000, 512):
        s = "".join(chr(c) for c in range(base, base + 512) if not 0xD800 <= c < 0xE000)
        cases.append("enc\t1 string:" + s.encode("utf-8").hex())
    for base in range(0, 0x110000, 256):
        toks = ["int32:%x" % c for c in range(base, base + 256)]
        cases.append("enc\t%d %s" % (len(toks), " ".join(toks)))
    return cases


# ---------------------------------------------------------------------------
# decode

HEADER = b"go test fuzz v1"
TYPE_NAMES = ["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32",
              "uint64", "byte", "rune", "float32", "float64", "string", "[]byte", "bool",
              "math.Float64frombits", "math.Float32frombits"]
BAD_TYPES = ["uintptr", "complex64", "Int", "[]uint8", "[...]byte", "[ ]byte", "[]/**/byte",
             "[4]byte", "[]rune", "[]string", "math.Float64frombits ", "math . Float32frombits",
             "fmt.Float64frombits", "math.NaN", "math.Inf", "(int)", "x.math.Float64frombits",
             "math.float64frombits", "Math.Float64frombits", "int8 ", " int", "float", "double",
             "char", "[] byte", "[\t]byte", "*int", "map[int]int", "func", "error", "any",
             "[]byte[]", "int/**/", "/**/int", "[]\u0062yte", "strin\u0261"]
UNI_WS = ["\u0085", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029",
          "\u202f", "\u205f", "\u3000", "\v", "\f", "\u180e", "\u200b", "\ufeff"]


def int_lit(rng, v):
    """Spells an integer (without sign) in one of Go's literal syntaxes."""
    c = rng.randrange(8)
    if c == 0:
        s = ("0x" if rng.random() < 0.7 else "0X") + ("%x" if rng.random() < 0.5 else "%X") % v
    elif c == 1:
        s = ("0o" if rng.random() < 0.7 else "0O") + "%o" % v
    elif c == 2:
        s = "0" + "%o" % v  # legacy octal
    elif c == 3:
        s = ("0b" if rng.random() < 0.7 else "0B") + bin(v)[2:]
    else:
        s = str(v)
    if rng.random() < 0.15 and len(s) > 1:  # underscores, sometimes misplaced
        i = rng.randrange(1, len(s) + 1)
        s = s[:i] + rng.choice(["_", "_", "__"]) + s[i:]
    return s


def range_edges():
    edges = []
    for name, bits in list(INT_KINDS.items()) + [("rune", 32)]:
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        edges += [(name, v) for v in (lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0, -1)]
    for name, bits in list(UINT_KINDS.items()) + [("byte", 8)]:
        hi = (1 << bits) - 1
        edges += [(name, v) for v in (0, 1, hi - 1, hi, hi + 1, -1, 1 << 64)]
    edges += [("math.Float32frombits", v) for v in (0, 0xFFFFFFFF, 1 << 32, -1, 0x7FC00001)]
    edges += [("math.Float64frombits", v) for v in (0, M64, 1 << 64, -1, 0x7FF8000000000002)]
    return edges


FLOAT_LITS = ["1.5", ".5", "5.", "1e10", "1E+10", "1e-400", "1e309", "1e39", "1e38",
              "3.4028234663852886e38", "3.4028235677973366e38", "3.4028235677973367e38",
              "1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324", "2e-324",
              "1e-46", "0x1p-2", "0x1.8p1", "0X.8P0", "0x1P+1023", "0x1p1024", "0x1p-1074",
              "0x1p-1075", "1_0.5", "1e1_0", "0x_1p4", "0x1p", "1e", "1.5f", "0x1.8", "0.",
              "00.5", "09.5", "0_9.5", "1__0.5", "1_.5", "1._5", "0e0", "0.000001", "1e-7",
              "100000000000000000000", "1e21", "123456789012345678901234567890", "0x10", "010",
              "0o10", "0b1", "08", "1i", "1.5i", "0x.p1", "1e+", "1e-", ".e1", "1..5",
              "12345678901234567890123", "0.1e-5", "1p5", "0x1e5", "16777217", "9007199254740993"]
CHAR_LITS = ["'a'", "'\\n'", "'\\a'", "'\\b'", "'\\f'", "'\\r'", "'\\t'", "'\\v'", "'\\\\'",
             "'\\''", "'\\\"'", "'\"'", "'\\x41'", "'\\xff'", "'\\xFF'", "'\\377'", "'\\400'",
             "'\\000'", "'\\0'", "'\\u00e9'", "'\\u00E9'", "'\\u0100'", "'\\U0001F600'",
             "'\\U00110000'", "'\\ud800'", "'\\uDFFF'", "'\\U0010FFFF'", "'ab'", "''", "'\\8'",
             "'\\x4'", "'\u00e9'", "'\U0001F600'", "'\u00ff'", "'\u0100'", "'\\e'", "'\\u12'",
             "'\\'", "'", "'\t'", "' '", "'\\x80'", "'\u2028'", "'\ufeff'", "'\\uFEFF'",
             "'\u0301'", "'\\u0000'", "'\\U00000041'", "'\\101'", "'\\1011'", "'\\xfg'"]
STRING_LITS = ['""', '"a"', '"\\n\\t\\r\\a\\b\\f\\v\\\\\\""', '"\\x00\\xff"', '"\\377\\000"',
               '"\\u00e9\\U0001F600"', '"\\U00110000"', '"\\ud800"', '"\\\'"', "\"'\"",
               '"\\400"', '"\\8"', '"\\e"', '"\\x4"', '"\\u12"', '"abc', 'abc"', '"\t"',
               '"\u00e9\u2028\U0001F600"', '"\\uFFFD"', '"\\xed\\xa0\\x80"', "`raw`", "``",
               "`a\\nb`", "`\"`", "`a\rb`", "`\r`", "`\u00e9\\x`", "`unterminated", "`a`b`",
               '"a"+"b"', '"a" "b"', '"\\z"', '"\\\n"', '"\\\\"', '"\ufeff"', '"\\117"',
               '"\\0"', '"\\00"', '"\\000"', '"\\xFf"', '"\\U0010ffff"', '"\\u0000"']
IDENTS = ["true", "false", "True", "FALSE", "nil", "Inf", "NaN", "x", "_", "iota", "inf",
          "nan", "Infinity", "NAN", "\u00e9"]
UNARY = ["-", "+", "!", "^", "&", "<-", "~", "*"]


def exact_decimal(fr):
    """The exact decimal expansion of a Fraction whose denominator is a power
    of two, as a Go float literal."""
    neg = fr < 0
    fr = abs(fr)
    k = 0
    while fr.denominator != 1:
        fr *= 10
        k += 1
    digits = str(fr.numerator)
    if k:
        digits = digits.rjust(k + 1, "0")
        digits = digits[:-k] + "." + digits[-k:]
    return ("-" if neg else "") + digits


def midpoint_lit(rng, f32):
    """A decimal literal at, or a hair off, the midpoint between two adjacent
    floats: where double rounding (parse as float64, then narrow) goes wrong."""
    if f32:
        b = rng.choice([rng.randrange(1, 0x7F7FFFFF), rng.randrange(1, 0x00800000),
                        rng.randrange(0x33000000, 0x4F000000)])
        lo = Fraction(struct.unpack("<f", struct.pack("<I", b))[0])
        hi = Fraction(struct.unpack("<f", struct.pack("<I", b + 1))[0])
    else:
        b = rng.choice([rng.randrange(1, 0x7FEFFFFFFFFFFFFF), rng.randrange(1, 1 << 52)])
        lo = Fraction(bits_f64(b))
        hi = Fraction(bits_f64(b + 1))
    m = (lo + hi) / 2
    s = exact_decimal(m)
    c = rng.randrange(5)
    if c == 1:
        s += "000000000000000000001"
    elif c == 2:  # just below: decrement the last digit
        s = s[:-1] + str(int(s[-1]) - 1) + "99999" if s[-1] != "0" else s
    elif c == 3:
        s = "%se%d" % (s.replace(".", "")[:rng.randint(1, 30)], 0)  # truncated digits
        s = s if "." in s else s
    elif c == 4:
        s = repr(float(m))
    if rng.random() < 0.3 and "e" not in s and "." in s:  # move the point into an exponent
        ip, fp = s.split(".")
        s = "%s.%se-%d" % (ip[:1] or "0", (ip[1:] + fp), max(0, len(fp)))
        s = s if ip[:1] else s
    return s


def random_arg(rng, typ):
    if rng.random() < 0.12:
        return midpoint_lit(rng, rng.random() < 0.6)
    c = rng.randrange(14)
    if c == 0:
        return rng.choice(FLOAT_LITS)
    if c == 1:
        return rng.choice(CHAR_LITS)
    if c == 2:
        return rng.choice(STRING_LITS)
    if c == 3:
        return rng.choice(IDENTS)
    if c == 4:
        return rng.choice(UNARY) + rng.choice(["Inf", "NaN", "1", "1.5", "'a'", '"a"', "x",
                                               "0", "true"])
    if c == 5:
        return rng.choice(["(1)", "-(1)", "--1", "-+1", "1+2", "1...", "1, 2", "", "1,",
                           "(true)", "!true", "-Inf...", "[]byte(\"a\")", "int(1)", "1;",
                           "1)", "(1", "1 2", "{1}", "-1e5", "-0", "-0.0", "-0x1p-1074",
                           "-Inf,", "- Inf", "-\tInf", "-/**/Inf", "- 1", "'a'...", "\"a\"..."])
    if c == 6:
        q = rand_text(rng, 8).decode("utf-8", "surrogateescape")
        return '"' + q.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"' if \
            rng.random() < 0.5 else "`" + q.replace("`", "").replace("\n", "") + "`"
    if c == 7:
        return repr(bits_f64(rand_float_bits(rng, False))).replace("inf", "Inf").replace(
            "nan", "NaN")
    if c == 8:
        return repr(rng.uniform(-1e6, 1e6))
    # integers, often at range edges
    if rng.random() < 0.5:
        t, v = rng.choice(range_edges())
        if typ in (None,) or rng.random() < 0.3:
            typ = t
    else:
        v = rand_int(rng, 64, rng.random() < 0.5)
    s = int_lit(rng, abs(v))
    return ("-" + s) if v < 0 else (rng.choice(["+", ""]) + s if rng.random() < 0.05 else s)


def sprinkle(rng, s):
    """Inserts comments and white space between the tokens of a line."""
    fill = ["", " ", "\t", "/**/", "/* c */", " /*x*/ ", "\r", "/*\u00e9*/", "/* // */"]
    out = []
    for ch in s:
        if ch in "()[]," and rng.random() < 0.3:
            out.append(rng.choice(fill))
        out.append(ch)
    return "".join(out)


def gen_line(rng):
    """One value line: mostly well-formed T(arg), sometimes broken."""
    typ = rng.choice(TYPE_NAMES) if rng.random() < 0.85 else rng.choice(BAD_TYPES)
    arg = random_arg(rng, typ)
    if rng.random() < 0.2:
        t, v = rng.choice(range_edges())
        typ = t
        s = int_lit(rng, abs(v))
        arg = ("-" + s) if v < 0 else s
    if typ in ("byte", "rune") and rng.random() < 0.4:
        arg = rng.choice(CHAR_LITS)
    elif typ in ("string", "[]byte") and rng.random() < 0.5:
        arg = rng.choice(STRING_LITS)
    elif typ == "bool" and rng.random() < 0.6:
        arg = rng.choice(["true", "false", "True", "1", "!true", "(true)", "-true", "true,",
                          "true...", "false/**/", "tru", "false)"])
    elif typ.startswith("float") and rng.random() < 0.3:
        arg = ("-" if rng.random() < 0.3 else "") + midpoint_lit(rng, typ == "float32")
    elif typ.startswith("float") and rng.random() < 0.4:
        arg = rng.choice(["Inf", "NaN", "-Inf", "+Inf", "!Inf", "^Inf", "&Inf", "<-Inf",
                          "~Inf", "*Inf", "-NaN", "+NaN", "--Inf", "-(Inf)", "(-Inf)"] +
                         FLOAT_LITS)
    tail = ""
    r = rng.random()
    if r < 0.1:
        tail = ","
    elif r < 0.15:
        tail = "..."
    elif r < 0.18:
        tail = ",,"
    elif r < 0.2:
        tail = "...,"
    line = "%s(%s%s)" % (typ, arg, tail)
    r = rng.random()
    if r < 0.15:
        line = sprinkle(rng, line)
    elif r < 0.2:
        line += rng.choice([" // comment", "//", "// ) x", "/* c */", "/*", " /* unterminated",
                            ";", " ;", ")", "(", "x", " 1", "[0]", ".x", "(2)", "\x00", "\ufeff"])
    elif r < 0.25:
        line = rng.choice(["(", "((", "/**/", "\ufeff", "// ", "-", "!"]) + line + rng.choice(
            [")", "))", "", "", ""])
    elif r < 0.3:
        line = line[:rng.randrange(len(line) + 1)]  # missing parens and worse
    r = rng.random()
    if r < 0.08:
        line = rng.choice(UNI_WS) + line
    elif r < 0.16:
        line = line + rng.choice(UNI_WS)
    elif r < 0.22:
        line = rng.choice([" ", "\t", "  \t", "\r"]) + line + rng.choice([" ", "\t", "\r", ""])
    b = line.encode("utf-8", "surrogateescape")
    if rng.random() < 0.03:
        i = rng.randrange(len(b) + 1)
        b = b[:i] + rng.choice(INVALID_UTF8 + [b"\x00", b"\xef\xbb\xbf"]) + b[i:]
    return b


def header(rng):
    r = rng.random()
    if r < 0.9:
        return HEADER
    return rng.choice([HEADER + b"\r", b"\xef\xbb\xbf" + HEADER, HEADER + b" ", b" " + HEADER,
                       b"go test fuzz v2", b"go test fuzz v0", b"", b"go test fuzz", b"Go test fuzz v1",
                       HEADER + b"\r\r", b"go  test fuzz v1", HEADER + b"\t", HEADER + b"\x00",
                       b"go test fuzz v1 // c", b"int(1)"])


def assemble(rng, hdr, lines):
    sep = b"\r\n" if rng.random() < 0.15 else b"\n"
    parts = [hdr]
    for ln in lines:
        if rng.random() < 0.08:
            parts.append(rng.choice([b"", b"  ", b"\t", b"\r", "\u3000".encode(), b"\v\f"]))
        parts.append(ln)
    body = sep.join(parts)
    r = rng.random()
    if r < 0.6:
        body += sep
    elif r < 0.65:
        body += sep + sep
    return body


def mutate_bytes(rng, b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 3)):
        c = rng.randrange(6)
        i = rng.randrange(len(b) + 1)
        if c == 0 and b:
            j = min(i, len(b) - 1)
            b[j] ^= 1 << rng.randrange(8)
        elif c == 1:
            b[i:i] = bytes([rng.choice(b"\"\\()'/*` \n\r\t\x00\xff-_.ex0189,+!^~&<")])
        elif c == 2 and b:
            del b[min(i, len(b) - 1)]
        elif c == 3 and b:
            j = rng.randrange(len(b))
            k = min(len(b), j + rng.randint(1, 8))
            b[i:i] = b[j:k]
        elif c == 4 and b:
            del b[min(i, len(b) - 1):min(len(b), i + rng.randint(1, 6))]
        else:
            b[i:i] = rng.choice(INVALID_UTF8 + [b"\xef\xbb\xbf", "\u00a0".encode(), b"//", b"/*",
                                                b"*/", b"\\x", b"\\u", b"e+", b"0x", b"_"])
    return bytes(b)


def encoded_lines(go_hex):
    """The value lines of a Go-encoded corpus file."""
    return bytes.fromhex(go_hex).split(b"\n")[1:-1]


def variant_of_valid(rng, lines):
    """Semantics-preserving (or nearly) rewrites of Go-encoded lines."""
    out = []
    for ln in lines:
        s = ln
        r = rng.random()
        if r < 0.1:
            s = s.replace(b"byte(", b"uint8(", 1) if s.startswith(b"byte(") else s
            s = s.replace(b"rune(", b"int32(", 1) if s.startswith(b"rune(") else s
        elif r < 0.2 and s.endswith(b")"):
            s = s[:-1] + rng.choice([b",)", b"...)", b" )", b"/**/)", b"\t)"])
        elif r < 0.3:
            s = s + rng.choice([b" // x", b"/* y */", b"\t", b"\r", b" ", b"//\xff"])
        elif r < 0.35:
            s = rng.choice([b" ", b"\t", "\u00a0".encode(), "\u2003".encode(), b"\xef\xbb\xbf",
                            b"/**/"]) + s
        elif r < 0.4:
            i = s.find(b"(")
            if i > 0:
                s = s[:i] + rng.choice([b" ", b"/**/", b"\t"]) + s[i:]
        out.append(s)
    if len(out) > 1 and rng.random() < 0.2:
        rng.shuffle(out)
    return out


def load_testdata():
    """Hand-written edge cases: each file in testdata/diff/files is one corpus
    file, taken byte for byte; each line of testdata/diff/lines.txt that does
    not start with '#' is one value line, tried under a header with LF and
    with CRLF line endings."""
    cases = []
    fdir = os.path.join(TESTDATA, "files")
    if os.path.isdir(fdir):
        for name in sorted(os.listdir(fdir)):
            with open(os.path.join(fdir, name), "rb") as fh:
                cases.append(fh.read())
    lp = os.path.join(TESTDATA, "lines.txt")
    if os.path.exists(lp):
        with open(lp, "rb") as fh:
            for line in fh.read().split(b"\n"):
                if not line or line.startswith(b"#"):
                    continue
                cases.append(HEADER + b"\n" + line + b"\n")
                cases.append(HEADER + b"\r\n" + line + b"\r\n")
    return cases


def gen_decode(rng, n, go_enc_hex):
    valid = [h for h in go_enc_hex if h]
    cases = [HEADER + b"\n", HEADER, b"", HEADER + b"\r\n", HEADER + b"\n\n\n",
             HEADER + b"\r\n\r\n", b"\n", b"\xef\xbb\xbf" + HEADER + b"\nint(1)\n"]
    cases += load_testdata()
    while len(cases) < n:
        c = rng.randrange(10)
        if c < 3 and valid:  # (a) valid encodings and light rewrites
            lines = encoded_lines(rng.choice(valid))
            if rng.random() < 0.3:
                lines += encoded_lines(rng.choice(valid))
            if rng.random() < 0.6:
                lines = variant_of_valid(rng, lines)
            cases.append(assemble(rng, HEADER if rng.random() < 0.95 else header(rng), lines))
        elif c < 7:  # (b) hand-crafted literal syntaxes
            lines = [gen_line(rng) for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3))]
            cases.append(assemble(rng, header(rng), lines))
        elif valid:  # (c) byte-level mutations of valid files
            body = bytes.fromhex(rng.choice(valid))
            if rng.random() < 0.5:
                lines = body.split(b"\n")
                i = rng.randrange(1, len(lines))
                lines[i] = mutate_bytes(rng, lines[i])
                body = b"\n".join(lines)
            else:
                body = mutate_bytes(rng, body)
            cases.append(body)
    return ["dec\t" + c.hex() for c in cases[:max(n, len(cases))]]


# ---------------------------------------------------------------------------
# mutate

def gen_mutate(rng, n):
    cases = []
    for i in range(n):
        c = rng.randrange(10)
        if c < 3:  # several []byte / string values sharing Go's scratch buffer
            vals = [rand_value(rng, rng.choice(["[]byte", "string", "[]byte"]), 48)
                    for _ in range(rng.randint(2, 4))]
            if rng.random() < 0.3:
                vals.insert(rng.randrange(len(vals) + 1), rand_value(rng, rng.choice(ALL_KINDS)))
        elif c < 5:  # one kind, all its edges
            k = ALL_KINDS[i % len(ALL_KINDS)]
            vals = [rand_value(rng, k, 48) for _ in range(rng.randint(1, 2))]
        elif c < 6:  # empty values
            vals = [(rng.choice(["[]byte", "string"]), b"") for _ in range(rng.randint(1, 3))]
        else:
            vals = rand_vals(rng, 1, 6, 64)
        nv = len(vals)
        r = rng.random()
        if r < 0.06:
            max_bytes = 100 << 20
        elif r < 0.6:  # tight: 2..70 bytes per value, so capacity checks bite
            max_bytes = nv * (100 + rng.randint(2, 70)) + rng.randrange(nv)
        elif r < 0.65:  # exactly at / just past a value's length
            longest = max([len(v) for k, v in vals if k in ("[]byte", "string")] + [2])
            max_bytes = nv * (100 + max(2, longest + rng.choice([-1, 0, 1])))
        else:
            max_bytes = nv * (100 + rng.randint(70, 5000)) + rng.randrange(nv)
        state = rng.randrange(1 << 64)
        inc = rng.randrange(1 << 64) | (0 if rng.random() < 0.05 else 1)
        k = rng.randint(1, 40)
        cases.append("mut\t%x\t%x\t%x\t%x\t%s" % (state, inc, k, max_bytes, vals_field(vals)))
    return cases


# ---------------------------------------------------------------------------
# minimize

def gen_minimize(rng, n):
    cases = []
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            size = rng.randrange(0, 16)
        elif r < 0.85:
            size = rng.randrange(16, 64)
        elif r < 0.95:
            size = rng.randrange(64, 400)
        else:
            size = rng.randrange(1000, 3000)
        if rng.random() < 0.5:
            v = bytes(rng.randrange(256) for _ in range(size))
        else:
            v = bytes(rng.choice(b"abcxyz\x00\xff0123") for _ in range(size))
        terms = []
        for _ in range(rng.randint(1, 2)):
            c = rng.randrange(5)
            if c == 0:
                s = bytes(rng.choice(v) if v and rng.random() < 0.9 else rng.randrange(256)
                          for _ in range(rng.randint(0, 3)))
                terms.append("all:" + s.hex())
            elif c == 1:
                i = rng.randrange(len(v) + 1)
                x = v[i:i + rng.randint(0, 4)]
                terms.append("sub:%x:%s" % (rng.randrange(len(v) // 2 + 2), x.hex()))
            elif c == 2:
                terms.append("hash:%x" % rng.choice([1, 2, 2, 3, 3, 5, 7, 100]))
            elif c == 3:
                terms.append("first:%x" % (v[0] if v and rng.random() < 0.8 else rng.randrange(256)))
            else:
                terms.append("len:%x" % rng.randrange(len(v) + 2))
        if size > 64 or rng.random() < 0.3:
            limit = rng.choice([1, 2, 3, rng.randint(1, 50), rng.randint(50, 3000)])
        else:
            limit = 0
        cases.append("min\t%s\t%s\t%x" % (v.hex(), "+".join(terms), limit))
    return cases


# ---------------------------------------------------------------------------
# pcg

def gen_pcg(rng, n):
    cases = []
    ns = [0, 1, 2, 3, 7, 10, 35, 100, 255, 256, 1024, 4096, 1 << 31, (1 << 31) + 1,
          (1 << 31) - 1, 3 << 30, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000001, 0xAAAAAAAB]
    for i in range(n):
        if i % 4 == 3:
            seed = rng.choice([0, 1, M64, 1 << 63, (1 << 63) - 1, rng.randrange(1 << 64),
                               rng.randrange(1 << 40) * 1000])
            stream = rng.choice([0, 1, 2, rng.randint(1, 1000), (1 << 63), M64,
                                 rng.randrange(1 << 64)])
            cases.append("seed\t%x\t%x" % (seed, stream))
            continue
        ops = []
        for _ in range(rng.randint(1, 60)):
            c = rng.randrange(5)
            if c == 0:
                ops.append("u")
            elif c == 1:
                ops.append("b")
            elif c == 2:
                ops.append("n%x" % rng.choice(ns))
            elif c == 3:
                ops.append("n%x" % rng.randrange(1 << 32))
            else:
                ops.append("n%x" % ((1 << 31) + rng.randrange(1 << 31)))
        state = rng.choice([0, 1, M64, rng.randrange(1 << 64)])
        inc = rng.randrange(1 << 64) | (0 if rng.random() < 0.1 else 1)
        cases.append("pcg\t%x\t%x\t%s" % (state, inc, " ".join(ops)))
    return cases


# ---------------------------------------------------------------------------
# wire

def rand_i64(rng):
    return rand_int(rng, 64, True) if rng.random() < 0.7 else rng.choice(
        [0, 1, -1, 10 ** 8, 10 ** 9, 60 * 10 ** 9, (1 << 53) + 1, -(1 << 63), (1 << 63) - 1])


def rand_opt_bytes(rng):
    r = rng.random()
    if r < 0.25:
        return "-"
    if r < 0.35:
        return "="
    return "=" + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 70))).hex()


def rand_wire_str(rng):
    if rng.random() < 0.3:
        return "="
    s = rand_text(rng, 16) if rng.random() < 0.6 else bytes(
        rng.choice(b"<>&\"\\/\x00\x01\x1f\x7f abc\n\t\r") for _ in range(rng.randrange(12))) + \
        rng.choice(["", "\u2028", "\u2029", "\ufffd", "\u00e9"]).encode()
    return "=" + s.hex()


def gen_wenc(rng, n):
    cases = []
    for i in range(n):
        t = ["fuzz", "minimize", "fuzzresp", "minresp", "ping", "pingresp"][i % 6 if i % 13 else 0]
        if t == "fuzz":
            f = "%x %x %d %s" % (rand_i64(rng) & M64, rand_i64(rng) & M64, rng.randrange(2),
                                 rand_opt_bytes(rng))
        elif t == "minimize":
            f = "%x %x %s %x" % (rand_i64(rng) & M64, rand_i64(rng) & M64, rand_opt_bytes(rng),
                                 rand_i64(rng) & M64)
        elif t == "fuzzresp":
            f = "%x %x %x %s %s %s" % (rand_i64(rng) & M64, rand_i64(rng) & M64,
                                       rand_i64(rng) & M64, rand_opt_bytes(rng),
                                       rand_wire_str(rng), rand_wire_str(rng))
        elif t == "minresp":
            f = "%d %s %s %x %x" % (rng.randrange(2), rand_wire_str(rng), rand_opt_bytes(rng),
                                    rand_i64(rng) & M64, rand_i64(rng) & M64)
        else:
            f = ""
        cases.append("wenc\t%s\t%s" % (t, f))
    return cases


JSON_SNIPPETS = [b"null", b"{}", b"[]", b"0", b"-0", b"1.0", b"1e3", b"1E+2", b"-1", b"01",
                 b"9223372036854775807", b"9223372036854775808", b"-9223372036854775808",
                 b"-9223372036854775809", b"true", b"false", b"\"\"", b"\"AA==\"", b"\"AA\"",
                 b"\"A===\"", b"\"AA\\nAA==\"", b"\"AA\\r\\nAA==\"", b"\"QUJD\"", b"\"QU JD\"",
                 b"\"\\u0041\\u0041==\"", b"\"x\"", b"\"\\ud800\"", b"\"\\ud83d\\ude00\"",
                 b"\"\\u00e9\"", b"\"\xff\"", b"\"\\/\"", b"\"\\q\"", b"[1]", b"{\"a\":1}", b"1 ",
                 b" 1", b"tru", b"nul", b"\"\x01\"", b"\"\\u2028\"", b"2.5", b"1e400", b"NaN",
                 b"\"1\"", b"+1", b".5", b"0x10"]
WIRE_KEYS = [b"Ping", b"Fuzz", b"Minimize", b"ping", b"FUZZ", b"minimize", b"Timeout",
             b"timeout", b"Limit", b"Warmup", b"CoverageData", b"coveragedata", b"KeepCoverage",
             b"Index", b"TotalDuration", b"InterestingDuration", b"Count", b"Err", b"InternalErr",
             b"WroteToMem", b"Duration", b"Unknown", b"", b"\\u0046uzz", b"Fu\\u007az",
             "\u212aeepCoverage".encode(), b"Coverage_Data", b"Li\xffmit", "\u017fount".encode()]


def json_variant(rng, msg):
    s = msg.rstrip(b"\n")
    if not s:
        return mutate_bytes(rng, s)
    c = rng.randrange(8)
    if c == 0:  # replace a value
        i = s.find(b":", rng.randrange(len(s)))
        if i >= 0:
            j = i + 1
            depth = 0
            while j < len(s) and not (depth == 0 and s[j:j + 1] in (b",", b"}")):
                if s[j:j + 1] in (b"{", b"["):
                    depth += 1
                elif s[j:j + 1] in (b"}", b"]"):
                    depth -= 1
                j += 1
            s = s[:i + 1] + rng.choice(JSON_SNIPPETS) + s[j:]
    elif c == 1:  # add a member
        i = s.find(b"{", rng.randrange(len(s)))
        if i >= 0:
            mem = b"\"" + rng.choice(WIRE_KEYS) + b"\":" + rng.choice(JSON_SNIPPETS)
            s = s[:i + 1] + mem + (b"," if s[i + 1:i + 2] != b"}" else b"") + s[i + 1:]
    elif c == 2:  # recase or respell keys
        for k in WIRE_KEYS[:20]:
            if rng.random() < 0.3:
                s = s.replace(b"\"" + k + b"\"", b"\"" + rng.choice(
                    [k.lower(), k.upper(), k.swapcase(), k]) + b"\"")
    elif c == 3:  # white space
        s = b"".join(ch + (rng.choice([b" ", b"\n", b"\t", b"\r"]) if rng.random() < 0.1 else b"")
                     for ch in (s[i:i + 1] for i in range(len(s))))
        s = rng.choice([b"", b" ", b"\n"]) + s + rng.choice([b"", b"\n", b" \t", b" x", b"{}"])
    else:
        s = mutate_bytes(rng, s)
    return s


def gen_wdec(rng, n, go_wenc):
    """go_wenc: (type, hex) of Go-encoded messages."""
    cases = []
    pool = [(t, h) for t, h in go_wenc if h]
    fixed = [("call", b"{}"), ("call", b"{\"Ping\":{}}"), ("call", b"{\"Ping\":null}"),
             ("call", b"{\"Ping\":{},\"Fuzz\":{}}"), ("call", b"{\"Minimize\":{},\"Fuzz\":{}}"),
             ("call", b"{\"Fuzz\":{\"CoverageData\":null}}"), ("call", b"null"), ("call", b""),
             ("call", b"{\"Fuzz\":{\"Timeout\":1.0}}"), ("call", b"{\"Fuzz\":{\"Timeout\":1e2}}"),
             ("pingresp", b"{}"), ("pingresp", b"null"), ("pingresp", b"{\"x\":[1,{}]}"),
             ("pingresp", b"[]"), ("pingresp", b"{} {}"), ("fuzzresp", b"{\"Err\":\"\\u0000x\"}"),
             ("minresp", b"{\"WroteToMem\":\"true\"}"), ("minresp", b"{\"wroteToMem\":true}")]
    for t, m in fixed:
        cases.append("wdec\t%s\t%s" % (t, m.hex()))
    typemap = {"fuzz": "call", "minimize": "call", "ping": "call", "fuzzresp": "fuzzresp",
               "minresp": "minresp", "pingresp": "pingresp"}
    while len(cases) < n and pool:
        t, h = rng.choice(pool)
        msg = bytes.fromhex(h)
        dt = typemap[t]
        if rng.random() < 0.05:
            dt = rng.choice(["call", "fuzzresp", "minresp", "pingresp"])
        if rng.random() < 0.85:
            for _ in range(rng.randint(1, 3)):
                if msg:
                    msg = json_variant(rng, msg)
        cases.append("wdec\t%s\t%s" % (dt, msg.hex()))
    return cases


# ---------------------------------------------------------------------------
# Comparison and reporting


def describe(req):
    """A human-readable rendering of a request line, next to the raw line."""
    f = req.split("\t")
    try:
        if f[0] == "dec":
            return "file: %r" % bytes.fromhex(f[1])
        if f[0] == "min":
            return "input: %r  predicate: %s  limit: %s" % (bytes.fromhex(f[1]), f[2], f[3])
        if f[0] == "wdec":
            return "%s message: %r" % (f[1], bytes.fromhex(f[2]))
    except ValueError:
        pass
    return ""


def show_answer(ans):
    f = ans.split("\t")
    if len(f) == 2 and f[0] == "ok" and all(c in "0123456789abcdef" for c in f[1]) and \
            len(f[1]) % 2 == 0 and f[1]:
        return ans + "\n        = %r" % bytes.fromhex(f[1])
    return ans


def compare(cat_of, lines, res, seed, failures):
    go, c = res["go"], res["c"]
    stats = {}
    for i, ln in enumerate(lines):
        cat = cat_of[i]
        st = stats.setdefault(cat, [0, 0])
        st[0] += 1
        ok = go[i] == c[i] and not go[i].startswith("badreq")
        if ok:
            st[1] += 1
            continue
        failures.append(ln)
        if st[0] - st[1] <= MAX_SHOW:
            print("MISMATCH [%s] seed %s, case %d" % (cat, seed, i))
            print("  request: %s" % (ln if len(ln) <= 4000 else ln[:4000] + "...(truncated)"))
            d = describe(ln)
            if d:
                print("  " + (d if len(d) <= 2000 else d[:2000] + "..."))
            print("  go:      %s" % show_answer(go[i])[:3000])
            print("  c:       %s" % show_answer(c[i])[:3000])
    return stats


def category(req):
    return {"enc": "encode", "dec": "decode", "mut": "mutate", "min": "minimize",
            "pcg": "pcg", "seed": "pcg", "wenc": "wire", "wdec": "wire"}.get(
        req.split("\t", 1)[0], "other")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cdriver_pos", nargs="?", help="path of the C driver")
    ap.add_argument("--cdriver", help="path of the C driver (default build/tests/cgofuzz_cdriver)")
    ap.add_argument("--go", help="go command to build the reference driver with")
    ap.add_argument("--goversion", help="compare against this Go release (go1.N.P), fetched "
                    "through GOTOOLCHAIN into the module cache when absent; the C driver "
                    "gets -go 1.N")
    ap.add_argument("--no-fetch", action="store_true",
                    help="with --goversion: exit %d (a skip) instead of downloading a "
                         "toolchain that is not in the module cache" % SKIP)
    ap.add_argument("--seed", type=int, help="replay the run with this seed")
    ap.add_argument("--cases", type=int, default=4000,
                    help="scale: cases for encode (decode 2.5x, mutate 1.5x, wire 1x, "
                         "minimize 0.5x, pcg 0.75x); default 4000")
    ap.add_argument("--only", help="comma-separated categories: " + ",".join(CATEGORIES))
    ap.add_argument("--replay", help="run the request lines of this file instead of generating")
    ap.add_argument("--failures", help="write failing request lines here "
                                       "(default: a file in the temp directory, printed)")
    ap.add_argument("--timeout", type=int, default=300, help="per-batch timeout, seconds")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--sanitized", action="store_true",
                    help="accepted for CI symmetry; an ASan C driver needs nothing special")
    args = ap.parse_args()

    only = set(CATEGORIES)
    if args.only:
        only = set(args.only.split(","))
        bad = only - set(CATEGORIES)
        if bad:
            die("unknown categories: " + ",".join(sorted(bad)))

    t0 = time.time()
    go = find_go(args.go)
    if args.goversion:
        parse_goversion(args.goversion)
        go = toolchain_go(go, args.goversion, not args.no_fetch)
    cdriver = find_cdriver(args.cdriver or args.cdriver_pos)
    workdir = tempfile.mkdtemp(prefix="cgofuzz-difftest-")
    try:
        ref, version, goroot = build_refdriver(go, workdir)
        # The C driver follows the reference's release (go1.N.P -> -go 1.N).
        exes = [("go", [ref]), ("c", [cdriver, "-go", "1.%d" % go_minor(version)])]
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 62)
        print("difftest: %s (%s), C driver %s" % (version, goroot, cdriver))
        if args.replay:
            print("difftest: replaying %s" % args.replay)
        else:
            print("difftest: seed %d (replay with --seed %d --cases %d)" % (seed, seed, args.cases))
        sys.stdout.flush()

        n = args.cases
        failures = []
        stats = {}

        def batch(lines):
            if not lines:
                return {"go": [], "c": []}
            res = run_drivers(exes, lines, workdir, args.timeout)
            for cat, (tot, ok) in compare([category(x) for x in lines], lines, res, seed,
                                          failures).items():
                st = stats.setdefault(cat, [0, 0])
                st[0] += tot
                st[1] += ok
            return res

        if args.replay:
            with open(args.replay) as fh:
                batch([ln.rstrip("\n") for ln in fh if ln.strip() and not ln.startswith("#")])
        else:
            def sub(name):
                return random.Random("%d/%s" % (seed, name))

            # Phase 1: encodings, which also seed the decoders' generators.
            enc = gen_encode(sub("encode"), n) if "encode" in only or "decode" in only else []
            wenc = gen_wenc(sub("wenc"), n // 3) if "wire" in only else []
            res = batch(enc + wenc)
            go_enc = [a.split("\t")[1] for a in res["go"][:len(enc)] if a.startswith("ok\t")]
            go_wenc = [(l.split("\t")[1], a.split("\t")[1]) for l, a in
                       zip(wenc, res["go"][len(enc):]) if a.startswith("ok\t")]
            # Phase 2: everything else.
            lines = []
            if "decode" in only:
                lines += gen_decode(sub("decode"), n * 5 // 2, go_enc)
            if "mutate" in only:
                lines += gen_mutate(sub("mutate"), n * 3 // 2)
            if "minimize" in only:
                lines += gen_minimize(sub("minimize"), n // 2)
            if "pcg" in only:
                lines += gen_pcg(sub("pcg"), n * 3 // 4)
            if "wire" in only:
                lines += gen_wdec(sub("wdec"), n - n // 3, go_wenc)
            batch(lines)

        total = sum(s[0] for s in stats.values())
        agree = sum(s[1] for s in stats.values())
        for cat in CATEGORIES + sorted(set(stats) - set(CATEGORIES)):
            if cat in stats:
                print("%s: %d cases, %d agree" % (cat, stats[cat][0], stats[cat][1]))
        if failures:
            path = args.failures or os.path.join(tempfile.gettempdir(),
                                                 "cgofuzz-difftest-failures-%d.txt" % seed)
            with open(path, "w") as fh:
                fh.write("# cgofuzz difftest failures, seed %d; replay with --replay %s\n"
                         % (seed, path))
                for ln in failures:
                    fh.write(ln + "\n")
            print("difftest: failing requests written to %s (replay with --replay)" % path)
        print("difftest: seed %d, %.1fs" % (seed, time.time() - t0))
        print("%d passed, %d failed" % (agree, total - agree))
        return 1 if total != agree else 0
    finally:
        if args.keep:
            print("difftest: kept %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

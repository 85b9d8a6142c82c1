#!/usr/bin/env python3
"""Package gofuzz's C coverage bridge: bucket in the slot vs in the calls.

Package gofuzz hands each non-zero clang 8-bit counter i (value v) of cgo C
code to Go's fuzzer through 4096 Go counters (gofuzz/internal/bridge/bridge.go). Two
encodings of the counter's hit-count bucket log2(v), chosen at build time
(gofuzz/cover_enc_*.go):

  slot   bridgeHit((i*8 + log2(v)) mod 4096) once (-tags gofuzz_bridge_slot);
         512 C counters before two share a slot
  calls  bridgeHit(i mod 4096) 2^log2(v) times (-tags gofuzz_bridge_calls);
         Go's own power-of-two rounding of its counter recovers the bucket;
         4096 C counters before two share a slot, more calls per exec

Two measurements, runs alternating A B B A ... so that load drift hits both:

  1. png: libpng 1.6 + zlib (Debian source packages, built into the test
     package and instrumented: about 11k C counters) read from memory by
     bench/c/png_read.c through gofuzz.Cover, go test's own coordinator, a
     fixed budget of --execs execs from the same PNG seeds (minimization of
     new inputs capped at --minimize, for both). The corpus each
     run leaves (seeds + Go's cache) is replayed through ONE coverage build
     (no -fuzz, no bridge: clang's counters read directly), which counts C
     edges (counters ever non-zero) and features (counter, power-of-two
     bucket) the same way for both encodings. Also execs/s.
  2. bug: examples/go/planted FuzzSum (a 4-byte magic checked one byte per
     branch in C): time to the failure, capped at --cap s, and execs/s.

Medians over --runs runs, -test.parallel=--parallel. Needs go, clang,
dpkg-source/apt-get (sources fetched into bench/.cache/src like
bench/c/c_bench.py; the generated Go module is bench/.cache/bridge_ab/).

usage: bench/gofuzz/bridge_ab.py [--runs 3] [--execs 300000] [--cap 60]
                          [--minimize 2000x] [--parallel 1]
                          [--only png,bug]
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import BENCH, CACHE, ROOT, sh_merged  # noqa: E402
from gofuzz_bench import rate  # noqa: E402  (execs/s of a progress line)
import time
import zlib

SRC = os.path.join(CACHE, "src")
MOD = os.path.join(CACHE, "bridge_ab")
GO = shutil.which("go") or "/usr/local/go/bin/go"
ENCODINGS = ("slot", "calls")
EXECS = re.compile(r"execs: (\d+) ")
REPLAY = re.compile(r"BRIDGEAB counters=(\d+) edges=(\d+) features=(\d+) "
                    r"inputs=(\d+)")

ZLIB_C = ("adler32 compress crc32 deflate gzclose gzlib gzread gzwrite "
          "infback inffast inflate inftrees trees uncompr zutil").split()
PNG_C = ("png pngerror pngget pngmem pngpread pngread pngrio pngrtran "
         "pngrutil pngset pngtrans pngwio pngwrite pngwtran pngwutil").split()


def srcdir(pkg):
    d = sorted(d for d in glob.glob(os.path.join(SRC, pkg + "-*"))
               if os.path.isdir(d))
    return d[-1] if d else None


def ensure_sources():
    """zlib and libpng1.6 source trees in bench/.cache/src (as c_bench.py)."""
    os.makedirs(SRC, exist_ok=True)
    for p in ("zlib", "libpng1.6"):
        if srcdir(p):
            continue
        r = sh_merged(["apt-get", "source", "--download-only", "-q", p], cwd=SRC)
        for dsc in glob.glob(os.path.join(SRC, p + "_*.dsc")):
            sh_merged(["dpkg-source", "-q", "-x", os.path.basename(dsc)], cwd=SRC)
        if not srcdir(p):
            sys.exit("bridge_ab: source package %s not available (needs a "
                     "deb-src entry; bench/c/c_bench.py adds one as root):\n%s"
                     % (p, r.stdout[-1500:]))
    z, p = srcdir("zlib"), srcdir("libpng1.6")
    conf = os.path.join(p, "pnglibconf.h")
    if not os.path.exists(conf):
        shutil.copy(os.path.join(p, "scripts", "pnglibconf.h.prebuilt"), conf)
    return z, p


# ------------------------------------------------------- generated module --

HARNESS_GO = r'''package pngab

/*
#cgo CFLAGS: -O1 -DHAVE_UNISTD_H -D_LARGEFILE64_SOURCE=1 -I%(z)s -I%(p)s -w
#cgo LDFLAGS: -lm
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int pngab_read(const uint8_t *data, size_t size);

// Replay counting: clang's counters of this package, read directly through
// the runtime's module list (gofuzz's coverage.c records them; referencing
// __start___sancov_cntrs here would break clang's module constructor).
size_t cgofuzz_cov_nmodules_(void);
uint8_t *cgofuzz_cov_module_(size_t i, size_t *len);
static unsigned char *ab_seen, *ab_c;
static size_t ab_len;

__attribute__((no_sanitize("coverage"))) static size_t ab_n(void) {
	if (!ab_c && cgofuzz_cov_nmodules_() > 0)
		ab_c = cgofuzz_cov_module_(0, &ab_len);
	return ab_len;
}
__attribute__((no_sanitize("coverage"))) static void ab_begin(void) {
	if (!ab_seen) ab_seen = calloc(ab_n() + 1, 1);
	memset(ab_c, 0, ab_n());
}
__attribute__((no_sanitize("coverage"))) static void ab_end(void) {
	for (size_t i = 0; i < ab_n(); i++) {
		unsigned char v = ab_c[i], b = 0x80;
		if (!v) continue;
		while (!(v & b)) b >>= 1;
		ab_seen[i] |= b;
	}
}
__attribute__((no_sanitize("coverage"))) static void ab_count(size_t *e, size_t *f) {
	*e = *f = 0;
	for (size_t i = 0; ab_seen && i < ab_n(); i++) {
		if (ab_seen[i]) (*e)++;
		*f += (size_t)__builtin_popcount(ab_seen[i]);
	}
}
*/
import "C"

import (
	"unsafe"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

var replayed int

// Read runs libpng on b: through gofuzz.Cover when fuzzing, and with the
// counters folded into the replay union when replay is set.
func Read(b []byte, replay bool) {
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&b[0]))
	}
	if replay {
		C.ab_begin()
		C.pngab_read(p, C.size_t(len(b)))
		C.ab_end()
		replayed++
		return
	}
	gofuzz.Cover(func() { C.pngab_read(p, C.size_t(len(b))) })
}

// Counts returns (C counters, edges seen, features seen, inputs replayed).
func Counts() (int, int, int, int) {
	var e, f C.size_t
	C.ab_count(&e, &f)
	return int(C.ab_n()), int(e), int(f), replayed
}
'''

COVER_GO = '''//go:build gofuzz_cover

package pngab

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
'''

TEST_GO = '''package pngab

import (
	"fmt"
	"os"
	"testing"
)

var replay = os.Getenv("BRIDGEAB_REPLAY") != ""

func TestMain(m *testing.M) {
	code := m.Run()
	if replay {
		n, e, f, k := Counts()
		fmt.Printf("BRIDGEAB counters=%d edges=%d features=%d inputs=%d\\n", n, e, f, k)
	}
	os.Exit(code)
}

func FuzzPNG(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { Read(b, replay) })
}
'''


def chunk(typ, data):
    return (struct.pack(">I", len(data)) + typ + data +
            struct.pack(">I", zlib.crc32(typ + data) & 0xffffffff))


def png(w, h, depth, color, interlace, extra=(), level=9):
    """A valid PNG; rows with filter bytes cycling 0..4 and varied pixels."""
    chans = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    rowbytes = (w * chans * depth + 7) // 8
    raw = b"".join(bytes([y % 5]) + bytes((x * 7 + y * 13) & 0xff
                                          for x in range(rowbytes))
                   for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            b"".join(chunk(t, d) for t, d in extra) +
            chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b""))


def seeds():
    plte = (b"PLTE", bytes(range(48)))
    return [png(4, 4, 8, 2, 0),
            png(5, 3, 1, 0, 1),
            png(3, 3, 4, 3, 0, [plte, (b"tRNS", b"\x00\x80")]),
            png(2, 2, 16, 6, 0, [(b"tEXt", b"Comment\x00hi")], level=0)]


def go_corpus(b):
    return "go test fuzz v1\n[]byte(\"%s\")\n" % "".join(
        "\\x%02x" % c for c in b)


def write_module(z, p):
    pkg = MOD
    if os.path.isdir(pkg):
        shutil.rmtree(pkg)
    os.makedirs(pkg)
    with open(os.path.join(pkg, "go.mod"), "w") as f:
        f.write("module example.com/bridgeab\n\ngo 1.22\n\n"
                "require github.com/cgofuzz/cgofuzz v0.0.0\n\n"
                "replace github.com/cgofuzz/cgofuzz => %s\n" % ROOT)
    for d, names in ((z, ZLIB_C), (p, PNG_C)):
        for n in names:
            shutil.copy(os.path.join(d, n + ".c"), pkg)
    harness = open(os.path.join(BENCH, "c", "png_read.c")).read()
    harness = harness.replace("LLVMFuzzerTestOneInput", "pngab_read")
    with open(os.path.join(pkg, "harness.c"), "w") as f:
        f.write(harness)
    with open(os.path.join(pkg, "pngab.go"), "w") as f:
        f.write(HARNESS_GO % {"z": z, "p": p})
    with open(os.path.join(pkg, "cover.go"), "w") as f:
        f.write(COVER_GO)
    with open(os.path.join(pkg, "pngab_test.go"), "w") as f:
        f.write(TEST_GO)
    return pkg


# ---------------------------------------------------------------- running --

def build(cwd, pkg, out, tags, fuzz=True):
    env = dict(os.environ, CC="clang",
               CGO_CFLAGS_ALLOW="-fsanitize-coverage=.*")
    cmd = [GO, "test", "-c", "-o", out, "-tags=" + ",".join(tags)]
    if fuzz:
        cmd.append("-fuzz=.")
    cmd.append(pkg)
    r = sh_merged(cmd, cwd=cwd, env=env)
    if r.returncode != 0:
        sys.exit("bridge_ab: build failed: %s\n%s" % (" ".join(cmd),
                                                      r.stdout[-3000:]))


def fuzz_run(binary, target, fuzztime, parallel, work, timeout, extra=()):
    cmd = [binary, "-test.run=^$", f"-test.fuzz=^{target}$",
           f"-test.fuzztime={fuzztime}", f"-test.parallel={parallel}",
           f"-test.fuzzcachedir={work}/cache"] + list(extra)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return p.returncode, p.stdout, time.monotonic() - t0


def deadline_flake(st, out):
    """golang/go#75804: FAIL "context deadline exceeded" with no failing
    input at the end of a timed run; the run's figures are still good."""
    return (st == 1 and "context deadline exceeded" in out and
            "Failing input written" not in out)


def last_execs(out):
    e = EXECS.findall(out)
    return int(e[-1]) if e else None


def order(i):
    """A B, B A, A B, ...: each encoding goes first as often as second."""
    return ENCODINGS if i % 2 == 0 else ENCODINGS[::-1]


def replay(binary, work, corpus_dirs):
    d = os.path.join(work, "replay", "testdata", "fuzz", "FuzzPNG")
    os.makedirs(d)
    n = 0
    for cd in corpus_dirs:
        for fn in sorted(glob.glob(os.path.join(cd, "*"))):
            shutil.copy(fn, os.path.join(d, "c%06d" % n))
            n += 1
    r = sh_merged([binary, "-test.run=^FuzzPNG$"], cwd=os.path.dirname(
        os.path.dirname(os.path.dirname(d))),
        env=dict(os.environ, BRIDGEAB_REPLAY="1"), timeout=600)
    m = REPLAY.search(r.stdout)
    if not m:
        sys.exit("bridge_ab: replay failed:\n" + r.stdout[-3000:])
    return tuple(int(x) for x in m.groups())


def bench_png(args, tmp):
    z, p = ensure_sources()
    pkg = write_module(z, p)
    seeddir = os.path.join(tmp, "seeds")
    os.makedirs(seeddir)
    for i, s in enumerate(seeds()):
        with open(os.path.join(seeddir, "seed%d" % i), "w") as f:
            f.write(go_corpus(s))
    bins = {}
    for enc in ENCODINGS:
        bins[enc] = os.path.join(tmp, "png-%s.test" % enc)
        build(pkg, ".", bins[enc], ["gofuzz_cover", "gofuzz_bridge_" + enc])
    cov = os.path.join(tmp, "png-replay.test")
    build(pkg, ".", cov, ["gofuzz_cover"], fuzz=False)
    n0, e0, f0, k0 = replay(cov, tempfile.mkdtemp(dir=tmp), [seeddir])
    print(f"== png: libpng+zlib, {n0} C counters ({n0 / 4096:.1f} per Go "
          f"slot with calls, {n0 / 512:.1f} with slot); {args.runs} runs x "
          f"{args.execs} execs, -test.parallel={args.parallel}")
    print(f"  seeds alone: {e0} edges, {f0} features ({k0} inputs)")
    res = {enc: [] for enc in ENCODINGS}
    for i in range(args.runs):
        for enc in order(i):
            work = tempfile.mkdtemp(dir=tmp)
            d = os.path.join(work, "testdata", "fuzz", "FuzzPNG")
            shutil.copytree(seeddir, d)
            st, out, wall = fuzz_run(bins[enc], "FuzzPNG", f"{args.execs}x",
                                     args.parallel, work, timeout=3600,
                                     extra=[f"-test.fuzzminimizetime="
                                            f"{args.minimize}"])
            note = ""
            if deadline_flake(st, out):
                note = " (Go's deadline flake, figures kept)"
            elif st == 1 and "Failing input written" in out:
                note = " (stopped on a failure: %s)" % (
                    re.findall(r"Failing input written to (\S+)", out))
            elif st != 0:
                print(f"  {enc} run {i + 1}: exit {st}\n{out[-2000:]}")
                sys.exit(1)
            ex = last_execs(out) or args.execs
            cache = os.path.join(work, "cache", "FuzzPNG")
            n, e, f, k = replay(cov, work, [d, cache])
            r = ex / wall
            res[enc].append((e, f, k, r, wall))
            print(f"  {enc:5s} run {i + 1}: {e:5d} edges {f:5d} features "
                  f"{k:5d} corpus  {ex} execs in {wall:5.1f} s = "
                  f"{r:7,.0f} execs/s{note}", flush=True)
    print()
    print(f"  {'encoding':8s} {'edges':>7s} {'features':>9s} {'corpus':>7s} "
          f"{'execs/s':>9s}   (medians)")
    med = {}
    for enc in ENCODINGS:
        col = list(zip(*res[enc]))
        med[enc] = [statistics.median(c) for c in col]
        e, f, k, r, _ = med[enc]
        print(f"  {enc:8s} {e:7.0f} {f:9.0f} {k:7.0f} {r:9,.0f}")
    a, b = med["slot"], med["calls"]
    print(f"  calls/slot: edges {b[0] / a[0]:.3f}, features "
          f"{b[1] / a[1]:.3f}, execs/s {b[3] / a[3]:.3f}")
    print()
    return med


def bench_bug(args, tmp):
    print(f"== bug: examples/go/planted FuzzSum ({args.runs} runs, cap "
          f"{args.cap} s, -test.parallel={args.parallel})")
    bins = {}
    for enc in ENCODINGS:
        bins[enc] = os.path.join(tmp, "planted-%s.test" % enc)
        build(ROOT, "./examples/go/planted", bins[enc],
              ["gofuzz_cover", "gofuzz_bridge_" + enc])
    res = {enc: [] for enc in ENCODINGS}
    for i in range(args.runs):
        for enc in order(i):
            work = tempfile.mkdtemp(dir=tmp)
            st, out, wall = fuzz_run(bins[enc], "FuzzSum", f"{args.cap}s",
                                     args.parallel, work,
                                     timeout=args.cap * 3 + 60)
            found = st == 1 and "Go and C disagree" in out
            if deadline_flake(st, out):
                st = 0
            if st not in (0, 1) or (st == 1 and not found):
                print(f"  {enc} run {i + 1}: exit {st}\n{out[-2000:]}")
                sys.exit(1)
            ex = last_execs(out)
            r = rate(out)
            t = wall if found else float(args.cap)
            res[enc].append((t, r or 0.0))
            rs = f"{r:8,.0f} execs/s" if r else "   (no rate line)"
            print(f"  {enc:5s} run {i + 1}: "
                  f"{'found' if found else 'NOT found'} after {wall:5.1f} s "
                  f"({ex if ex is not None else '?'} execs) {rs}", flush=True)
    print()
    med = {}
    for enc in ENCODINGS:
        ts = [t for t, _ in res[enc]]
        rs = [r for _, r in res[enc] if r]
        med[enc] = (statistics.median(ts),
                    statistics.median(rs) if rs else None)
        print(f"  {enc:5s} median time to bug {med[enc][0]:5.1f} s, median "
              f"rate {med[enc][1] or 0:,.0f} execs/s (progress lines only)")
    print()
    return med


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--execs", type=int, default=300000)
    ap.add_argument("--cap", type=int, default=60)
    ap.add_argument("--minimize", default="2000x",
                    help="png: -test.fuzzminimizetime (Go's default 60s "
                    "stalls a worker for a minute on some libpng inputs)")
    ap.add_argument("--parallel", type=int, default=1)
    ap.add_argument("--only", default="png,bug")
    args = ap.parse_args()
    if not shutil.which("clang"):
        sys.exit("bridge_ab: clang is needed")
    print(sh_merged([GO, "version"]).stdout.strip(), "|",
          time.strftime("%Y-%m-%d %H:%M"), "|", os.cpu_count(), "CPUs |",
          "load average %.1f %.1f %.1f" % os.getloadavg())
    os.makedirs(CACHE, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        if "png" in args.only:
            bench_png(args, tmp)
        if "bug" in args.only:
            bench_bug(args, tmp)
    print("load average at the end: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()

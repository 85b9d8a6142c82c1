#!/usr/bin/env python3
"""Real cgo modules: the C code bundled in Go modules from the module proxy,
fuzzed through the fuzz target a Go user writes, by

  go            `go test -fuzz` on the module built as users build it
                (CC=clang): Go's fuzzer, blind to the C side;
  go+cgocc      `go test -fuzz` (Go's own coordinator) on the build with
                CC=cgofuzz-cgo-cc: the C edges are in Go's counter range;
  cgofuzz       `cgofuzz fuzz` on that same cgo-cc build (no source
                change): C edges, and C compares through the comparison
                feedback;
  libfuzzer     clang -fsanitize=fuzzer on the same C sources with an
                equivalent C harness (the same C entry point, the same
                seeds),

each with one worker, all engines of a round side by side (the same
cores, the same load). Each engine's corpus is then replayed through one
independent coverage build of the C harness and the module's C sources
(bench/c/covdrive.c, -fsanitize-coverage=inline-8bit-counters,pc-table):
"C edges" is the number of distinct C edges any of its inputs reaches.
Go corpus files (go test fuzz v1) are decoded to raw bytes first; inputs a
fuzzer reported as failing are left out (they may crash the replay).

An engine that stops on a failure (go test -fuzz stops at the first one)
is started again on its corpus for the time left; the first failure's
time is reported.

Modules (--modules picks some): sqlite (mattn/go-sqlite3, the SQLite
amalgamation: db.Exec of one SQL string on an in-memory database against
sqlite3_exec), zstd (DataDog/zstd: zstd.Decompress against ZSTD_decompress
with the same size hint), webp (chai2010/webp, libwebp: webp.DecodeRGBA
against WebPDecodeRGBA), lz4 (cloudflare/golz4: lz4.Uncompress against
LZ4_decompress_safe). Seeds are made by each module's own encoder (a Go
test run once), so all engines start from the same valid inputs.

Known bugs (only when named in --modules): webp-old (chai2010/webp v1.0.0,
libwebp 0.4.1: webp.SetMetadata against webpSetEXIF, whose WebPMuxCreate
takes a chunk size past MAX_CHUNK_PAYLOAD, fixed upstream by be738c6d in
libwebp 1.0.1) and webp-old-asan (the same, every engine with ASan: go
test -asan, -fsanitize=address,fuzzer). For these, each failure is
classified by its report (the engine's output of that run, and a Go
engine's failing input run again by its test binary): the known bug when
it names one of the module's functions ("bug" "match"); the result is the
time to the first such failure per engine, and a round ends when every
engine has found it (or at --seconds). No edge counts for them.

Usage: bench/cgo/cgo_bench.py [--seconds 600] [--runs 3] [--modules a,b]
       [--json out.json] [--summarize a.json b.json ...]
       [--recount a,b --json out.json]  (after the yardstick changed)
Parts taken on different days join with --summarize (medians per engine).
Needs go, clang-14, libclang-rt-14-dev (scripts/install-deps.sh), the
module proxy, and a built cgofuzz (build/bin/cgofuzz).
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402
from benchlib import ROOT, log, sh  # noqa: E402

CACHE = os.path.join(ROOT, "bench", ".cache", "cgo")
CGOFUZZ = os.path.join(ROOT, "build", "bin", "cgofuzz")
COVDRIVE = os.path.join(ROOT, "bench", "c", "covdrive.c")
ENGINES = ["go", "go+cgocc", "cgofuzz", "libfuzzer"]

# Each module: the Go module and version, its C sources (globs relative to
# the module's directory) and flags as its #cgo lines give them, the Go
# fuzz target a user writes, the seed writer (Go, run once with the
# module's own encoder), and the equivalent C harness.
MODULES = {
    "sqlite": {
        "mod": "github.com/mattn/go-sqlite3",
        "version": "v1.14.53",
        "csrc": ["sqlite3-binding.c"],
        "cflags": ["-std=gnu99", "-DSQLITE_ENABLE_RTREE",
                   "-DSQLITE_THREADSAFE=1", "-DHAVE_USLEEP=1",
                   "-DSQLITE_ENABLE_FTS3", "-DSQLITE_ENABLE_FTS3_PARENTHESIS",
                   "-DSQLITE_TRACE_SIZE_LIMIT=15", "-DSQLITE_OMIT_DEPRECATED",
                   "-DSQLITE_DEFAULT_WAL_SYNCHRONOUS=1",
                   "-DSQLITE_ENABLE_UPDATE_DELETE_LIMIT",
                   "-Wno-deprecated-declarations"],
        "ldflags": ["-lpthread", "-lm", "-ldl"],
        "type": "string",
        "imports": '"database/sql"\n\t_ "github.com/mattn/go-sqlite3"',
        "body": """db, err := sql.Open("sqlite3", ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.Exec(string(in))""",
        "seeds": """return [][]byte{
		[]byte("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t VALUES(1,'x'); SELECT * FROM t;"),
		[]byte("SELECT printf('%d', 42), upper('abc'), json_extract('{\\"a\\":1}', '$.a');"),
	}""",
        "harness": r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3-binding.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *sql = malloc(size + 1);
  memcpy(sql, data, size);
  sql[size] = 0;
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) == SQLITE_OK)
    sqlite3_exec(db, sql, 0, 0, 0);
  sqlite3_close(db);
  free(sql);
  return 0;
}
""",
    },
    "zstd": {
        "mod": "github.com/DataDog/zstd",
        "version": "v1.5.7",
        "csrc": ["*.c", "*.S"],
        "cflags": ["-DZSTD_LEGACY_SUPPORT=4", "-DZSTD_MULTITHREAD=1"],
        "ldflags": ["-lpthread"],
        "type": "[]byte",
        "imports": '"github.com/DataDog/zstd"',
        "body": "zstd.Decompress(nil, in)",
        "seeds": """a, _ := zstd.Compress(nil, []byte("hello, hello, hello world"))
	b, _ := zstd.CompressLevel(nil, bytes.Repeat([]byte("abcdefgh12345678"), 64), 19)
	return [][]byte{a, b}""",
        "seed_imports": '"bytes"',
        "harness": r"""
#include <stdint.h>
#include <stdlib.h>
#include "zstd.h"
/* DataDog/zstd's Decompress (zstd.go, decompressSizeHint): a size hint
 * from the frame header taken as a Go int (so a content size of 2^63 or
 * more, like the error values, is negative and means the upper bound), at
 * most 1,000,000 or 50 times the input, then ZSTD_decompress. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  long long upper = 50LL * (long long)size;
  if (upper < 1000 * 1000)
    upper = 1000 * 1000;
  long long hint = upper;
  if (size >= 2) {
    hint = (long long)ZSTD_getFrameContentSize(data, size);
    if (hint < 0)
      hint = upper;
    if (hint == 0)
      hint = 1;
  }
  if (hint > upper)
    hint = upper;
  void *dst = malloc((size_t)hint);
  ZSTD_decompress(dst, (size_t)hint, data, size);
  free(dst);
  return 0;
}
""",
    },
    "webp": {
        "mod": "github.com/chai2010/webp",
        "version": "v1.4.0",
        "csrc": ["z_libwebp_*.c"],
        "cflags": ["-Iinternal/libwebp-1.4.0/", "-Iinternal/libwebp-1.4.0/src/",
                   "-Iinternal/include/", "-Wno-pointer-sign",
                   "-DWEBP_USE_THREAD"],
        "ldflags": ["-lm", "-lpthread"],
        "type": "[]byte",
        "imports": '"github.com/chai2010/webp"',
        "body": "webp.DecodeRGBA(in)",
        "seeds": """m := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 7)
	}
	a, _ := webp.EncodeRGBA(m, 75)
	var b bytes.Buffer
	webp.Encode(&b, m, &webp.Options{Lossless: true})
	return [][]byte{a, b.Bytes()}""",
        "seed_imports": '"bytes"\n\t"image"',
        "harness": r"""
#include <stdint.h>
#include <stdlib.h>
#include "webp/decode.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int w, h;
  uint8_t *p = WebPDecodeRGBA(data, size, &w, &h);
  WebPFree(p);
  return 0;
}
""",
    },
    # A pinned version with a known C bug fixed upstream (not in the
    # default --modules: pick it by name). chai2010/webp v1.0.0 bundles
    # libwebp 0.4.1 (internal/libwebp, DEC_*_VERSION 0.4.1); its mux reader
    # takes a chunk size past MAX_CHUNK_PAYLOAD (0xffffffff pads to 0), so
    # ChunkVerifyAndAssign accepts a 4 GiB chunk in a small file: with
    # asserts (cgo builds have no NDEBUG) the assertion in ChunkDiskSize
    # fires, and when the chunk is copied (an ANMF frame) ChunkAssignData
    # mallocs and reads 4 GiB. Fixed upstream by be738c6d "muxread,
    # ChunkVerifyAndAssign: validate chunk_size" (webp:387, webp:388; in
    # libwebp 1.0.1 as 6f643f24), chai2010/webp v1.1.0 bundles libwebp
    # 1.0.2. Reached by webp.SetMetadata (WebPMuxCreate on the image).
    "webp-old": {
        "mod": "github.com/chai2010/webp",
        "version": "v1.0.0",
        "csrc": ["z_libwebp_*.c", "capi.c"],
        "cflags": ["-Iinternal/libwebp/include", "-Iinternal/libwebp/src",
                   "-Wno-pointer-sign", "-DWEBP_USE_THREAD"],
        "ldflags": ["-lm", "-lpthread"],
        "type": "[]byte",
        "imports": '"github.com/chai2010/webp"',
        "body": 'webp.SetMetadata(in, []byte("exif"), "EXIF")',
        "seeds": """m := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 7)
	}
	a, _ := webp.EncodeRGBA(m, 75)
	var b bytes.Buffer
	webp.Encode(&b, m, &webp.Options{Lossless: true})
	return [][]byte{a, b.Bytes()}""",
        "seed_imports": '"bytes"\n\t"image"',
        "harness": r"""
#include <stdint.h>
#include <stdlib.h>
#include "webp.h"
/* webp.SetMetadata(data, []byte("exif"), "EXIF"): webpSetEXIF (capi.go
 * refuses empty data), the result freed. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = 0;
  if (size == 0)
    return 0;
  uint8_t *out = webpSetEXIF(data, size, "exif", 4, &n);
  free(out);
  return 0;
}
""",
        "default": False,
        # A failure is the known bug when its report names one of these
        # (the assertion's function, or the 4 GiB copy's).
        "bug": {
            "name": "libwebp mux: chunk size > MAX_CHUNK_PAYLOAD accepted "
                    "(fixed by be738c6d, libwebp 1.0.1)",
            "match": [r"\bChunkDiskSize\b", r"\bChunkAssignData\b"],
        },
        # Other known bugs of the same code, counted apart: the RIFF size
        # checks of WebPMuxCreateInternal let ChunkVerifyAndAssign read a
        # chunk header past the end of the input (webp:386, fixed by
        # 2c70ad76 "muxread,CreateInternal: fix riff size checks", libwebp
        # 1.0.1): a read of a few bytes, seen only with ASan.
        "also": [{
            "name": "webp:386 (2c70ad76): ChunkVerifyAndAssign reads a chunk "
                    "header past the input",
            "match": [r"in GetLE32 [^\n]*\n\s*#\d+ 0x[0-9a-f]+ in "
                      r"ChunkVerifyAndAssign"],
        }, {
            # A VP8X chunk shorter than 10 bytes: the canvas size is read
            # past it (oss-fuzz:9100, 9123; fixed by 95fd6507 "fix
            # read-overflow while parsing VP8X chunk", libwebp 1.0.1).
            "name": "oss-fuzz:9100 (95fd6507): WebPMuxCreateInternal reads "
                    "the VP8X canvas size past the input",
            "match": [r"in GetLE24 [^\n]*\n\s*#\d+ 0x[0-9a-f]+ in "
                      r"WebPMuxCreateInternal"],
        }],
    },
    "lz4": {
        "mod": "github.com/cloudflare/golz4",
        "version": "v0.0.0-20240916140612-caecf3c00c06",
        "csrc": ["src/lz4.c"],
        "cflags": ["-O3"],
        "ldflags": [],
        "type": "[]byte",
        "imports": 'lz4 "github.com/cloudflare/golz4"',
        "body": """if len(in) == 0 {
			return // golz4 indexes in[0]
		}
		out := make([]byte, 65536)
		lz4.Uncompress(in, out)""",
        "seeds": """in := bytes.Repeat([]byte("lz4 lz4 block "), 40)
	a := make([]byte, lz4.CompressBound(in))
	n, _ := lz4.Compress(in, a)
	return [][]byte{a[:n], []byte("\\x50hello")}""",
        "seed_imports": '"bytes"',
        "harness": r"""
#include <stdint.h>
#include <stdlib.h>
#include "src/lz4.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char out[65536];
  LZ4_decompress_safe((const char *)data, out, (int)size, (int)sizeof out);
  return 0;
}
""",
    },
}

# The same with ASan for every engine: go test -asan (CC=clang, and
# CC=cgofuzz-cgo-cc; Go's allocations get redzones, so C reading past the Go
# slice is caught) and -fsanitize=address,fuzzer for libFuzzer. The
# assertion needs no ASan; the 4 GiB copy's over-read of the input does.
MODULES["webp-old-asan"] = dict(MODULES["webp-old"], asan=True)

TEST_GO = """package cgobench

import (
	"os"
	"path/filepath"
	"fmt"
	"testing"
	%(imports)s
	%(seed_imports)s
)

func seeds() [][]byte {
	%(seeds)s
}

// TestWriteSeeds writes the seeds, raw, into $CGOBENCH_SEEDS (once, by
// the benchmark).
func TestWriteSeeds(t *testing.T) {
	dir := os.Getenv("CGOBENCH_SEEDS")
	if dir == "" {
		t.Skip("CGOBENCH_SEEDS not set")
	}
	for i, s := range seeds() {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%%d", i)), s, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzModule(f *testing.F) {
	for _, s := range seeds() {
		f.Add(%(type)s(s))
	}
	f.Fuzz(func(t *testing.T, in %(type)s) {
		%(body)s
	})
}
"""


def go_env():
    env = dict(os.environ)
    env.pop("CC", None)
    env.pop("CXX", None)
    env["GOFLAGS"] = "-mod=mod"
    return env


def prepare(name, m):
    """The Go module dir, the three binaries, the seeds; returns a dict."""
    d = os.path.join(CACHE, name)
    os.makedirs(d, exist_ok=True)
    env = go_env()
    with open(os.path.join(d, "go.mod"), "w") as f:
        f.write("module example.com/cgobench\n\ngo 1.21\n\nrequire %s %s\n"
                % (m["mod"], m["version"]))
    with open(os.path.join(d, "fuzz_test.go"), "w") as f:
        f.write(TEST_GO % {"imports": m["imports"],
                           "seed_imports": m.get("seed_imports", ""),
                           "seeds": m["seeds"], "type": m["type"],
                           "body": m["body"]})
    r = sh(["go", "mod", "tidy"], cwd=d, env=env)
    if r.returncode != 0:
        raise RuntimeError("go mod tidy: " + r.stderr[-2000:])
    moddir = sh(["go", "list", "-m", "-f", "{{.Dir}}", m["mod"]], cwd=d,
                env=env).stdout.strip()
    out = {"dir": d, "moddir": moddir}
    seeds = os.path.join(d, "seeds")
    if not os.path.isdir(seeds) or not os.listdir(seeds):
        os.makedirs(seeds, exist_ok=True)
        r = sh(["go", "test", "-run", "TestWriteSeeds", "."], cwd=d,
               env=dict(env, CC="clang", CGOBENCH_SEEDS=seeds))
        if r.returncode != 0:
            raise RuntimeError("seeds: " + r.stdout[-2000:] + r.stderr[-2000:])
    out["seeds"] = seeds
    bins = {"go": ("clang", None), "cgocc": (None, True)}
    cc = os.path.join(ROOT, "build", "bin", "cgofuzz-cgo-cc")
    for b, (plain_cc, _) in bins.items():
        path = os.path.join(d, b + ".test")
        if not os.path.exists(path):
            t0 = time.time()
            r = sh(["go", "test", "-c", "-fuzz=."] +
                   (["-asan"] if m.get("asan") else []) +
                   ["-o", path, "."], cwd=d,
                   env=dict(env, CC=plain_cc or cc), timeout=3600)
            if r.returncode != 0:
                raise RuntimeError("go test -c (%s): %s" % (b, r.stderr[-3000:]))
            log("  built %s/%s.test in %.0f s" % (name, b, time.time() - t0))
        out[b] = path
    # The C harness: libFuzzer, and the coverage yardstick.
    os.makedirs(os.path.join(d, "c"), exist_ok=True)  # not the Go package's
    hsrc = os.path.join(d, "c", "harness.c")
    with open(hsrc, "w") as f:
        f.write(m["harness"])
    csrc = []
    for g in m["csrc"]:
        csrc += sorted(glob.glob(os.path.join(moddir, g)))
    inc = ["-I" + moddir] + [("-I" + os.path.join(moddir, f[2:]))
                              if f.startswith("-I") else f
                              for f in m["cflags"]]
    builds = {
        "lf": ["-O2", "-g", "-fsanitize=address,fuzzer" if m.get("asan")
               else "-fsanitize=fuzzer"],
        "cov": ["-O2", "-g",
                "-fsanitize-coverage=inline-8bit-counters,pc-table"],
    }
    for b, flags in builds.items():
        path = os.path.join(d, b)
        if os.path.exists(path):
            out[b] = path
            continue
        objs = []
        srcs = csrc + [hsrc] + ([COVDRIVE] if b == "cov" else [])
        t0 = time.time()
        for i, s in enumerate(srcs):
            o = os.path.join(d, "%s-%d.o" % (b, i))
            extra = [] if s == COVDRIVE else flags
            r = sh(["clang", "-c", s, "-o", o] + extra + inc, cwd=moddir,
                   timeout=3600)
            if r.returncode != 0:
                raise RuntimeError("clang %s: %s" % (s, r.stderr[-3000:]))
            objs.append(o)
        r = sh(["clang", "-o", path] + objs + flags + m["ldflags"], timeout=600)
        if r.returncode != 0:
            raise RuntimeError("link %s: %s" % (b, r.stderr[-3000:]))
        log("  built %s/%s in %.0f s" % (name, b, time.time() - t0))
        out[b] = path
    return out


# Engines that run on past a failure in a --keep-going round (go test -fuzz
# cannot: it stops at each failure and is started again).
KEEP_GOING = ("cgofuzz", "libfuzzer")
# --libfuzzer-runs: libFuzzer stops after this many inputs (its corpus then
# counted as at an equal number of execs to another engine's), 0: by time.
LIBFUZZER_RUNS = 0


def engine_cmd(eng, b, work, left, keep=False):
    """argv, cwd for one engine's (re)start with left seconds; keep: run on
    past failures (cgofuzz -fuzzcontinue, libFuzzer -fork=1
    -ignore_crashes=1)."""
    sec = "%ds" % max(1, int(left))
    cache = os.path.join(work, "cache")
    if eng in ("go", "go+cgocc"):
        binary = b["go"] if eng == "go" else b["cgocc"]
        return [binary, "-test.run=^FuzzModule$", "-test.fuzz=^FuzzModule$",
                "-test.fuzztime=" + sec, "-test.parallel=1",
                "-test.fuzzcachedir=" + cache], work
    if eng == "cgofuzz":
        return [CGOFUZZ, "fuzz", "-fuzz=^FuzzModule$", "-fuzztime=" + sec,
                "-parallel=1", "-fuzzcachedir=" + cache] + (
                    ["-fuzzcontinue"] if keep else []) + [b["cgocc"]], work
    corpus = os.path.join(work, "corpus")
    os.makedirs(corpus, exist_ok=True)
    runs = ["-runs=%d" % LIBFUZZER_RUNS] if LIBFUZZER_RUNS else []
    return [b["lf"], "-max_total_time=%d" % max(1, int(left)),
            "-timeout=25"] + runs + [
            "-rss_limit_mb=2560", "-artifact_prefix=" + work + "/",
            "-print_final_stats=1"] + (
                ["-fork=1", "-ignore_crashes=1"] if keep else []) + [
                corpus, b["seeds"]], work


def reproduce(eng, b, work, fname):
    """The report of a Go engine's failing input, from the test binary the
    engine ran (go test -run=FuzzModule/NAME in a scratch directory)."""
    scratch = os.path.join(work, "repro")
    td = os.path.join(scratch, "testdata", "fuzz", "FuzzModule")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(td)
    shutil.copy(os.path.join(work, "failures", fname), td)
    binary = b["go"] if eng == "go" else b["cgocc"]
    try:
        r = subprocess.run([binary, "-test.run=^FuzzModule$/^%s$" % fname],
                           cwd=scratch, capture_output=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        out = (r.stdout + r.stderr).decode("utf-8", "replace")
    except subprocess.TimeoutExpired as ex:
        out = "reproduction timed out after 120 s\n" + (
            (ex.stdout or b"") + (ex.stderr or b"")).decode("utf-8", "replace")
    shutil.rmtree(scratch, ignore_errors=True)
    return out


def failure_kind(text):
    """A one-line name of a failure report: the sanitizer's or libFuzzer's
    error line, the assertion, Go's signal line, or its FAIL line."""
    pats = [r"Assertion `[^']*' failed", r"ERROR: AddressSanitizer: [\w-]+",
            r"ERROR: LeakSanitizer: [\w ]+", r"ERROR: libFuzzer: [\w-]+",
            r"SUMMARY: \w+: .*", r"^(SIG[A-Z]+: .*)$",
            r"fuzzing process hung or terminated unexpectedly.*",
            r"panic: .*", r"--- FAIL: .*"]
    for pat in pats:
        m = re.search(pat, text, re.M)
        if m:
            return m.group(0).strip()[:160]
    return "?"


def names_bug(m, text):
    bug = m.get("bug")
    return bool(bug) and any(re.search(pat, text) for pat in bug["match"])


def replay_in_c(b, work, fname, raw=None):
    """A Go engine's failing input (a go test fuzz v1 file in work/failures)
    run as raw bytes by the libFuzzer build of the C harness: its report,
    which names the C frames whatever the engine printed. raw: a file of
    raw bytes to run instead (a libFuzzer artifact)."""
    if raw is None:
        with open(os.path.join(work, "failures", fname), encoding="utf-8",
                  errors="surrogateescape") as f:
            text = f.read()
        try:
            val, _ = benchlib.go_string(text, text.index("(") + 1)
        except (ValueError, AssertionError, IndexError):
            return ""
        rawdir = os.path.join(work, "failures-raw")
        os.makedirs(rawdir, exist_ok=True)
        raw = os.path.join(rawdir, fname)
        with open(raw, "wb") as f:
            f.write(val)
    try:
        r = subprocess.run([b["lf"], "-rss_limit_mb=2560", "-timeout=25", raw],
                           capture_output=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        return (r.stdout + r.stderr).decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return ""


def classify(m, eng, b, s, text, files):
    """One failure of an engine: its time is the caller's; here, whether
    its report (the engine's own output of that run, and for Go engines
    each failing input run again by its binary) names the module's known
    bug, whether its input is the bug (for Go engines: the input run by the
    libFuzzer build of the C harness names it; for libFuzzer the same as
    its report), and what it was."""
    reports = [text] + [reproduce(eng, b, s["work"], f) for f in files]
    is_bug = names_bug(m, "\n".join(reports))
    inp_bug = is_bug or any(names_bug(m, replay_in_c(b, s["work"], f))
                            for f in files)
    kind = failure_kind("\n".join(reports[1:]) or text)
    also = [x["name"] for x in m.get("also", [])
            if names_bug({"bug": x}, "\n".join(reports))]
    return is_bug, inp_bug, kind, also


def new_failures(e, s):
    """A keep-going engine's failure files not seen before, oldest first:
    (path, its time of writing)."""
    w = s["work"]
    if e == "cgofuzz":
        pats = [os.path.join(w, "testdata", "fuzz", "FuzzModule", "*")]
    else:
        pats = [os.path.join(w, k + "-*") for k in
                ("crash", "leak", "oom", "timeout")]
    out = []
    for pat in pats:
        for path in glob.glob(pat):
            if path not in s["seen"]:
                s["seen"].add(path)
                out.append((path, os.path.getmtime(path)))
    return sorted(out, key=lambda x: x[1])


def classify_kept(m, b, s, path):
    """A keep-going engine's failure, classified by one yardstick for both
    engines: its input run by the libFuzzer build of the C harness (a
    cgofuzz failure decoded from its go test fuzz v1 file first)."""
    fname = os.path.basename(path)
    if "/testdata/" in path:
        fails = os.path.join(s["work"], "failures")
        os.makedirs(fails, exist_ok=True)
        shutil.copy(path, os.path.join(fails, fname))
        rep = replay_in_c(b, s["work"], fname)
    else:
        rep = replay_in_c(b, s["work"], fname, raw=path)
    is_bug = names_bug(m, rep)
    also = [x["name"] for x in m.get("also", [])
            if names_bug({"bug": x}, rep)]
    return is_bug, failure_kind(rep), also


def run_round(name, b, engines, seconds, rnd, m=None, keep=False):
    """Runs the engines side by side; returns {engine: work dir, failures}.
    For a module with a known bug (m["bug"]), every failure is classified
    (s["failures"]: time, whether it is the bug, what it was; s["bug"]: the
    first time it was the bug), and the round ends when every engine has
    found the bug or the time is up. keep: the engines of KEEP_GOING run on
    past failures, each failure file classified as it appears (by its
    input run in the C harness), and the round runs to the cap."""
    m = m or {}
    base = os.path.join(CACHE, name, "runs", "r%d" % rnd)
    shutil.rmtree(base, ignore_errors=True)
    state = {}
    for e in engines:
        w = os.path.join(base, e.replace("+", "_"))
        os.makedirs(w)
        # The Go test binaries read seeds from f.Add; testdata would hold
        # failures, which are kept apart from the corpus.
        state[e] = {"work": w, "start": time.time(), "proc": None,
                    "first_fail": None, "restarts": 0, "log": open(
                        os.path.join(w, "log"), "ab"), "log_off": 0,
                    "failures": [], "bug": None, "bug_input": None,
                    "seen": set(), "kinds": {}}
    t0 = time.time()
    while True:
        now = time.time()
        left = seconds - (now - t0)
        busy = False
        for e, s in state.items():
            p = s["proc"]
            if keep and e in KEEP_GOING and m.get("bug"):
                for path, mt in new_failures(e, s):
                    is_bug, kind, also = classify_kept(m, b, s, path)
                    t = round(mt - t0, 2)
                    # libFuzzer writes every crashing input: the same
                    # failure again is counted on its first.
                    key = (kind, is_bug, tuple(also))
                    if key in s["kinds"]:
                        s["kinds"][key]["repeats"] += 1
                        continue
                    s["kinds"][key] = {"t": t, "bug": is_bug, "repeats": 0,
                                       "input_bug": is_bug, "kind": kind,
                                       "files": [os.path.basename(path)],
                                       "also": also}
                    s["failures"].append(s["kinds"][key])
                    log("  round %d %-10s failure at %.1f s: %s%s%s" % (
                        rnd, e, t, kind, " (the known bug)" if is_bug
                        else "", "".join("; " + x.split(":")[0]
                                         for x in also)))
                    if is_bug and s["bug"] is None:
                        s["bug"] = s["bug_input"] = t
            if p is not None and p.poll() is None:
                busy = True
                continue
            if p is not None:
                s["proc"] = None
                failed = p.returncode != 0
                if failed and s["first_fail"] is None:
                    s["first_fail"] = now - t0
                s["restarts"] += failed
                # A failure is kept apart: left in testdata, the restart
                # would fail on it again as a seed.
                td = os.path.join(s["work"], "testdata", "fuzz", "FuzzModule")
                fails = os.path.join(s["work"], "failures")
                moved = []
                for f in glob.glob(os.path.join(td, "*")):
                    os.makedirs(fails, exist_ok=True)
                    shutil.move(f, os.path.join(fails, os.path.basename(f)))
                    moved.append(os.path.basename(f))
                # (A keep-going engine's failures were classified as
                # they appeared.)
                if failed and m.get("bug") and not (keep and
                                                    e in KEEP_GOING):
                    s["log"].flush()
                    with open(s["log"].name, "rb") as f:
                        f.seek(s["log_off"])
                        text = f.read().decode("utf-8", "replace")
                    is_bug, inp_bug, kind, also = classify(m, e, b, s, text,
                                                           moved)
                    s["failures"].append({"t": round(now - t0, 2),
                                          "bug": is_bug, "input_bug": inp_bug,
                                          "kind": kind, "files": moved,
                                          "also": also})
                    log("  round %d %-10s failure at %.1f s: %s%s" % (
                        rnd, e, now - t0, kind,
                        " (the known bug)" if is_bug else
                        " (its input is the known bug; the report does not "
                        "name it)" if inp_bug else ""))
                    if is_bug and s["bug"] is None:
                        s["bug"] = round(now - t0, 2)
                    if inp_bug and s["bug_input"] is None:
                        s["bug_input"] = round(now - t0, 2)
            if left > 2 and (p is None or p.returncode != 0):
                argv, cwd = engine_cmd(e, b, s["work"], left,
                                       keep and e in KEEP_GOING)
                s["log"].flush()
                s["log_off"] = os.path.getsize(s["log"].name)
                s["proc"] = subprocess.Popen(
                    argv, cwd=cwd, stdout=s["log"], stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL, start_new_session=True)
                busy = True
        if not busy:
            break
        all_found = m.get("bug") and all(s["bug"] is not None and
                                         s["bug_input"] is not None
                                         for s in state.values())
        if keep:
            all_found = False
        if left < -60 or all_found:
            for s in state.values():
                if s["proc"] and s["proc"].poll() is None:
                    os.killpg(s["proc"].pid, signal.SIGKILL)
            if all_found:
                for s in state.values():
                    if s["proc"]:
                        s["proc"].wait()
                        s["proc"] = None
                break
        time.sleep(0.5)
    for s in state.values():
        s["log"].close()
    return state


def raw_inputs(eng, work, b):
    """The raw inputs of an engine's corpus (paths), seeds included."""
    files = [os.path.join(b["seeds"], f) for f in sorted(os.listdir(b["seeds"]))]
    if eng == "libfuzzer":
        c = os.path.join(work, "corpus")
        return files + [os.path.join(c, f) for f in sorted(os.listdir(c))]
    rawdir = os.path.join(work, "raw")
    os.makedirs(rawdir, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(work, "cache", "FuzzModule",
                                              "*"))):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        try:
            i = text.index("(") + 1
            val, _ = benchlib.go_string(text, i)
        except (ValueError, AssertionError, IndexError):
            continue
        out = os.path.join(rawdir, os.path.basename(path))
        with open(out, "wb") as f:
            f.write(val)
        files.append(out)
    return files


def c_edges(b, files):
    r = subprocess.run([b["cov"]], input="\n".join(files) + "\n",
                       capture_output=True, text=True, timeout=3600)
    for line in r.stdout.splitlines():
        if line.startswith("edges "):
            return int(line.split()[1]), int(line.split()[3])
    raise RuntimeError("covdrive: %s %s" % (r.stdout[-500:], r.stderr[-500:]))


def engine_row(eng, work, b, first_fail=None, restarts=None):
    """One engine's figures of a round: its corpus counted by the coverage
    build (first_fail and restarts: what the round saw, None when only
    recounted)."""
    files = raw_inputs(eng, work, b)
    edges, total = c_edges(b, files)
    return {"edges": edges, "total": total, "inputs": len(files),
            "first_fail": first_fail, "restarts": restarts}


def summarize_bugs(results, seconds, keep=False):
    """Time to each bug module's known bug: per engine the median (a miss
    counts as the cap), found in N of the rounds, each round's time."""
    log("")
    log("Time to the known bug (s), one worker per engine, engines side by "
        "side, cap %d s; median (found/rounds: each round, miss = not found "
        "by the cap):" % seconds)
    log("")
    heads = ["go/cgofuzz", "go+cgocc/cgofuzz", "libfuzzer/cgofuzz"]
    log("| module | " + " | ".join(ENGINES) + " | " + " | ".join(heads) +
        " |")
    log("|---|" + "---|" * (len(ENGINES) + len(heads)))
    for key, what in (("bug", "the report names the bug"),
                      ("bug_input", "the input is the bug")):
        for name in sorted(results):
            rounds = results[name]
            cells, _ = benchlib.summary_cells(
                lambda e: [r[e].get(key) for r in rounds if e in r], ENGINES,
                {e: seconds for e in ENGINES}, heads)
            log("| %s, %s | %s |" % (name, what, " | ".join(cells)))
    for name in sorted(results):
        rounds = results[name]
        names = sorted({x for r in rounds for e in r
                        for f in r[e].get("failures", [])
                        for x in f.get("also", [])})
        for x in names:
            def first(e, x=x):
                out = []
                for r in rounds:
                    if e not in r:
                        continue
                    ts = [f["t"] for f in r[e].get("failures", [])
                          if x in f.get("also", [])]
                    out.append(min(ts) if ts else None)
                return out
            cells, _ = benchlib.summary_cells(
                first, ENGINES, {e: seconds for e in ENGINES}, heads)
            log("| %s, other known bug: %s | %s |" % (
                name, x, " | ".join(cells)))
    log("")
    log("\"The report names the bug\": the engine's output, or its failing "
        "input run again by its test binary, names the bug's function; \"the "
        "input is the bug\": so does the input run by the libFuzzer build of "
        "the C harness.")
    log("")
    if keep:
        log("(Every round ran to the cap; cgofuzz (-fuzzcontinue) and "
            "libFuzzer (-fork=1 -ignore_crashes=1) ran on past failures, "
            "each failure classified as it was written, by its input run "
            "in the libFuzzer build of the C harness; go test -fuzz stops "
            "at each failure and is started again.)")
    else:
        log("(An engine's round ends when every engine has found the known "
            "bug: the other bug's times are those of failures before that, "
            "a miss is not found by then.)")
    log("")
    log("Failures that were not the known bug (engine, round, time, what):")
    log("")
    for name in sorted(results):
        for i, r in enumerate(results[name]):
            for e in ENGINES:
                for f in (r.get(e) or {}).get("failures", []):
                    if not f["bug"]:
                        log("- %s %s round %d at %.1f s: %s%s%s%s" % (
                            name, e, i, f["t"], f["kind"],
                            " (its input is the known bug)"
                            if f.get("input_bug") else "",
                            "".join("; the other known bug " + x
                                    for x in f.get("also", [])),
                            "; %d more like it" % f["repeats"]
                            if f.get("repeats") else ""))


def summarize(results, seconds, keep=False):
    bugs = {n: r for n, r in results.items()
            if any("bug" in row.get(e, {}) for row in r for e in row)}
    results = {n: r for n, r in results.items() if n not in bugs}
    if bugs:
        summarize_bugs(bugs, seconds, keep)
    if not results:
        return
    log("")
    log("C edges of the bundled C after %d s, one worker per engine, "
        "engines side by side; median of the rounds (each round's value "
        "in brackets):" % seconds)
    log("")
    log("| module | total C edges | " + " | ".join(ENGINES) +
        " | cgofuzz / libFuzzer | cgofuzz / go |")
    log("|---|---|" + "---|" * (len(ENGINES) + 2))
    for name in sorted(results):
        rounds = results[name]
        med = {}
        cells = []
        for e in ENGINES:
            vals = [r[e]["edges"] for r in rounds if e in r]
            if not vals:
                cells.append("-")
                continue
            med[e] = statistics.median_low(vals)
            fails = [r[e]["first_fail"] for r in rounds
                     if e in r and r[e]["first_fail"] is not None]
            cells.append("%d [%s]%s" % (med[e], ", ".join(map(str, vals)),
                                        " (failure at %.0f s)" % min(fails)
                                        if fails else ""))
        # Every engine's count has the same total; take any engine run.
        total = next((r[e]["total"] for r in rounds for e in ENGINES
                      if e in r), 0)

        def ratio(a, b):
            return ("%.2fx" % (med[a] / med[b])) if a in med and med.get(b) \
                else "-"
        log("| %s | %d | %s | %s | %s |" % (
            name, total, " | ".join(cells), ratio("cgofuzz", "libfuzzer"),
            ratio("cgofuzz", "go")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--first-round", type=int, default=0)
    ap.add_argument("--modules", default=",".join(
        n for n, m in MODULES.items() if m.get("default", True)))
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--json")
    ap.add_argument("--keep-going", action="store_true",
                    help="bug modules: cgofuzz and libFuzzer run on past "
                    "failures (-fuzzcontinue; -fork=1 -ignore_crashes=1), "
                    "each failure classified by its input run in the C "
                    "harness, every round to the cap")
    ap.add_argument("--libfuzzer-runs", type=int, default=0,
                    help="libFuzzer stops after this many inputs (-runs), "
                    "to count its C edges at another engine's input count")
    ap.add_argument("--summarize", nargs="*")
    ap.add_argument("--recount", metavar="MODULES",
                    help="count again, with the current coverage build, the "
                    "corpora of every round on disk (bench/.cache/cgo/M/runs)"
                    " of these modules; --json gets the rounds")
    ap.add_argument("--reclassify", metavar="JSON",
                    help="classify again the failures of the bug modules' "
                    "rounds in JSON (their inputs are on disk under "
                    "bench/.cache/cgo/M/runs), adding whether each input is "
                    "the bug; --json gets the result")
    a = ap.parse_args()
    global LIBFUZZER_RUNS
    LIBFUZZER_RUNS = a.libfuzzer_runs
    if a.reclassify:
        with open(a.reclassify) as f:
            part = json.load(f)
        for name, rounds in part["results"].items():
            m = MODULES[name]
            if not m.get("bug"):
                continue
            b = prepare(name, m)
            for i, row in enumerate(rounds):
                rnd = row.get("_round", i)
                for e, r in row.items():
                    if e.startswith("_"):
                        continue
                    w = os.path.join(CACHE, name, "runs", "r%d" % rnd,
                                     e.replace("+", "_"))
                    r["bug_input"] = None
                    segs = []
                    if e == "libfuzzer":
                        # One segment a libFuzzer start; the failing ones
                        # in order are the failures in order.
                        with open(os.path.join(w, "log"), "rb") as f:
                            lt = f.read().decode("utf-8", "replace")
                        segs = [x for x in re.split(r"(?m)^INFO: Seed:", lt)
                                if re.search(r"ERROR|Assertion `", x)]
                    for k, fl in enumerate(r["failures"]):
                        if e == "libfuzzer":
                            rep = segs[k] if k < len(segs) else ""
                        else:
                            rep = "\n".join(reproduce(e, b, w, x)
                                            for x in fl["files"])
                        fl["also"] = [x["name"] for x in m.get("also", [])
                                      if names_bug({"bug": x}, rep)]
                        fl["input_bug"] = fl["bug"] or (
                            e != "libfuzzer" and any(
                                names_bug(m, replay_in_c(b, w, x))
                                for x in fl["files"]))
                        if fl["input_bug"] and r["bug_input"] is None:
                            r["bug_input"] = fl["t"]
        if a.json:
            with open(a.json, "w") as f:
                json.dump(part, f, indent=1)
        summarize(part["results"], part["seconds"])
        return
    if a.recount:
        results = {}
        for name in a.recount.split(","):
            b = prepare(name, MODULES[name])
            results[name] = []
            for rd in sorted(glob.glob(os.path.join(CACHE, name, "runs", "r*"))):
                row = {}
                for e in ENGINES:
                    w = os.path.join(rd, e.replace("+", "_"))
                    if not os.path.isdir(w):
                        continue
                    row[e] = engine_row(e, w, b)
                    log("  %s %s %-10s %6d C edges of %d" % (
                        name, os.path.basename(rd), e, row[e]["edges"],
                        row[e]["total"]))
                results[name].append(row)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"seconds": a.seconds, "recounted": True,
                           "results": results}, f, indent=1)
        summarize(results, a.seconds)
        return
    if a.summarize:
        results, seconds, keep = {}, None, False
        for path in a.summarize:
            with open(path) as f:
                part = json.load(f)
            keep = keep or part.get("keep_going", False)
            if seconds not in (None, part["seconds"]):
                sys.exit("%s: %d s, not %d s" % (path, part["seconds"], seconds))
            seconds = part["seconds"]
            for name, rounds in part["results"].items():
                results.setdefault(name, []).extend(rounds)
        summarize(results, seconds, keep)
        return
    engines = a.engines.split(",")
    commit = sh(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).stdout.strip()
    log("cgo_bench: %s s, %d round(s), engines %s, cgofuzz %s, %s" % (
        a.seconds, a.runs, ",".join(engines), commit,
        benchlib.clang_version()))
    results = {}
    for name in a.modules.split(","):
        m = MODULES[name]
        log("%s: %s@%s" % (name, m["mod"], m["version"]))
        b = prepare(name, m)
        results[name] = []
        for rnd in range(a.first_round, a.first_round + a.runs):
            st = run_round(name, b, engines, a.seconds, rnd, m,
                           a.keep_going)
            row = {}
            for e in engines:
                if m.get("bug"):
                    # Time to the known bug; no edge count (the round ends
                    # when every engine has found it).
                    r = row[e] = {"bug": st[e]["bug"],
                                  "bug_input": st[e]["bug_input"],
                                  "failures": st[e]["failures"],
                                  "first_fail": st[e]["first_fail"],
                                  "restarts": st[e]["restarts"]}
                    log("  round %d %-10s %s" % (
                        rnd, e, "known bug at %.1f s" % r["bug"]
                        if r["bug"] is not None else
                        "known bug not found in %d s" % a.seconds))
                    continue
                r = row[e] = engine_row(e, st[e]["work"], b,
                                        st[e]["first_fail"], st[e]["restarts"])
                log("  round %d %-10s %6d C edges of %d (%d inputs)%s" % (
                    rnd, e, r["edges"], r["total"], r["inputs"],
                    "" if r["first_fail"] is None else
                    ", first failure at %.0f s" % r["first_fail"]))
            results[name].append(row)
            if a.json:
                with open(a.json, "w") as f:
                    json.dump({"seconds": a.seconds, "commit": commit,
                               "keep_going": a.keep_going,
                               "results": results}, f, indent=1)
    summarize(results, a.seconds, a.keep_going)


if __name__ == "__main__":
    main()

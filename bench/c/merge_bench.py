#!/usr/bin/env python3
"""Corpus merge: `cgofuzz corpus merge` against libFuzzer's -merge=1.

Issue 16's yardstick (docs/corpus-tools.md). For two C libraries (zlib
inflate and cJSON parse, the harnesses of bench/c built by bench/c/c_bench.py)
and a standard-library Go target (encoding/json in a temporary module):

  1. make a corpus: a 60 s cgofuzz run (the C target's own -test.fuzz, or
     `cgofuzz fuzz` for Go) plus, for C, a 60 s libFuzzer run of the .lf
     build; the union of their inputs, as raw files, is the input;
  2. merge it with `cgofuzz corpus merge` (the .cg build's own workers),
     with the same binary's libFuzzer front end (`-merge=1`) and with real
     libFuzzer (`.lf -merge=1`), each from scratch, timed;
  3. replay the union and every merged set through the coverage build
     (bench/c/covdrive.c, c_bench.count_edges): edges of union vs merged.
     For Go, `go test -run -coverprofile -coverpkg=encoding/json` replays
     the union and the merged set from testdata/fuzz (statement coverage of
     encoding/json, Go's own tool) and cgofuzz's counters are shown too;
  4. convert round trips: every C file raw -> go -> raw and every Go file
     go -> raw -> go must come back byte for byte;
  5. `cgofuzz corpus stats` of each input corpus (summary lines).

Everything goes to bench/.cache/merge (bench/.cache/runs belongs to
c_bench.py). Binaries come from bench/.cache/bin (built by c_bench.py; built
here with its helpers when missing).

usage: bench/c/merge_bench.py [--seconds 60] [--build build-dir]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import fresh, note, table  # noqa: E402
import c_bench  # noqa: E402  (harness builds, fuzz runs, edge counts)

ROOT = c_bench.ROOT
WORK = os.path.join(c_bench.CACHE, "merge")
c_bench.RUNS = os.path.join(WORK, "runs")  # never c_bench's own runs/
TARGETS = ("zlib_inflate", "cjson_parse")
GO = c_bench.GO

JSON_TEST = """package jsonfuzz

import (
	"encoding/json"
	"testing"
)

func FuzzJSON(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5e3,"x\\u00e9",true,null,{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) == nil {
			if _, err := json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
	})
}
"""


def run(argv, cwd=None, env=None, timeout=3600):
    t0 = time.monotonic()
    r = subprocess.run([str(a) for a in argv], cwd=cwd,
                       env=dict(os.environ, **(env or {})),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=timeout)
    r.secs = time.monotonic() - t0
    return r


def listing(d):
    return sorted(f for f in glob.glob(os.path.join(d, "*"))
                  if os.path.isfile(f))


def size_of(d):
    return sum(os.path.getsize(f) for f in listing(d))


def union_raw(dst, *srcs):
    """Copies the files of srcs into dst, one per distinct content."""
    fresh(dst)
    import hashlib
    for s in srcs:
        for f in listing(s):
            data = open(f, "rb").read()
            name = hashlib.sha1(data).hexdigest()
            with open(os.path.join(dst, name), "wb") as out:
                out.write(data)
    return len(listing(dst))


def roundtrip_raw(cgofuzz, d, tmp):
    """raw -> go -> raw for every file of d; returns (files, identical)."""
    files = listing(d)
    gdir, back = fresh(tmp + "-go"), fresh(tmp + "-back")
    same = 0
    for chunk in range(0, len(files), 500):
        part = files[chunk:chunk + 500]
        r = run([cgofuzz, "corpus", "convert", "-types", "[]byte", "-o", gdir]
                + part)
        assert r.returncode == 0, r.stderr[-2000:]
        outs = r.stdout.split()
        r = run([cgofuzz, "corpus", "convert", "-to", "raw", "-types",
                 "[]byte", "-o", back] + outs)
        assert r.returncode == 0, r.stderr[-2000:]
        for src, mid, dst in zip(part, outs, r.stdout.split()):
            same += open(src, "rb").read() == open(dst, "rb").read()
    return len(files), same


def roundtrip_go(cgofuzz, d, tmp):
    """go -> raw -> go for every file of d; (files, identical)."""
    files = listing(d)
    rdir, back = fresh(tmp + "-raw"), fresh(tmp + "-back")
    same = 0
    for chunk in range(0, len(files), 500):
        part = files[chunk:chunk + 500]
        r = run([cgofuzz, "corpus", "convert", "-to", "raw", "-types",
                 "[]byte", "-o", rdir] + part)
        assert r.returncode == 0, r.stderr[-2000:]
        raws = r.stdout.split()
        r = run([cgofuzz, "corpus", "convert", "-types", "[]byte", "-o", back]
                + raws)
        assert r.returncode == 0, r.stderr[-2000:]
        for src, dst in zip(part, r.stdout.split()):
            same += open(src, "rb").read() == open(dst, "rb").read()
    return len(files), same


def stats_summary(cgofuzz, d):
    r = run([cgofuzz, "corpus", "stats", d])
    keep = [l.strip() for l in r.stdout.splitlines()[1:]
            if re.match(r"  (files|bytes|types|duplicates|rejected)", l)]
    return "; ".join(keep)


def merge_row(label, r, outdir, edges_fn):
    e = edges_fn(outdir)
    return [label, len(listing(outdir)), size_of(outdir),
            "%.2f" % r.secs, e, "ok" if r.returncode == 0 else
            "rc %d" % r.returncode]


def bench_c(h, cgofuzz, bins, seconds, cfg):
    note("== %s: %d s cgofuzz + %d s libFuzzer" % (h, seconds, seconds))
    seeds = c_bench.SEEDS[h]
    cg = c_bench.run_cgofuzz(cfg, bins["cg"], "merge-%s-cg" % h, seconds,
                             seeds)
    lf = c_bench.run_libfuzzer(bins["lf"], "merge-%s-lf" % h, seconds, seeds)
    base = os.path.join(WORK, h)
    raw = os.path.join(base, "union")
    n = union_raw(raw, cg["corpus"], lf["corpus"])
    cov = bins["cov"]

    def edges(d):
        e, files, note = c_bench.count_edges(cov, d)
        return e if e is not None else note
    rows = [["union (input)", n, size_of(raw), "-", edges(raw), ""]]
    out = fresh(os.path.join(base, "cgofuzz-merge"))
    shutil.rmtree(out)
    r = run([cgofuzz, "corpus", "merge", "-to", "raw", "-o", out, bins["cg"],
             raw])
    if r.returncode:
        note(r.stderr[-3000:])
    info = "; ".join(l.split(": ", 1)[1] for l in r.stderr.splitlines()
                     if l.startswith("cgofuzz corpus merge: ") and
                     ("run (" in l or "coverage of" in l))
    rows.append(merge_row("cgofuzz corpus merge", r, out, edges))
    # The same on tmpfs, where fsync costs nothing: the tool fsyncs every
    # file it writes (cli_write_file_atomic), -merge=1 does not.
    if os.path.isdir("/dev/shm"):
        shm = os.path.join("/dev/shm", "cgofuzz-merge-bench-%s" % h)
        shutil.rmtree(shm, ignore_errors=True)
        r1 = run([cgofuzz, "corpus", "merge", "-to", "raw", "-o", shm,
                  bins["cg"], raw])
        rows.append(merge_row("  same, OUTDIR on tmpfs", r1, shm, edges))
        shutil.rmtree(shm, ignore_errors=True)
    out2 = fresh(os.path.join(base, "cg-lf-merge"))
    r2 = run([bins["cg"], "-merge=1", out2, raw])
    rows.append(merge_row("%s.cg -merge=1" % h, r2, out2, edges))
    out3 = fresh(os.path.join(base, "libfuzzer-merge"))
    r3 = run([bins["lf"], "-merge=1", out3, raw])
    rows.append(merge_row("libFuzzer %s.lf -merge=1" % h, r3, out3, edges))
    rt = roundtrip_raw(cgofuzz, raw, os.path.join(base, "rt"))
    st = stats_summary(cgofuzz, raw)
    return dict(rows=rows, info=info, rt=rt, stats=st, execs=(cg["execs"],
                lf["execs"]))


def go_cover(mod, files, label):
    """Statement coverage of encoding/json when go test replays files."""
    td = fresh(os.path.join(mod, "testdata", "fuzz", "FuzzJSON"))
    for f in files:
        shutil.copy(f, td)
    prof = os.path.join(mod, "cover-%s.out" % label)
    r = run([GO, "test", "-count=1", "-run=^FuzzJSON$",
             "-coverpkg=encoding/json", "-coverprofile=" + prof, "."], mod)
    m = re.search(r"coverage: ([\d.]+)% of statements", r.stdout)
    shutil.rmtree(td)
    if r.returncode != 0 or not m:
        return "go test failed: %s" % (r.stdout + r.stderr)[-300:]
    # The covered statements, for an exact comparison of the two sets.
    covered = set()
    for line in open(prof).read().splitlines()[1:]:
        pos, nstmt, count = line.rsplit(" ", 2)
        if int(count) > 0:
            covered.add(pos)
    return m.group(1) + "%", covered


def bench_go(cgofuzz, seconds):
    note("== encoding/json (Go): %d s cgofuzz fuzz" % seconds)
    base = fresh(os.path.join(WORK, "gojson"))
    mod = os.path.join(base, "mod")
    os.makedirs(mod)
    with open(os.path.join(mod, "go.mod"), "w") as f:
        f.write("module example.com/jsonfuzz\n\ngo 1.18\n")
    with open(os.path.join(mod, "json_test.go"), "w") as f:
        f.write(JSON_TEST)
    binary = os.path.join(base, "json.test")
    r = run([GO, "test", "-c", "-fuzz=.", "-o", binary, "."], mod)
    assert r.returncode == 0, r.stderr
    cache = os.path.join(base, "cache")
    r = run([cgofuzz, "fuzz", "-fuzz=^FuzzJSON$", "-fuzztime=%ds" % seconds,
             "-parallel=1", "-fuzzcachedir=" + cache, binary], mod,
            timeout=seconds + 600)
    fuzz_tail = (r.stdout + r.stderr).strip().splitlines()[-2:]
    corpus = os.path.join(cache, "FuzzJSON")
    files = listing(corpus)
    out = os.path.join(base, "merged")
    r = run([cgofuzz, "corpus", "merge", "-o", out, binary, "-fuzz",
             "FuzzJSON", corpus], mod)
    if r.returncode:
        note(r.stderr[-3000:])
    info = "; ".join(l.split(": ", 1)[1] for l in r.stderr.splitlines()
                     if l.startswith("cgofuzz corpus merge: ") and
                     ("run (" in l or "coverage of" in l))
    # cgofuzz's counters of the merged set alone (a second merge).
    r2 = run([cgofuzz, "corpus", "merge", "-o", os.path.join(base, "again"),
              binary, out], mod)
    again = re.search(r"coverage of the merged set: (\d+) features, (\d+) "
                      r"edges", r2.stderr)
    u = go_cover(mod, files, "union")
    m = go_cover(mod, listing(out), "merged")
    rt = roundtrip_go(cgofuzz, corpus, os.path.join(base, "rt"))
    return dict(n=len(files), bytes=size_of(corpus), merged=len(listing(out)),
                mbytes=size_of(out), secs=r.secs, info=info,
                again=again.groups() if again else None, union_cov=u,
                merged_cov=m, rt=rt, stats=stats_summary(cgofuzz, corpus),
                fuzz_tail=fuzz_tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the cgofuzz build whose bin/cgofuzz runs merges")
    a = ap.parse_args()
    cgofuzz = os.path.join(os.path.abspath(a.build), "bin", "cgofuzz")
    os.makedirs(c_bench.RUNS, exist_ok=True)
    bins = {}
    for h in TARGETS:
        for fl in ("cg", "lf", "cov"):
            p = os.path.join(c_bench.BIN, "%s.%s" % (h, fl))
            if not os.path.exists(p):
                libs = c_bench.build_cgofuzz(a.build, False)
                built = c_bench.build_all(["cg", "lf", "cov"], [h], libs, 2,
                                          [])
                p = built[(fl, h)]
            # A private copy: c_bench may relink its own meanwhile.
            mine = os.path.join(WORK, "bin", os.path.basename(p))
            os.makedirs(os.path.dirname(mine), exist_ok=True)
            shutil.copy2(p, mine)
            bins.setdefault(h, {})[fl] = mine
    cfg = {"self": c_bench.self_coordinates(bins[TARGETS[0]]["cg"])}
    if not cfg["self"]:
        cfg["gocoord"] = c_bench.build_go_coordinator()
    res = {h: bench_c(h, cgofuzz, bins[h], a.seconds, cfg) for h in TARGETS}
    go = bench_go(cgofuzz, a.seconds)

    print("# bench/c/merge_bench.py: corpus merge, %d s corpora (%s)" % (
        a.seconds, time.strftime("%Y-%m-%d")))
    print("# edges: the input's files replayed through the coverage build "
          "(bench/c/covdrive.c)\n")
    for h in TARGETS:
        r = res[h]
        print("## %s (corpus: cgofuzz %d execs + libFuzzer %d execs)" % (
            h, r["execs"][0], r["execs"][1]))
        table(["merge", "files", "bytes", "seconds", "edges", ""],
                      r["rows"])
        union_edges, n_in = r["rows"][0][4], r["rows"][0][1]
        for row in r["rows"][1:]:
            ours = not row[0].startswith("libFuzzer")
            verdict = ("PASS" if row[4] == union_edges and row[1] < n_in
                       else "FAIL") if ours else "(reference)"
            print("%-36s keeps %s of the union's %s edges with %s of %s "
                  "files: %s" % (row[0].strip(), row[4], union_edges, row[1],
                                 n_in, verdict))
        print("cgofuzz merge: %s" % r["info"])
        print("convert raw -> go -> raw: %d of %d files identical: %s" % (
            r["rt"][1], r["rt"][0], "PASS" if r["rt"][0] == r["rt"][1]
            else "FAIL"))
        print("stats: %s\n" % r["stats"])
    g = go
    print("## encoding/json, Go (corpus: %d s cgofuzz fuzz: %s)" % (
        a.seconds, " / ".join(g["fuzz_tail"])))
    rows = [["union (input)", g["n"], g["bytes"], "-",
             g["union_cov"][0] if isinstance(g["union_cov"], tuple)
             else g["union_cov"]],
            ["cgofuzz corpus merge", g["merged"], g["mbytes"],
             "%.2f" % g["secs"],
             g["merged_cov"][0] if isinstance(g["merged_cov"], tuple)
             else g["merged_cov"]]]
    table(["merge", "files", "bytes", "seconds",
                   "go test -cover (encoding/json)"], rows)
    if isinstance(g["union_cov"], tuple) and \
            isinstance(g["merged_cov"], tuple):
        lost = g["union_cov"][1] - g["merged_cov"][1]
        print("statement blocks covered: union %d, merged %d, lost %d: %s" % (
            len(g["union_cov"][1]), len(g["merged_cov"][1]), len(lost),
            "PASS" if not lost and g["merged"] < g["n"] else "FAIL"))
    print("cgofuzz merge: %s" % g["info"])
    if g["again"]:
        print("merged set alone, merged again: %s features, %s edges "
              "(cgofuzz's counters)" % g["again"])
    print("convert go -> raw -> go: %d of %d files identical: %s" % (
        g["rt"][1], g["rt"][0], "PASS" if g["rt"][0] == g["rt"][1]
        else "FAIL"))
    print("stats: %s" % g["stats"])
    print()
    print("Notes: the cgofuzz corpus merge rows include discovery of the "
          "target and one fsync per file written (the tmpfs row shows the "
          "cost without it); the .cg -merge=1 rows run the same merge code "
          "without either. libFuzzer -merge=1 has no Go counterpart here (a "
          "Go test binary has no libFuzzer build). cgofuzz's feature counts "
          "of a Go target vary a little between runs (one-time "
          "initialization is counted for whichever input runs first in a "
          "worker, map order varies), so the Go check is go test -cover's "
          "covered statement blocks, union vs merged.")


if __name__ == "__main__":
    main()

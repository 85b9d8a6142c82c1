#!/usr/bin/env python3
"""How fast zstd's big compressed blocks spread through a corpus.

A round of bench/cgo/cgo_bench.py on DataDog/zstd is decided by one event
(docs/cgo.md, "The cgo loop"): once a current-format frame with a whole
compressed block of 100 bytes or more is in the corpus, libFuzzer's corpus
fills with hundreds of them and then reaches the double-symbol Huffman
decoder; cgofuzz's did not. This starts each engine from a corpus of one
such frame (FRAME: the first big block of libFuzzer's round 133, found at
27 s) and counts, after --seconds, the corpus's big blocks
(zstd_shapes.py's big_block), side by side: two cgofuzz trees (as
bench/cgo/cgo_ab.py: each tree's cgo-cc builds its own test binary, each
side one worker and one core), or with --libfuzzer one tree beside
libFuzzer on the same C (cgo_bench.py's harness and command line, the
frame with the module's two seeds).

  bench/cgo/zstd_spread.py --a TREE [--b TREE | --libfuzzer] [--runs 5]
      [--seconds 120] [--a-env K=V ...] [--b-env K=V ...] [--json out]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cgo_ab  # noqa: E402
import cgo_bench  # noqa: E402
import zstd_shapes  # noqa: E402

FRAME = bytes.fromhex(
    "28b52ffd6000009d0300412020a80000000000000095235500202f2b8233828282"
    "8282828282828282828285828226b52ffd0082828282828282000f8282000010cf"
    "8031fdc3c3c337c3827882828282828282828282828282e1828282828282828282"
    "82828282828282828282823c25b5c32fc3fd82824f6064d00160")


def big_blocks(d):
    return zstd_shapes.shapes(zstd_shapes.inputs(d))["big_block"]


def cgofuzz_side(tree, binary, work, seconds, env):
    """Starts one cgofuzz run from the frame; (process, corpus dir)."""
    corpus = os.path.join(work, "cache", "FuzzModule")
    os.makedirs(corpus)
    with open(os.path.join(corpus, "bigblock"), "w") as f:
        f.write('go test fuzz v1\n[]byte("%s")\n' %
                "".join("\\x%02x" % c for c in FRAME))
    return cgo_ab.start_cgofuzz(tree, binary, work, seconds, env), corpus


def libfuzzer_side(b, work, seconds):
    """Starts libFuzzer as cgo_bench.py runs it, its corpus the frame (the
    module's seeds beside it); (process, corpus dir)."""
    argv, cwd = cgo_bench.engine_cmd("libfuzzer", b, work, seconds)
    corpus = os.path.join(work, "corpus")
    with open(os.path.join(corpus, "bigblock"), "wb") as f:
        f.write(FRAME)
    with open(os.path.join(work, "log"), "w") as log:
        return subprocess.Popen(argv, cwd=cwd, stdout=log,
                                stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL), corpus


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="a built cgofuzz tree")
    ap.add_argument("--b", help="another one")
    ap.add_argument("--libfuzzer", action="store_true",
                    help="libFuzzer as side b")
    ap.add_argument("--seconds", type=int, default=120)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--a-env", nargs="*", default=[], metavar="K=V")
    ap.add_argument("--b-env", nargs="*", default=[], metavar="K=V")
    a = ap.parse_args()
    if bool(a.b) == a.libfuzzer:
        ap.error("give --b TREE or --libfuzzer")
    envs = cgo_ab.side_envs(a)
    b = cgo_bench.prepare("zstd", cgo_bench.MODULES["zstd"])
    d = os.path.abspath(os.path.join(cgo_bench.CACHE, "zstd"))
    trees = {"a": a.a} if a.libfuzzer else {"a": a.a, "b": a.b}
    bins = {k: cgo_ab.test_binary(t, d, "spread-" + k)
            for k, t in trees.items()}
    rows = []
    for r in range(a.runs):
        sides = {}
        for k in ("a", "b"):
            work = os.path.join(d, "spread", "%s%d" % (k, r))
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            if k in trees:
                sides[k] = cgofuzz_side(trees[k], bins[k], work, a.seconds,
                                        envs[k])
            else:
                sides[k] = libfuzzer_side(b, work, a.seconds)
        row = {}
        for k, (p, corpus) in sides.items():
            p.wait()
            row[k] = big_blocks(corpus)
        rows.append(row)
        print("run %d: big blocks a %d, b %d" % (
            r + 1, rows[-1]["a"], rows[-1]["b"]), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"seconds": a.seconds, "a": a.a,
                       "b": "libfuzzer" if a.libfuzzer else a.b,
                       "a_env": a.a_env, "b_env": a.b_env, "runs": rows},
                      f, indent=1)


if __name__ == "__main__":
    main()

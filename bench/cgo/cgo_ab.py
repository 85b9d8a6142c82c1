#!/usr/bin/env python3
"""Two builds of cgofuzz side by side on one module of bench/cgo/cgo_bench.py.

Each build is a cgofuzz source tree built in its build/ directory (for
instance a `git worktree` of an older commit); its own cgo-cc compiles the
module's fuzz test (cgo_bench.py's package, its cache dir) into a test
binary of its own, so each side runs its own coordinator and its own cgo
loop. The two run at once, one worker each, for --seconds; each corpus is
counted by cgo_bench.py's coverage build, as its rounds are. Seeds are not
pinned (as in cgo_bench.py's rounds).

  bench/cgo/cgo_ab.py --module zstd --a OLD_TREE --b NEW_TREE [--runs 2]
      [--seconds 600] [--json out.json] [--a-env K=V ...] [--b-env K=V ...]

The same tree on both sides with different --a-env/--b-env compares
settings (for instance CGOFUZZ_CGO_LOOP, the cgo loop's mutants per call).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cgo_bench  # noqa: E402


def test_binary(tree, d, tag):
    """The module's fuzz test compiled by tree's cgo-cc (again on every
    run of this script: the tree may have changed since the last)."""
    out = os.path.join(d, "ab-%s.test" % tag)
    env = dict(cgo_bench.go_env(), GOFLAGS="-mod=mod",
               CC=os.path.join(tree, "build", "bin", "cgofuzz-cgo-cc"))
    r = subprocess.run(["go", "test", "-c", "-fuzz=.", "-o", out, "."],
                       cwd=d, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: go test -c: %s" % (tree, r.stderr[-2000:]))
    return out


def side_envs(a):
    """The environment of each side's cgofuzz: ours with --a-env/--b-env."""
    return {k: dict(os.environ, **dict(kv.split("=", 1) for kv in v))
            for k, v in (("a", a.a_env), ("b", a.b_env))}


def start_cgofuzz(tree, binary, work, seconds, env):
    """tree's cgofuzz fuzzing binary for seconds with one worker, its
    cache under work; the process (its output in work/log)."""
    with open(os.path.join(work, "log"), "w") as log:
        return subprocess.Popen(
            [os.path.join(tree, "build", "bin", "cgofuzz"), "fuzz",
             "-fuzz=^FuzzModule$", "-fuzztime=%ds" % seconds, "-parallel=1",
             "-fuzzcachedir=" + os.path.join(work, "cache"), binary],
            cwd=work, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", default="zstd")
    ap.add_argument("--a", required=True, help="a built cgofuzz tree")
    ap.add_argument("--b", required=True, help="another one")
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--a-env", nargs="*", default=[], metavar="K=V",
                    help="environment of side a's cgofuzz fuzz")
    ap.add_argument("--b-env", nargs="*", default=[], metavar="K=V",
                    help="environment of side b's")
    a = ap.parse_args()
    envs = side_envs(a)
    b = cgo_bench.prepare(a.module, cgo_bench.MODULES[a.module])
    d = os.path.join(cgo_bench.CACHE, a.module)
    sides = {"a": a.a, "b": a.b}
    bins = {k: test_binary(t, d, k) for k, t in sides.items()}
    rows = []
    for r in range(a.runs):
        procs = {}
        for k, tree in sides.items():
            work = os.path.join(d, "ab", "%s%d" % (k, r))
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            procs[k] = (work, start_cgofuzz(tree, bins[k], work, a.seconds,
                                            envs[k]))
        row = {}
        for k, (work, p) in procs.items():
            p.wait()
            row[k] = cgo_bench.c_edges(b, cgo_bench.raw_inputs(
                "cgofuzz", work, b))[0]
        print("run %d: a %d C edges, b %d" % (r + 1, row["a"], row["b"]),
              flush=True)
        rows.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"module": a.module, "seconds": a.seconds,
                       "a": a.a, "b": a.b, "a_env": a.a_env,
                       "b_env": a.b_env, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""-focus=REV against no -focus: execs to a bug in changed code.

tests/coord/focus/gopkg is committed to a fresh git repository, then its
Check is rewritten the way a pull request would (a shape below, with a
bug in it); the test binary is built once and `cgofuzz fuzz` runs it with
-focus=HEAD and without, alternating, for each pinned GODEBUG=fuzzseed,
one worker, up to --cap execs; the figure is the exec count of the run's
last progress line when it stopped at the failure (a miss counts as the
cap). Shapes:

  magic  Check's new code: a 4-byte magic compared byte by byte, reached by
         every input (the changed function's first block runs for all);
  deep   Check's new code runs only for inputs that start with '#', and
         fails for at least three '#' and a final '!': a few entries reach
         it, the old code (Score) keeps adding others.

Writes a markdown table (--out). Python 3 stdlib; needs go, git and a
built cgofuzz (build/bin/cgofuzz, or --cgofuzz).

Usage: bench/coord/focus_ab.py [--seeds 8] [--cap 3000000] [--shapes a,b]
       [--out FILE]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import emit  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
PKG = os.path.join(ROOT, "tests", "coord", "focus", "gopkg")
SHAPES = {
    "magic": '''package focus

func Check(b []byte) bool {
	if len(b) >= 4 && b[0] == 'F' && b[1] == 'O' && b[2] == 'C' && b[3] == 'S' {
		panic("focus: the changed code's bug")
	}
	return len(b) > 0
}
''',
    "deep": '''package focus

func Check(b []byte) bool {
	if len(b) < 6 || b[0] != '#' {
		return false
	}
	n := 0
	for _, c := range b[1:] {
		if c == '#' {
			n++
		}
	}
	if n >= 3 && b[len(b)-1] == '!' {
		panic("focus: the changed code's bug")
	}
	return true
}
''',
}


def sh(cmd, cwd, env=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s: %s" % (" ".join(cmd), r.stderr[-2000:]))
    return r


def prepare(work, shape):
    d = os.path.join(work, shape)
    shutil.copytree(PKG, d)
    git = ["git", "-c", "user.email=b@example.com", "-c", "user.name=b",
           "-c", "commit.gpgsign=false"]
    sh(git + ["init", "-q"], d)
    sh(git + ["add", "-A"], d)
    sh(git + ["commit", "-q", "-m", "base"], d)
    with open(os.path.join(d, "check.go"), "w") as f:
        f.write(SHAPES[shape])
    sh(["go", "test", "-c", "-fuzz=.", "-o", "p.test", "."], d)
    return d


def one(cgofuzz, d, seed, focus, cap):
    for sub in ("cache", "testdata"):
        shutil.rmtree(os.path.join(d, sub), ignore_errors=True)
    env = dict(os.environ, GODEBUG="fuzzseed=%d" % seed)
    cmd = [cgofuzz, "fuzz", "-fuzz=^FuzzRecord$", "-parallel=1",
           "-fuzztime=%dx" % cap, "-fuzzcachedir=" + os.path.join(d, "cache")]
    if focus:
        cmd.append("-focus=HEAD")
    r = subprocess.run(cmd + ["./p.test"], cwd=d, env=env,
                       capture_output=True, text=True)
    execs = [int(x) for x in re.findall(r"execs: (\d+)", r.stderr)]
    found = r.returncode == 1 and "the changed code's bug" in r.stdout
    return (execs[-1] if execs else cap) if found else cap, found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--cap", type=int, default=3000000)
    ap.add_argument("--shapes", default="magic,deep")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--out")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="focus-ab-")
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True).stdout.strip()
    lines = ["# -focus=HEAD against no -focus: execs to the bug in changed "
             "code", "",
             "- `bench/coord/focus_ab.py --seeds %d --cap %d --shapes %s` at "
             "%s; one worker, GODEBUG=fuzzseed=1..%d, the two alternating; a "
             "miss counts as the cap" % (a.seeds, a.cap, a.shapes, rev,
                                         a.seeds), "",
             "| shape | without -focus: median execs (found) | -focus=HEAD "
             "| without / with | each seed, without / with |",
             "|---|---|---|---|---|"]
    for shape in a.shapes.split(","):
        d = prepare(work, shape)
        res = {False: [], True: []}
        hits = {False: 0, True: 0}
        for seed in range(1, a.seeds + 1):
            for focus in (False, True) if seed % 2 else (True, False):
                n, found = one(a.cgofuzz, d, seed, focus, a.cap)
                res[focus].append(n)
                hits[focus] += found
                print(shape, seed, "focus" if focus else "plain", n, found,
                      flush=True)
        m0, m1 = statistics.median(res[False]), statistics.median(res[True])
        lines.append("| %s | %d (%d/%d) | %d (%d/%d) | %.2fx | %s |" % (
            shape, m0, hits[False], a.seeds, m1, hits[True], a.seeds,
            m0 / m1 if m1 else 0,
            ", ".join("%d/%d" % (x, y) for x, y in zip(res[False],
                                                       res[True]))))
    shutil.rmtree(work, ignore_errors=True)
    emit(lines, a.out)


if __name__ == "__main__":
    main()

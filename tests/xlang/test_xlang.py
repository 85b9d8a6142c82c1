#!/usr/bin/env python3
"""Tests of xlang/run.py on examples/xlang/unescape (see CMakeLists.txt)."""
import argparse
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish  # noqa: E402  (tests/checks.py)



def runner(a, extra, env=None, timeout=90):
    cmd = [sys.executable, a.runner, "--go", a.go, "--go-pkg", a.gopkg,
           "--c-bin", a.cbin] + extra
    e = dict(os.environ)
    e.pop("XLANG_C_BUG", None)
    e.update(env or {})
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout, env=e)
    out = p.stdout.decode("utf-8", "replace")
    print(out)
    return p.returncode, out


def row(out, entry):
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells and cells[0] == entry:
            return cells
    return None


def main():
    ap = argparse.ArgumentParser()
    for o in ("runner", "go", "gopkg", "cbin", "source", "build", "workdir"):
        ap.add_argument("--" + o, required=True)
    a = ap.parse_args()
    corpus = os.path.join(a.gopkg, "testdata", "fuzz", "FuzzUnescape")
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)

    # 1. The shared corpus: every entry passes in both, results agree.
    rc, out = runner(a, ["--corpus", corpus])
    check("shared corpus: exit 0", rc == 0)
    n = len(os.listdir(corpus))
    check("shared corpus: %d files + seed#0 in the table" % n,
          ("%d entries, 0 with" % (n + 1)) in out)
    r = row(out, "lower_hex")
    check("lower_hex row: PASS | PASS | ok",
          r is not None and r[1:4] == ["PASS", "PASS", "ok"] and
          r[4] == "ok [2f2fc3a9]")

    # 2. The ctest lane: the example built as a project using the CMake
    # package, its corpus registered by cgofuzz_add_fuzz_target.
    xb = os.path.join(a.workdir, "cmake")
    p = subprocess.run(
        ["cmake", "-S", a.gopkg, "-B", xb, "-DCMAKE_C_COMPILER=clang",
         "-Dcgofuzz_DIR=" + os.path.join(a.source, "cmake"),
         "-DCGOFUZZ_BUILD_DIR=" + a.build], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, timeout=60)
    if p.returncode == 0:
        p = subprocess.run(["cmake", "--build", xb], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60)
    check("example CMake project configures and builds", p.returncode == 0)
    if p.returncode == 0:
        rc, out = runner(a, ["--corpus", corpus, "--ctest-dir", xb,
                             "--ctest-name", "fuzz_unescape"])
        check("with ctest: exit 0", rc == 0)
        r = row(out, "pct_literal")
        check("with ctest: pct_literal PASS in go, c and ctest",
              r is not None and r[1:5] == ["PASS"] * 3 + ["ok"])
    else:
        print(p.stdout.decode("utf-8", "replace"))

    # 3. A temporary copy with one more entry; the C side with a planted
    # bug that makes its own check fail there: C fails, Go passes.
    tmp = os.path.join(a.workdir, "FuzzUnescape")
    shutil.copytree(corpus, tmp)
    with open(os.path.join(tmp, "only_pct"), "w") as f:
        f.write('go test fuzz v1\nstring("%25")\nbool(true)\n')
    rc, out = runner(a, ["--corpus", tmp], {"XLANG_C_BUG": "2"})
    check("planted C failure: exit 1", rc == 1)
    r = row(out, "only_pct")
    check("only_pct row: go PASS, c FAIL, DIFF",
          r is not None and r[1:4] == ["PASS", "FAIL", "DIFF"])
    check("the C failure message is shown",
          "c FuzzUnescape/only_pct:" in out and "round trip" in out)
    r = row(out, "plain")
    check("unaffected entries stay ok", r is not None and r[3] == "ok")

    # 4. A silent disagreement: both pass, the logged results differ.
    rc, out = runner(a, ["--corpus", tmp], {"XLANG_C_BUG": "1"})
    check("planted disagreement: exit 1", rc == 1)
    r = row(out, "lower_hex")
    check("lower_hex row: both PASS, DIFF, both results shown",
          r is not None and r[1:4] == ["PASS", "PASS", "DIFF"] and
          r[4] == "go: ok [2f2fc3a9] / c: err 0")

    # 5. The C target under go test (gofuzz.FuzzC) as a third column: it
    # agrees with both on the shared corpus, and with the C binary (not Go)
    # when the C code has the planted disagreement.
    cpkg = os.path.join(a.source, "examples", "go", "cunescape")
    rc, out = runner(a, ["--corpus", corpus, "--go-c-pkg", cpkg],
                     timeout=300)
    check("with gofuzz: exit 0", rc == 0)
    r = row(out, "lower_hex")
    check("with gofuzz: lower_hex PASS in go, c and gofuzz",
          r is not None and r[1:5] == ["PASS"] * 3 + ["ok"])
    rc, out = runner(a, ["--corpus", tmp, "--go-c-pkg", cpkg],
                     {"XLANG_C_BUG": "1"}, timeout=300)
    r = row(out, "lower_hex")
    check("planted disagreement: gofuzz reports what the C binary does",
          rc == 1 and r is not None and r[4] == "DIFF" and
          r[5] == "go: ok [2f2fc3a9] / c: err 0 / gofuzz: err 0")

    return finish()


if __name__ == "__main__":
    sys.exit(main())

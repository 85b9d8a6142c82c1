"""cgofuzz installed like a tool: `cmake --install BUILD --prefix DIR`.

The build is installed once into a temporary prefix, which is then moved
(copied to a new path, the original removed), so nothing may depend on
where it was installed. Every command runs from the moved prefix (its bin/
first on PATH, the build's CGOFUZZ_* variables removed) with the source and
build trees out of reach: in a private mount namespace (`unshare -rm`) each
gets an empty tmpfs mounted over it, so other suites, which share the build
tree, see no change. Without user namespaces the commands run with the
trees in place and test_trees_hidden skips, saying so.

From the prefix: the README's main job (cgofuzz fuzz on examples/goparse,
the failing input written to testdata and reproduced by plain go test) and
the same with `go test -fuzz -exec=cgofuzz`, a C
target built with `cgofuzz cc` and fuzzed, find_package(cgofuzz) with
cgofuzz_add_fuzz_target from a tiny CMake project, `cgofuzz cover` on the C
target, `cgofuzz plot`, `cgofuzz compile-go-fuzzer` and its launcher, and
the Debian package of `cpack -G DEB`. A missing go, clang, llvm-14, python
module, unshare or dpkg-deb is a visible skip.
"""
import os
import re
import shutil
import subprocess
import uuid

import pytest

import testlib

# The layout `cmake --install` must produce (CMakeLists.txt).
LAYOUT = [
    "bin/cgofuzz",
    "lib/cgofuzz/libcgofuzz.a",
    "lib/cgofuzz/libcgofuzz_main.a",
    "lib/cgofuzz/libcgofuzz_interceptors.a",
    "include/cgofuzz/target.h",
    "include/cgofuzz/value.h",
    "lib/cmake/cgofuzz/cgofuzzConfig.cmake",
    "lib/cmake/cgofuzz/cgofuzzConfigVersion.cmake",
    "share/cgofuzz/report/cover.py",
    "share/cgofuzz/report/plot.py",
    "share/cgofuzz/report/deps.py",
    "share/cgofuzz/report/report.html.j2",
]

# Enough execs for each planted bug with the pinned fuzzseed (the runs end
# at the first failure; the goparse bug takes a few thousand).
FIND_BUDGET = "-fuzztime=1000000x"

# A C target with a planted bug behind three byte compares.
C_TARGET = r"""#include <stddef.h>
#include "cgofuzz/target.h"

static void seeds(cgofuzz_f *f) { cgofuzz_add(f, "hello", (size_t)5); }
static void fuzz(cgofuzz_t *t, const cgofuzz_value *v) {
  const unsigned char *p = v[0].s.data;
  size_t n = v[0].s.len;
  if (n >= 3 && p[0] == 'B')
    if (p[1] == 'U')
      if (p[2] == 'G')
        cgofuzz_fatalf(t, "planted bug in FuzzBug");
}
CGOFUZZ_TARGET(FuzzBug, seeds, fuzz, CGOFUZZ_BYTES)
"""

CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.16)
project(uses_cgofuzz C)
enable_testing()
find_package(cgofuzz 0.1 REQUIRED)
cgofuzz_add_fuzz_target(bug_fuzz bug.c)
"""

STATS = ("elapsed_s,target,execs,execs_per_s,coverage,corpus,new_inputs,"
         "failures\n"
         "0.000,FuzzA,0,0.0,10,2,0,0\n"
         "3.001,FuzzA,30000,10000.0,40,5,3,0\n"
         "6.000,FuzzA,61000,10333.3,55,7,5,1\n")


def outside(path, trees):
    real = os.path.realpath(path)
    return all(real != t and not real.startswith(t + os.sep) for t in trees)


class Installed:
    """The moved prefix and how to run commands from it."""

    def __init__(self, root, trees, hide):
        self.root, self.trees, self.hide = root, trees, hide
        self.bin = os.path.join(root, "bin", "cgofuzz")

    def env(self, extra=None):
        """Changes to os.environ: the build's CGOFUZZ_* removed, the
        prefix's bin/ first on PATH."""
        e = {k: None for k in os.environ if k.startswith("CGOFUZZ_")}
        e["PATH"] = os.path.join(self.root, "bin") + os.pathsep + \
            os.environ.get("PATH", "")
        e.update(extra or {})
        return e

    def wrap(self, cmd):
        if not self.hide:
            return list(cmd)
        script = ('while [ "$1" != -- ]; do mount -t tmpfs cgofuzz-hidden '
                  '"$1" || exit 125; shift; done; shift; exec "$@"')
        return ["unshare", "-rm", "sh", "-c", script, "sh"] + \
            self.trees + ["--"] + list(cmd)

    def run(self, cmd, cwd, env=None, timeout=testlib.HANG_GUARD):
        return testlib.run(self.wrap(cmd), cwd=cwd, env=self.env(env),
                           timeout=timeout)


def hidden_trees():
    """The source and build trees, outermost only (a build directory inside
    the source tree is hidden with it)."""
    dirs = sorted({os.path.realpath(os.environ[k]) for k in
                   ("CGOFUZZ_SOURCE_DIR", "CGOFUZZ_BINARY_DIR")
                   if os.environ.get(k)})
    out = []
    for d in dirs:
        if outside(d, out):
            out.append(d)
    return out


@pytest.fixture(scope="session")
def installed(build_dir, tmp_path_factory):
    trees = hidden_trees()
    base = tmp_path_factory.mktemp("install")
    assert outside(str(base), trees), \
        "the temporary directory %s is inside the source or build tree" % base
    stage = str(base / "stage")
    r = testlib.run(["cmake", "--install", build_dir, "--prefix", stage])
    assert r.rc == 0, "cmake --install failed\n%s" % r
    moved = str(base / "moved" / "cgofuzz-prefix")
    shutil.copytree(stage, moved, symlinks=True)
    shutil.rmtree(stage)
    hide = False
    if shutil.which("unshare"):
        probe = Installed(moved, trees, True)
        r = probe.run(["sh", "-c", "ls -A \"$0\"", trees[0]], cwd=str(base))
        hide = r.rc == 0 and r.stdout.strip() == ""
    return Installed(moved, trees, hide)


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def clang(tool):
    return tool("clang")


# -- the install tree -----------------------------------------------------------

def test_layout(installed):
    for rel in LAYOUT:
        assert os.path.isfile(os.path.join(installed.root, rel)), rel
    assert os.access(installed.bin, os.X_OK)


def test_text_files_do_not_name_the_trees(installed):
    """No installed text file (CMake package, report tools, headers) names
    the source or build tree: the tree works wherever it is moved."""
    for dirpath, _, files in os.walk(installed.root):
        for f in files:
            path = os.path.join(dirpath, f)
            if f.endswith((".cmake", ".py", ".j2", ".h")):
                text = testlib.read(path)
                for t in installed.trees:
                    assert t not in text, "%s names %s" % (path, t)


def test_trees_hidden(installed, tmp_path):
    """The commands of this suite run with the source and build trees
    hidden (or this case skips, saying why)."""
    if not installed.hide:
        pytest.skip("unshare -rm (user and mount namespaces) is not "
                    "available: the suite ran with the build tree in place")
    for t in installed.trees:
        r = installed.run(["sh", "-c", "ls -A \"$0\"", t], cwd=str(tmp_path))
        assert r.rc == 0 and r.stdout == "", r
    r = installed.run(["cgofuzz", "version"], cwd=str(tmp_path))
    assert r.rc == 0 and r.stdout.startswith("cgofuzz "), r


# -- the README's main job -------------------------------------------------------

def test_go_demo(installed, go, source_dir, tmp_path):
    """cgofuzz fuzz on a copy of examples/goparse finds the planted bug,
    writes it to testdata/fuzz/FuzzParseRecord, and plain go test
    reproduces it."""
    pkg = str(tmp_path / "goparse")
    shutil.copytree(os.path.join(source_dir, "examples", "goparse"), pkg)
    r = installed.run([go, "test", "-c", "-fuzz=.", "-o", "x.test", "."], pkg)
    assert r.rc == 0, r
    r = installed.run(["cgofuzz", "fuzz", "-fuzz=FuzzParseRecord",
                       FIND_BUDGET, "-parallel", "2",
                       "-fuzzcachedir=" + str(tmp_path / "cache"),
                       "./x.test"], pkg,
                      env=testlib.fuzz_env(TMPDIR=str(tmp_path)))
    assert r.rc == 1, r
    assert "index out of range" in r.stdout, r
    m = re.search(r"Failing input written to "
                  r"testdata/fuzz/FuzzParseRecord/(\w+)", r.stdout)
    assert m, r
    name = m.group(1)
    assert os.path.isfile(os.path.join(pkg, "testdata", "fuzz",
                                       "FuzzParseRecord", name))
    assert "go test -run=FuzzParseRecord/%s" % name in r.stdout, r
    rr = installed.run([go, "test", "-timeout=60s",
                        "-run=FuzzParseRecord/" + name, "."], pkg)
    assert rr.rc == 1 and "index out of range" in rr.out, rr


def test_go_test_exec(installed, go, source_dir, tmp_path):
    """go test -fuzz -exec=cgofuzz, cgofuzz found on PATH in the prefix,
    finds the planted bug, writes it, and plain go test reproduces it. The
    copy gets a module path of its own, so that go test's fuzz cache
    ($GOCACHE/fuzz/<import path>) is not shared with other suites."""
    pkg = str(tmp_path / "goparse")
    shutil.copytree(os.path.join(source_dir, "examples", "goparse"), pkg)
    mod = "example.com/install%s" % uuid.uuid4().hex[:12]
    for f in os.listdir(pkg):
        p = os.path.join(pkg, f)
        testlib.write(p, testlib.read(p).replace("example.com/goparse", mod))
    env = testlib.fuzz_env(TMPDIR=str(tmp_path), GOFLAGS=None)
    r = installed.run([go, "test", "-exec=cgofuzz", "-fuzz=FuzzParseRecord",
                       FIND_BUDGET, "-parallel=2", "."], pkg, env=env)
    assert r.rc == 1 and "index out of range" in r.stdout, r
    m = re.search(r"Failing input written to "
                  r"testdata/fuzz/FuzzParseRecord/(\w+)", r.stdout)
    assert m, r
    rr = installed.run([go, "test", "-timeout=60s",
                        "-run=FuzzParseRecord/" + m.group(1), "."], pkg,
                       env={"GOFLAGS": None})
    assert rr.rc == 1 and "index out of range" in rr.out, rr


# -- C targets: cgofuzz cc and find_package(cgofuzz) -----------------------------

def test_cc_target(installed, clang, tmp_path, sanitized):
    """`cgofuzz cc` from the prefix builds a C target that runs its seeds
    like a test binary and, fuzzed by `cgofuzz fuzz`, finds its bug."""
    d = str(tmp_path)
    testlib.write(os.path.join(d, "bug.c"), C_TARGET)
    cmd = ["cgofuzz", "cc", "-g", "-O1", "bug.c", "-o", "bug.test"]
    if sanitized:  # the installed runtime is an ASan+UBSan build
        cmd.insert(2, "-fsanitize=address,undefined")
    r = installed.run(cmd, d, env={"CGOFUZZ_CLANG": clang})
    assert r.rc == 0, r
    r = installed.run(["./bug.test", "-test.v"], d)
    assert r.rc == 0 and "PASS" in r.stdout, r
    r = installed.run(["cgofuzz", "fuzz", "-fuzz=FuzzBug", FIND_BUDGET,
                       "-parallel", "2", "-fuzzcachedir=" + d + "/cache",
                       "./bug.test"], d, env=testlib.fuzz_env(TMPDIR=d))
    assert r.rc == 1 and "planted bug in FuzzBug" in r.stdout, r
    assert testlib.failing_input(r.stdout, "FuzzBug"), r


def test_find_package(installed, clang, tmp_path, tool, sanitized):
    """A CMake project finds the installed package with
    -DCMAKE_PREFIX_PATH, builds a target with cgofuzz_add_fuzz_target, and
    its ctest runs the seeds."""
    src, bld = tmp_path / "src", tmp_path / "build"
    os.makedirs(src)
    testlib.write(src / "bug.c", C_TARGET)
    testlib.write(src / "CMakeLists.txt", CMAKE_PROJECT)
    cfg = ["cmake", "-S", str(src), "-B", str(bld),
           "-DCMAKE_PREFIX_PATH=" + installed.root,
           "-DCMAKE_C_COMPILER=" + clang]
    if shutil.which("ninja"):
        cfg += ["-G", "Ninja"]
    if sanitized:
        cfg.append("-DCMAKE_C_FLAGS=-fsanitize=address,undefined")
    r = installed.run(cfg, str(tmp_path))
    assert r.rc == 0, r
    r = installed.run(["cmake", "--build", str(bld)], str(tmp_path))
    assert r.rc == 0, r
    r = installed.run(["ctest", "--output-on-failure"], str(bld))
    assert r.rc == 0 and "bug_fuzz" in r.stdout, r
    r = installed.run([str(bld / "bug_fuzz"), "-test.list=."], str(tmp_path))
    assert r.rc == 0 and r.stdout.split() == ["FuzzBug"], r


# -- the report tools ---------------------------------------------------------------

def skip_without_python_modules(r):
    m = re.search(r"needs python3 with ([\w ]+) \(Debian: ([\w -]+)\)",
                  r.stderr)
    if r.rc != 0 and m:
        pytest.skip("python3 lacks %s (Debian: %s)" % (m.group(1), m.group(2)))


def test_cover_c_target(installed, clang, tool, tmp_path, sanitized):
    """`cgofuzz cover` from the prefix (its share/cgofuzz/report) measures
    a `cgofuzz cc -cover` target's corpus and writes the HTML page."""
    for t in ("llvm-cov-14", "llvm-profdata-14"):
        tool(t)
    d = str(tmp_path)
    testlib.write(os.path.join(d, "bug.c"), C_TARGET)
    cmd = ["cgofuzz", "cc", "-cover", "-g", "-O0", "bug.c", "-o", "c.test"]
    if sanitized:
        cmd.insert(2, "-fsanitize=address,undefined")
    r = installed.run(cmd, d, env={"CGOFUZZ_CLANG": clang})
    assert r.rc == 0, r
    corpus = os.path.join(d, "testdata", "fuzz", "FuzzBug")
    os.makedirs(corpus)
    testlib.write(os.path.join(corpus, "b"), 'go test fuzz v1\n[]byte("BUx")\n')
    page = os.path.join(d, "c.html")
    r = installed.run(["cgofuzz", "cover", "-fuzz", "FuzzBug", "-o", page,
                       "c.test"], d)
    skip_without_python_modules(r)
    assert r.rc == 0, r
    assert re.search(r"^  bug\.c\s+\d+/\d+\s+[\d.]+%$", r.stdout, re.M), r
    assert 'data-file="bug.c"' in testlib.read(page)


def test_plot(installed, tmp_path):
    """`cgofuzz plot` from the prefix draws a -fuzzstats file."""
    stats = tmp_path / "run.csv"
    testlib.write(stats, STATS)
    svg = tmp_path / "run.svg"
    r = installed.run(["cgofuzz", "plot", str(stats), "-o", str(svg)],
                      str(tmp_path))
    skip_without_python_modules(r)
    assert r.rc == 0, r
    assert "<svg" in testlib.read(svg) and "FuzzA" in testlib.read(svg)


# -- compile-go-fuzzer ---------------------------------------------------------------

def test_compile_go_fuzzer(installed, go, source_dir, tmp_path):
    """`cgofuzz compile-go-fuzzer` from the prefix writes a launcher for
    examples/goparse's FuzzParseRecord that runs inputs like a libFuzzer
    target and reproduces the planted bug."""
    pkg = str(tmp_path / "goparse")
    shutil.copytree(os.path.join(source_dir, "examples", "goparse"), pkg)
    out = tmp_path / "out"
    os.makedirs(out)
    env = {"OUT": str(out), "TMPDIR": str(tmp_path), "SANITIZER": None,
           "CGOFUZZ_GO_ASAN": None}
    r = installed.run(["cgofuzz", "compile-go-fuzzer", pkg, "FuzzParseRecord",
                       "parse_fuzzer"], pkg, env=env)
    assert r.rc == 0, r
    launcher = str(out / "parse_fuzzer")
    testlib.write(tmp_path / "ok", "k=v;id=7")
    testlib.write(tmp_path / "crash", 'k="\\')
    r = installed.run([launcher, str(tmp_path / "ok")], str(tmp_path), env=env)
    assert r.rc == 0, r
    r = installed.run([launcher, str(tmp_path / "crash")], str(tmp_path),
                      env=env)
    assert r.rc not in (0, None) and "index out of range" in r.out, r


# -- the Debian package --------------------------------------------------------------

def test_cpack_deb(installed, build_dir, tool, tmp_path):
    """`cpack -G DEB` makes a .deb of the same tree under /usr whose
    cgofuzz runs from where dpkg-deb unpacks it."""
    tool("dpkg-deb")
    tool("cpack")
    cfg = os.path.join(build_dir, "CPackConfig.cmake")
    r = testlib.run(["cpack", "-G", "DEB", "--config", cfg, "-B",
                     str(tmp_path / "pkg")], cwd=str(tmp_path))
    assert r.rc == 0, r
    debs = [f for f in os.listdir(tmp_path / "pkg") if f.endswith(".deb")]
    assert len(debs) == 1, (debs, r)
    deb = str(tmp_path / "pkg" / debs[0])
    r = testlib.run(["dpkg-deb", "-c", deb])
    assert r.rc == 0, r
    for rel in LAYOUT:
        assert "./usr/" + rel in r.stdout, (rel, r.stdout)
    root = str(tmp_path / "root")
    assert testlib.run(["dpkg-deb", "-x", deb, root]).rc == 0
    moved = Installed(os.path.join(root, "usr"), installed.trees,
                      installed.hide)
    r = moved.run([moved.bin, "version"], str(tmp_path))
    assert r.rc == 0 and r.stdout.startswith("cgofuzz "), r
    r = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Depends"],
                       capture_output=True, text=True)
    assert r.stdout.startswith("Package: cgofuzz"), r.stdout

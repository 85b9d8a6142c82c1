"""cgofuzz installed the Go way (cmd/cgofuzz): `go install
github.com/cgofuzz/cgofuzz/cmd/cgofuzz@VERSION`, from a GOPROXY=file://
directory holding the module as a proxy serves it (@v/list, VERSION.info,
.mod and .zip: the tracked files of this tree, without the nested modules,
under github.com/cgofuzz/cgofuzz@VERSION/, as a module zip has them), with
a module cache of its own and the working directory outside the source
tree. The installed program then:

- prints its version;
- serves `go test -fuzz -exec=cgofuzz` with CC and CXX from its own
  `cgofuzz cgo-env`, compiling the runtime objects cgo-cc links on first
  use (into $XDG_CACHE_HOME/cgofuzz): tests/cli/cgo-cc/pkg's byte-by-byte C magic
  is found and `go test -run` reproduces it;
- fuzzes packages (`cgofuzz fuzz ./...`), finding the same magic with no
  setting at all;
- says in one line that `cgofuzz cc` and `cgofuzz cover` need the CMake
  install.

Fuzzing runs pin GODEBUG=fuzzseed and count execs."""
import glob
import json
import os
import re
import shutil
import subprocess
import zipfile

import pytest

import testlib
from testlib import run

MODULE = "github.com/cgofuzz/cgofuzz"
BUDGET = 3000000  # far above what the magic takes (tens of thousands)


@pytest.fixture(scope="module")
def go(tool, sanitized):
    if sanitized:
        pytest.skip("run in the plain build only (the go-installed cgofuzz "
                    "is built by go, the same in both builds)")
    return tool("go")


@pytest.fixture(scope="module")
def clang(tool):
    tool("clang++")
    return tool("clang")


def version(source_dir):
    with open(os.path.join(source_dir, "csrc", "cli", "version.c")) as f:
        m = re.search(r'#define CGOFUZZ_VERSION "([0-9.]+)"', f.read())
    assert m, "csrc/cli/version.c has no CGOFUZZ_VERSION"
    return "v" + m.group(1)


def module_files(source_dir):
    """The files a module zip of this tree holds: the tracked ones, less
    symbolic links and the trees of nested modules (a directory below the
    root with a go.mod of its own)."""
    r = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=source_dir,
                       capture_output=True, check=True)
    files = []
    for rec in r.stdout.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.decode().split("\t", 1)
        if meta.split()[0] == "120000":
            continue
        files.append(path)
    nested = {os.path.dirname(f) + "/" for f in files
              if f.endswith("/go.mod")}
    return [f for f in files
            if not any(f.startswith(n) for n in nested)
            and os.path.isfile(os.path.join(source_dir, f))]


@pytest.fixture(scope="module")
def proxy(source_dir, tmp_path_factory):
    """A GOPROXY=file:// directory serving this tree as MODULE@version."""
    try:
        files = module_files(source_dir)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip("the source tree is not a git checkout: %s" % e)
    ver = version(source_dir)
    d = tmp_path_factory.mktemp("proxy")
    at = d / MODULE / "@v"
    at.mkdir(parents=True)
    with zipfile.ZipFile(str(at / (ver + ".zip")), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(os.path.join(source_dir, f), "%s@%s/%s" % (MODULE, ver, f))
    shutil.copy(os.path.join(source_dir, "go.mod"), str(at / (ver + ".mod")))
    (at / (ver + ".info")).write_text(json.dumps(
        {"Version": ver, "Time": "2026-11-27T00:00:00Z"}))
    (at / "list").write_text(ver + "\n")
    return "file://" + str(d), ver


@pytest.fixture(scope="module")
def installed(go, proxy, tmp_path_factory):
    """(cgofuzz, env): the program go install put in GOBIN, and the
    environment its runs use (a home, cache and module cache of their
    own; the go build cache is the user's, as on any machine)."""
    url, ver = proxy
    home = tmp_path_factory.mktemp("home")
    env = {"HOME": str(home), "GOPATH": str(home / "go"),
           "GOMODCACHE": str(home / "go" / "pkg" / "mod"),
           "GOBIN": str(home / "bin"), "XDG_CACHE_HOME": str(home / "cache"),
           "GOPROXY": url, "GOSUMDB": "off", "GOFLAGS": "",
           "GOTOOLCHAIN": "local", "CGO_ENABLED": "1",
           "CC": None, "CXX": None, "CGOFUZZ_CLANG": None,
           "CGOFUZZ_CLANGXX": None, "CGOFUZZ_LIBDIR": None,
           "CGOFUZZ_INCLUDEDIR": None, "CGOFUZZ_TOOLS_DIR": None,
           "CGOFUZZ_FLAGS": None}
    if "GOCACHE" not in os.environ:
        env["GOCACHE"] = run([go, "env", "GOCACHE"], cwd="/").stdout.strip()
    r = run([go, "install", "%s/cmd/cgofuzz@%s" % (MODULE, ver)], cwd=str(home),
            env=env, timeout=900)
    assert r.rc == 0, r
    exe = str(home / "bin" / "cgofuzz")
    assert os.access(exe, os.X_OK), r
    return exe, env


def copy_pkg(source_dir, tmp):
    """tests/cli/cgo-cc/pkg under a module path of its own; its directory."""
    return testlib.copy_module(os.path.join(source_dir, "tests", "cli", "cgo-cc", "pkg"),
                               os.path.join(str(tmp), "pkg"),
                               "example.com/cgopkg")


def failing(d, target):
    return sorted(glob.glob(os.path.join(d, "testdata", "fuzz", target, "*")))


def test_version(installed, proxy):
    exe, env = installed
    r = run([exe, "version"], cwd="/", env=env)
    assert r.rc == 0 and proxy[1][1:] in r.stdout, r


def test_exec_with_cgo_compilers(go, clang, installed, source_dir, tmp_path):
    """go test -fuzz -exec=cgofuzz with CC/CXX from its cgo-env: the C
    magic is found, the objects cgo-cc links were compiled into the cache,
    and go test -run reproduces the failure."""
    exe, env = installed
    r = run([exe, "cgo-env"], cwd=str(tmp_path), env=env)
    assert r.rc == 0, r
    cc = dict(re.findall(r"^(CC|CXX)=(\S+)$", r.stdout, re.M))
    assert set(cc) == {"CC", "CXX"}, r
    env = dict(env, **cc)
    d = copy_pkg(source_dir, tmp_path)
    r = run([go, "test", "-exec=" + exe, "-run=^$", "-fuzz=^FuzzMagic$",
             "-fuzztime=%dx" % BUDGET, "."], d,
            dict(env, **testlib.fuzz_env()), timeout=900)
    # The magic, not necessarily minimized to it alone: minimization has a
    # share of the run's time, and the cgo loop's finds may be long.
    assert r.rc == 1 and 'magic "FUZZ' in r.out, r
    objs = glob.glob(os.path.join(env["XDG_CACHE_HOME"], "cgofuzz", "cgo-*",
                                  "*.o"))
    assert sorted(os.path.basename(o) for o in objs) == [
        "cgofuzz_cgo.o", "cgofuzz_cgo_loop.o", "cgofuzz_cgo_mutate.o",
        "cgofuzz_cgo_stack.o",
        "cgofuzz_interceptors.o"], objs
    files = failing(d, "FuzzMagic")
    assert len(files) == 1, r
    rr = run([go, "test", "-run=FuzzMagic/" + os.path.basename(files[0]),
              "."], d, env, timeout=600)
    assert rr.rc == 1 and 'magic "FUZZ' in rr.out, rr


def test_fuzz_packages_needs_no_setting(clang, installed, source_dir,
                                        tmp_path):
    exe, env = installed
    d = copy_pkg(source_dir, tmp_path)
    r = run([exe, "fuzz", "-fuzz=^FuzzMagic$", "-fuzztime=%dx" % BUDGET,
             "-parallel=1", "./..."], d, dict(env, **testlib.fuzz_env()),
            timeout=900)
    assert r.rc == 1 and 'magic "FUZZ' in r.out, r
    assert len(failing(d, "FuzzMagic")) == 1, r


@pytest.mark.parametrize("argv,what", [
    (["cc", "-o", "t", "t.c"], "cgofuzz cc: cannot find libcgofuzz.a"),
    (["cover", "x.test"], "cgofuzz cover: cannot find the report tools"),
])
def test_full_install_parts_say_so(installed, tmp_path, argv, what):
    exe, env = installed
    r = run([exe] + argv, cwd=str(tmp_path), env=env)
    assert r.rc != 0, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(what), r
    assert "go install" in lines[0], r

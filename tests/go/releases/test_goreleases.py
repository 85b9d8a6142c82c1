"""`cgofuzz fuzz` on test binaries built by several Go releases (issue 14).

The module relmod/ (go.mod says `go 1.18`, so every release builds it) is
built with `go test -c -fuzz=.` by each release below, fetched into the
module cache by scripts/install-deps.sh (a release not there is a visible
skip). cgofuzz reads the release from the binary's build info and follows
it. For each release:
- a panic, a SIGSEGV in cgo and an os.Exit(3) are found; exactly one file
  is written to testdata/fuzz/<Target>/, named as that release names it
  (64 hex digits in go1.18, 16 from go1.20), and `go test -run=T/name` of
  that release reproduces the failure;
- a cache that release's `-test.fuzz` run filled is loaded by cgofuzz (its
  baseline counts the entries), and one cgofuzz filled is loaded by that
  release's binary.
Runs use a pinned fuzzseed and exec budgets (-fuzztime=Nx), one worker.
"""
import os
import re
import shutil

import pytest

import testlib
from testlib import run

SEED = 1
RELEASES = ["go1.18.10", "go1.19.13", "go1.20.14", "go1.23.12", "go1.27.4"]
HERE = os.path.dirname(os.path.abspath(__file__))
# (target, what the release's `go test -run` prints when it reproduces)
FAILURES = [
    ("FuzzPanic", "planted panic"),
    ("FuzzCgo", "SIGSEGV"),
    ("FuzzExit", "exit status 3"),
]


def go_env(release):
    # GOPROXY=off: the toolchain must already be in the module cache.
    return {"GOTOOLCHAIN": release, "GOFLAGS": "-mod=mod", "GOPROXY": "off",
            "CGO_ENABLED": "1", "GODEBUG": "goindex=0"}


# The sanitized build runs the oldest and the newest release: the formats
# between differ from one of them in ways the plain build's cases cover.
SANITIZED_RELEASES = {RELEASES[0], RELEASES[-1]}


@pytest.fixture(scope="module", params=RELEASES)
def built(request, tool, sanitized, tmp_path_factory):
    """(release, module dir, test binary) of one release, built once."""
    go = tool("go")
    tool("gcc")
    release = request.param
    if sanitized and release not in SANITIZED_RELEASES:
        pytest.skip("run in the plain build only (the sanitized build runs "
                    "%s)" % " and ".join(sorted(SANITIZED_RELEASES)))
    r = run([go, "env", "GOROOT"], cwd="/", env=go_env(release), timeout=120)
    if r.rc != 0:
        pytest.skip("%s is not in the module cache (scripts/install-deps.sh "
                    "fetches it)" % release)
    d = tmp_path_factory.mktemp(release)
    src = str(d / "relmod")
    shutil.copytree(os.path.join(HERE, "relmod"), src)
    exe = str(d / "rel.test")
    r = run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=src,
            env=go_env(release), timeout=600)
    assert r.rc == 0, str(r)
    return release, go, src, exe


def name_digits(release):
    minor = int(release.split(".")[1])
    return 64 if minor < 20 else 16


def fresh_pkg(src, tmp_path):
    pkg = str(tmp_path / "pkg")
    shutil.copytree(src, pkg)
    return pkg


@pytest.mark.parametrize("target,expect", FAILURES)
def test_find_write_reproduce(built, target, expect, cgofuzz, tmp_path):
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    cmd = testlib.fuzz_cmd(cgofuzz, exe, target, str(tmp_path / "cache"),
                           ["-fuzztime=200000x"], parallel=1)
    r = run(cmd, cwd=pkg, env=testlib.fuzz_env(SEED, TMPDIR=str(tmp_path)))
    assert r.rc == 1, str(r)
    assert "which has no flag" not in r.stderr, str(r)
    d = os.path.join(pkg, "testdata", "fuzz", target)
    files = os.listdir(d)
    assert len(files) == 1, (files, str(r))
    name = files[0]
    assert re.fullmatch("[0-9a-f]{%d}" % name_digits(release), name), name
    assert "testdata/fuzz/%s/%s" % (target, name) in r.out, str(r)
    with open(os.path.join(d, name), "rb") as f:
        assert f.readline() == b"go test fuzz v1\n"
    rep = run([go, "test", "-run=^%s$/^%s$" % (target, name), "."], cwd=pkg,
              env=go_env(release), timeout=600)
    assert rep.rc != 0 and expect in rep.out, str(rep)


def cache_count(d, target):
    p = os.path.join(d, target)
    return len(os.listdir(p)) if os.path.isdir(p) else 0


def baseline(text):
    m = re.findall(r"gathering baseline coverage: \d+/(\d+) completed", text)
    assert m, text
    return int(m[-1])


def test_cache_release_to_cgofuzz(built, cgofuzz, tmp_path):
    """The release's own fuzzing fills a cache; cgofuzz resumes it."""
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    cache = str(tmp_path / "cache")
    env = testlib.fuzz_env(SEED, TMPDIR=str(tmp_path))
    r = run([exe, "-test.fuzz=^FuzzOK$", "-test.run=^FuzzOK$",
             "-test.fuzztime=3000x", "-test.parallel=1",
             "-test.fuzzcachedir=" + cache], cwd=pkg, env=env)
    assert r.rc == 0, str(r)
    n = cache_count(cache, "FuzzOK")
    assert n > 0, str(r)
    c = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", cache,
                             ["-fuzztime=10x"], parallel=1), cwd=pkg, env=env)
    assert c.rc == 0, str(c)
    assert baseline(c.stderr) == n + 1, str(c)  # the f.Add seed, the cache
    assert "skipping" not in c.stderr, str(c)


def test_cache_cgofuzz_to_release(built, cgofuzz, tmp_path):
    """cgofuzz fills a cache; the release's own fuzzing resumes it."""
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    cache = str(tmp_path / "cache")
    env = testlib.fuzz_env(SEED, TMPDIR=str(tmp_path))
    c = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", cache,
                             ["-fuzztime=3000x"], parallel=1), cwd=pkg, env=env)
    assert c.rc == 0, str(c)
    names = os.listdir(os.path.join(cache, "FuzzOK"))
    assert names, str(c)
    for nm in names:
        assert re.fullmatch("[0-9a-f]{%d}" % name_digits(release), nm), nm
    r = run([exe, "-test.fuzz=^FuzzOK$", "-test.run=^FuzzOK$",
             "-test.fuzztime=10x", "-test.parallel=1",
             "-test.fuzzcachedir=" + cache], cwd=pkg, env=env)
    assert r.rc == 0, str(r)
    assert baseline(r.stderr) == len(names) + 1, str(r)


def test_run_tests_first(built, cgofuzz, tmp_path):
    """-run runs the tests first with flags the release knows (go1.18 has
    no -test.skip: a usage error there would fail the run)."""
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    c = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", str(tmp_path / "cache"),
                             ["-run=.", "-fuzztime=10x"], parallel=1),
            cwd=pkg, env=testlib.fuzz_env(SEED, TMPDIR=str(tmp_path)))
    assert c.rc == 0, str(c)
    assert "flag provided but not defined" not in c.out, str(c)


def test_extra_flag_of_later_release(built, cgofuzz, tmp_path):
    """An extra -test.skip (go1.20 on) reaches a go1.20+ binary's tests and
    workers; for go1.18 it is dropped with a warning naming it, and the run
    still passes (the binary would exit with a usage error)."""
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    cmd = testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", str(tmp_path / "cache"),
                           ["-run=.", "-fuzztime=10x"], parallel=1)
    c = run(cmd + ["--", "-test.skip=^FuzzNone$", "-test.short"], cwd=pkg,
            env=testlib.fuzz_env(SEED, TMPDIR=str(tmp_path)))
    assert c.rc == 0, str(c)
    warned = "which has no flag -test.skip=^FuzzNone$" in c.stderr
    assert warned == (name_digits(release) == 64), str(c)


def coverage_of(stats_file):
    with open(stats_file) as f:
        rows = [ln.rstrip("\n").split(",") for ln in f if ln.strip()]
    col = rows[0].index("coverage")
    return int(rows[-1][col])


@pytest.mark.parametrize("strip", [False, True], ids=["symbols", "stripped"])
def test_fast_snapshot(built, cgofuzz, tmp_path, strip):
    """The fuzzing workers run a copy whose coverage snapshot goes eight
    counters at a time (gobin_patch.c), found in every release's binary,
    with its symbol table and without (go test -exec runs binaries linked
    with -s -w); replaying one corpus, it gives the coverage Go's own
    snapshot loop gives."""
    release, go, src, exe = built
    pkg = fresh_pkg(src, tmp_path)
    if strip:
        exe = str(tmp_path / "rel-stripped.test")
        r = run([go, "test", "-c", "-fuzz=.", "-ldflags=-s -w", "-o", exe,
                 "."], cwd=pkg, env=go_env(release), timeout=600)
        assert r.rc == 0, str(r)
    cache = str(tmp_path / "cache")
    env = testlib.fuzz_env(SEED, TMPDIR=str(tmp_path))
    c = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", cache,
                             ["-v", "-fuzztime=3000x"], parallel=1),
            cwd=pkg, env=env)
    assert c.rc == 0, str(c)
    assert "the workers run a copy of %s that snapshots" % exe in c.stderr, \
        str(c)
    assert cache_count(cache, "FuzzOK") > 0, str(c)
    cov = {}
    for mode in ("fast", "go"):
        st = str(tmp_path / ("%s.csv" % mode))
        c = run(testlib.fuzz_cmd(cgofuzz, exe, "FuzzOK", cache,
                                 ["-fuzztime=1x", "-fuzzstats", st],
                                 parallel=1),
                cwd=pkg, env=dict(env, CGOFUZZ_GO_SNAPSHOT=mode))
        assert c.rc == 0, str(c)
        cov[mode] = coverage_of(st)
    assert cov["fast"] == cov["go"] > 1, cov

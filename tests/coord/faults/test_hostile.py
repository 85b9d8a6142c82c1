"""Hostile files and names (issue 39's security findings, docs/faults.md).

Each case plants what another user of a shared directory could plant (a
symlink named like an output or a temporary, a directory made by someone
else or open to others, a control file that lies) or takes away what a
default needs (HOME), and checks that cgofuzz neither follows nor trusts
it: the planted file is unchanged, the output is a regular file with a
mode from the umask, and a refusal is said with the path and the reason.

Root ignores file modes, so the cases rest on ownership, file types and
mode bits, which hold for root as for anyone; "owned by someone else" needs
a second user and chowns to 65534 as root, and skips (saying so) otherwise.
C targets are built with `cgofuzz cc` (clang; a visible skip without it).
"""
import hashlib
import os
import re
import shutil
import stat

import pytest

import testlib

TARGET = "FuzzLibFuzzer"  # what cgofuzz cc names a libFuzzer-form harness
HARNESS = r"""
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (n >= 2 && d[0] == 'A' && d[1] == 'B')
    return 0;
  if (n >= 1 && d[0] == 'X')
    abort();
  return 0;
}
"""
STATS_HEADER = ("elapsed_s,target,execs,execs_per_s,coverage,corpus,"
                "new_inputs,failures,c_coverage\n")


@pytest.fixture(scope="module")
def harness(cgofuzz, tool, tmp_path_factory):
    """A libFuzzer-form C target (aborts on inputs starting with X)."""
    tool("clang")
    d = tmp_path_factory.mktemp("hostile-bin")
    src = d / "h.c"
    src.write_text(HARNESS)
    exe = str(d / "h")
    r = testlib.run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=address,fuzzer",
                     str(src), "-o", exe])
    assert r.rc == 0, r
    return exe


def lf_env():
    return {"ASAN_OPTIONS": "exitcode=77:detect_leaks=0"}


def no_crash(r):
    """cgofuzz itself ended normally: no sanitizer report, no signal."""
    assert r.rc is not None and r.rc >= 0, r
    assert "Sanitizer" not in r.stderr, r


def convert(cgofuzz, src, outdir):
    return testlib.run([cgofuzz, "corpus", "convert", "-types", "[]byte",
                        "-o", str(outdir), str(src)])


# -- cli_write_file_atomic ---------------------------------------------------

def test_output_symlink_to_setuid_file_is_replaced_not_followed(cgofuzz,
                                                                tmp_path):
    """A symlink named like the output, pointing at a 04755 file: the
    output becomes a regular file without set-uid, the 04755 file is
    unchanged (contents and mode). A 04755 file of ours at the output's
    name keeps its permission bits but not set-uid."""
    src = tmp_path / "in"
    src.write_bytes(b"abc")
    r = convert(cgofuzz, src, tmp_path / "probe")
    assert r.rc == 0, r
    name = os.path.basename(r.stdout.strip())
    victim = tmp_path / "victim"
    victim.write_bytes(b"#!/bin/sh\necho victim\n")
    os.chmod(victim, 0o4755)
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / name)
    r = convert(cgofuzz, src, out)
    assert r.rc == 0, r
    st = os.lstat(out / name)
    assert stat.S_ISREG(st.st_mode), oct(st.st_mode)
    assert not st.st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX), \
        oct(st.st_mode)
    assert (out / name).read_bytes().startswith(b"go test fuzz v1\n")
    assert victim.read_bytes() == b"#!/bin/sh\necho victim\n"
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o4755

    # A set-uid file of our own at the output's name: rewritten 0755.
    os.unlink(out / name)
    (out / name).write_bytes(b"old")
    os.chmod(out / name, 0o4755)
    r = convert(cgofuzz, src, out)
    assert r.rc == 0, r
    assert stat.S_IMODE(os.lstat(out / name).st_mode) == 0o755


def test_umask_077_gives_0600_outputs(cgofuzz, tmp_path):
    src = tmp_path / "in"
    src.write_bytes(b"abc")
    old = os.umask(0o077)
    try:
        r = convert(cgofuzz, src, tmp_path / "out")
    finally:
        os.umask(old)
    assert r.rc == 0, r
    path = r.stdout.strip()
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600, r


# -- the merge control file ---------------------------------------------------

@pytest.mark.parametrize("how", ["no-counters-line", "past-counters"])
def test_merge_control_file_index_out_of_range(cgofuzz, harness, tmp_path,
                                               how):
    """A control file (`corpus merge -control`) whose record names a
    counter past the end, without a counters line or past the one there
    is: a clear error naming the file and the line, exit 1, no crash (it
    was a SIGSEGV, and a heap-buffer-overflow under ASan)."""
    a = tmp_path / "a"
    a.mkdir()
    (a / "x1").write_bytes(b"AB")
    (a / "x2").write_bytes(b"Q")
    mcf = tmp_path / "mcf"

    def merge(out):
        out.mkdir()
        return testlib.run([cgofuzz, "corpus", "merge", "-control", str(mcf),
                            "-o", str(out), harness, str(a)], env=lf_env())
    r = merge(tmp_path / "out1")
    assert r.rc == 0, r
    lines = mcf.read_text().splitlines()
    assert any(ln.startswith("counters ") for ln in lines), lines
    if how == "no-counters-line":
        lines = [ln for ln in lines if not ln.startswith("counters ")]
    rec = next(i for i, ln in enumerate(lines)
               if ln.startswith("R ") and re.search(r" \d+:", ln))
    lines[rec] = re.sub(r" \d+:", " 1000000000:", lines[rec], count=1)
    mcf.write_text("\n".join(lines) + "\n")
    r = merge(tmp_path / "out2")
    no_crash(r)
    assert r.rc == 1, r
    want = ("before any counters line" if how == "no-counters-line"
            else "but there are")
    assert re.search(r"ERROR: %s:%d: the record names counter 1000000000"
                     r"(, but there are \d+| before any counters line)$" % (
                         re.escape(str(mcf)), rec + 1),
                     r.stderr, re.M), r
    assert want in r.stderr, r
    assert list((tmp_path / "out2").iterdir()) == [], r


# -- lf_corpus.c's temporary ---------------------------------------------------

def test_lf_temporary_symlink_is_not_followed(harness, tmp_path):
    """A symlink planted at the name the temporary of the next corpus file
    once had (.tmp-<pid>-<sha1>, the pid known by forking first; it is
    mkdtemp's now, csrc/base/file.h): the file it points at is unchanged,
    and the corpus file is written whole all the same."""
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    d1.mkdir()
    d2.mkdir()
    data = b"abc"
    (d2 / "in").write_bytes(data)
    name = hashlib.sha1(data).hexdigest()
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    log = open(tmp_path / "log", "wb")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child waits for the plant, then becomes the merge
        try:
            os.close(w)
            os.read(r, 1)
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            env = testlib.environ(lf_env())
            os.execve(harness, [harness, "-merge=1", str(d1), str(d2)], env)
        finally:
            os._exit(127)
    os.close(r)
    log.close()
    os.symlink(victim, d1 / (".tmp-%d-%s" % (pid, name)))
    os.write(w, b"go")
    os.close(w)
    _, status = os.waitpid(pid, 0)
    text = (tmp_path / "log").read_text(errors="replace")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, text
    assert victim.read_bytes() == b"precious", text
    assert (d1 / name).read_bytes() == data, text
    assert stat.S_ISREG(os.lstat(d1 / name).st_mode)


# -- the failure fallback in $TMPDIR -------------------------------------------

def fail_run(harness, work, tmpdir):
    """Runs the target on a cached input that aborts, with testdata/fuzz a
    plain file (so the failure cannot go there) and TMPDIR=tmpdir."""
    cache = work / "cache" / TARGET
    cache.mkdir(parents=True)
    (cache / "x").write_text('go test fuzz v1\n[]byte("X")\n')
    (work / "testdata").mkdir()
    (work / "testdata" / "fuzz").write_text("not a directory\n")
    return testlib.run([harness, "-test.fuzz=^%s$" % TARGET,
                        "-test.fuzzcachedir=%s" % (work / "cache"),
                        "-test.fuzztime=100x", "-test.parallel=1"],
                       cwd=str(work), env={"TMPDIR": str(tmpdir)})


def files_under(d):
    return sorted(os.path.relpath(os.path.join(p, f), d)
                  for p, _, fs in os.walk(d) for f in fs)


@pytest.mark.parametrize("plant", ["symlink", "group-writable",
                                   "other-owner", "target-symlink"])
def test_shared_fallback_directory_is_refused(harness, tmp_path, plant):
    """$TMPDIR/cgofuzz-failures (or its <Target>) planted by someone else:
    refused with the reason, the failure goes to ./cgofuzz-failures, and
    nothing is written into the planted place."""
    work, tmpdir, elsewhere = (tmp_path / "work", tmp_path / "tmp",
                               tmp_path / "elsewhere")
    for d in (work, tmpdir, elsewhere):
        d.mkdir()
    top = tmpdir / "cgofuzz-failures"
    if plant == "symlink":
        os.symlink(elsewhere, top)
        reason = "it is a symbolic link"
    elif plant == "group-writable":
        top.mkdir()
        os.chmod(top, 0o775)
        reason = "group or others can write to it (mode 0775)"
    elif plant == "other-owner":
        if os.geteuid() != 0:
            pytest.skip("needs a directory owned by another user: only "
                        "root can make one (chown to 65534)")
        top.mkdir()
        os.chown(top, 65534, 65534)
        reason = "it is owned by uid 65534, not by this user (uid 0)"
    else:
        top.mkdir(mode=0o700)
        os.symlink(elsewhere, top / TARGET)
        reason = "it is a symbolic link"
    r = fail_run(harness, work, tmpdir)
    no_crash(r)
    assert r.rc == 1, r
    refused = top / TARGET if plant == "target-symlink" else top
    assert ("cgofuzz: could not write the failing input to %s/%s: refused "
            "%s: %s" % (top, TARGET, refused, reason)) in r.stderr, r
    assert re.search(r"the failing input was written to "
                     r"cgofuzz-failures/%s/[0-9a-f]+ instead" % TARGET,
                     r.stderr), r
    assert len(files_under(work / "cgofuzz-failures" / TARGET)) == 1, r
    assert files_under(elsewhere) == [], r
    if plant != "symlink" and plant != "target-symlink":
        assert files_under(top) == [], r


def test_fallback_directory_made_private(harness, tmp_path):
    """Nothing planted: $TMPDIR/cgofuzz-failures/<Target> is made 0700 and
    takes the failure."""
    work, tmpdir = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmpdir.mkdir()
    r = fail_run(harness, work, tmpdir)
    assert r.rc == 1, r
    top = tmpdir / "cgofuzz-failures"
    for d in (top, top / TARGET):
        assert stat.S_IMODE(os.lstat(d).st_mode) == 0o700, r
    assert len(files_under(top / TARGET)) == 1, r
    assert "written to %s/%s/" % (top, TARGET) in r.stderr, r


# -- HOME unset ---------------------------------------------------------------

NO_HOME = {"HOME": None, "XDG_CACHE_HOME": None, "GOCACHE": None}


def test_home_unset_c_target_has_no_default_cache(harness, tmp_path):
    """No GOCACHE, XDG_CACHE_HOME or HOME: no shared /tmp/.cache, an error
    naming them and -test.fuzzcachedir, exit 1, nothing fuzzed (as go test
    -fuzz, whose os.UserCacheDir fails)."""
    env = dict(NO_HOME, TMPDIR=str(tmp_path))
    r = testlib.run([harness, "-test.fuzz=^%s$" % TARGET,
                     "-test.fuzztime=10x", "-test.parallel=1"],
                    cwd=str(tmp_path), env=env)
    no_crash(r)
    assert r.rc == 1, r
    assert ("no cache directory for the fuzzing corpus: GOCACHE, "
            "XDG_CACHE_HOME and HOME are all unset or empty; set one of "
            "them or pass -test.fuzzcachedir") in r.stderr, r
    assert "elapsed" not in r.out, r


def test_home_unset_cgo_env_makes_no_shared_links(cgofuzz, tmp_path):
    """cgo-env with no cgofuzz-cgo-cc beside the program and no HOME: an
    error, no links made anywhere shared."""
    copy = tmp_path / "bin" / "cgofuzz"
    copy.parent.mkdir()
    shutil.copy(cgofuzz, copy)
    r = testlib.run([str(copy), "cgo-env"], cwd=str(tmp_path),
                    env=dict(NO_HOME, TMPDIR=str(tmp_path)))
    no_crash(r)
    assert r.rc != 0, r
    assert ("no cgofuzz-cgo-cc beside %s and neither XDG_CACHE_HOME nor "
            "HOME is set to make one" % copy) in r.stderr, r


# -- the report tools ----------------------------------------------------------

def test_plot_temporary_is_not_a_guessable_name(cgofuzz, tmp_path):
    """A symlink at OUT.tmp (the old temporary's name) is left alone: the
    file it points at is unchanged and OUT is a new regular file."""
    try:
        r = testlib.run(["/usr/bin/python3", "-c", "import matplotlib"])
    except OSError:
        r = None
    if r is None or r.rc != 0:
        pytest.skip("cgofuzz plot needs python3-matplotlib "
                    "(scripts/install-deps.sh)")
    stats = tmp_path / "run.csv"
    stats.write_text(STATS_HEADER + "0.000,FuzzA,0,0.0,10,2,0,0,0\n"
                     "1.000,FuzzA,100,100.0,12,3,1,0,0\n")
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    svg = tmp_path / "run.svg"
    os.symlink(victim, str(svg) + ".tmp")
    r = testlib.run([cgofuzz, "plot", str(stats), "-o", str(svg)])
    assert r.rc == 0, r
    assert victim.read_bytes() == b"precious"
    assert stat.S_ISREG(os.lstat(svg).st_mode)
    assert svg.read_bytes().lstrip().startswith(b"<?xml")
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["run.csv", "run.svg", "run.svg.tmp", "victim"])

"""Atomic writes killed at any moment (issue 37; docs/faults.md).

tests/coord/faults/atomic_writer.c writes file after file with base's atomic
writer (cgofuzz_file_write_atomic, csrc/base/file.h), every one of which
replaces an earlier file of the same name, and is SIGKILLed: at the N-th
call of each system call the writer makes (pinned with the linker's --wrap,
so between any two steps of a write, or in the middle of its write(2)), and
from outside at pinned delays after it has reported N files. Whatever the
moment, the directory must hold only whole files (each file checks itself:
a length and a SHA-256 in its first line) and temporaries marked as such:
hidden subdirectories `.NAME.tmp-XXXXXX`, which every corpus reader skips
(Go and the coordinator skip subdirectories, libFuzzer-mode readers hidden
names). No write that was reported is lost. The same checks fail the
writer's --naive mode (in place, no temporary), so they can fail.
"""
import hashlib
import os
import re
import signal
import subprocess
import time

import pytest

NAMES = ["f%d" % i for i in range(5)]  # the writer cycles through them
TEMP_RE = re.compile(r"^\.(f\d)\.tmp-[A-Za-z0-9]{6}$")
HEAD_RE = re.compile(rb"^cgofuzz-atomic seq=(\d+) len=(\d+) sha256=([0-9a-f]{64})\n")


@pytest.fixture(scope="module")
def writer(required_env):
    return required_env("CGOFUZZ_ATOMIC_WRITER")


def whole(path):
    """The seq of the whole file at path, or a string saying what is wrong."""
    with open(path, "rb") as f:
        data = f.read()
    m = HEAD_RE.match(data)
    if not m:
        return "no whole first line (%d bytes: %r)" % (len(data), data[:40])
    body = data[m.end():]
    if len(body) != int(m.group(2)):
        return "%d bytes after the line, which says %s" % (len(body),
                                                           m.group(2).decode())
    if hashlib.sha256(body).hexdigest() != m.group(3).decode():
        return "sha256 differs from the line's"
    return int(m.group(1))


def problems(d, reported):
    """What is wrong in d after a kill: files not whole, entries that are
    neither a file f0..f4 nor a marked temporary, reported writes lost.
    reported: {name: the seq of its last reported write}."""
    bad, seqs = [], {}
    for e in sorted(os.listdir(d)):
        p = os.path.join(d, e)
        if e in NAMES and os.path.isfile(p) and not os.path.islink(p):
            s = whole(p)
            if isinstance(s, str):
                bad.append("%s: %s" % (e, s))
            else:
                seqs[e] = s
        elif TEMP_RE.match(e) and os.path.isdir(p):
            inside = os.listdir(p)  # at most the file being written
            if inside not in ([], [TEMP_RE.match(e).group(1)]):
                bad.append("%s holds %s" % (e, inside))
        else:
            bad.append("%s: neither a file the writer writes nor its "
                       "temporary" % e)
    for name, seq in reported.items():
        if name not in seqs and not any(b.startswith(name + ":") for b in bad):
            bad.append("%s: reported written (seq %d), gone" % (name, seq))
        elif name in seqs and not seq <= seqs[name] <= seq + 5:
            bad.append("%s: seq %d, but %d was reported" % (name, seqs[name],
                                                             seq))
    return bad


def reports(text):
    out = {}
    for line in text.splitlines():
        name, seq = line.split()
        out[name] = int(seq)
    return out


def run_killed_at(writer, d, call, n, mode=None):
    """The writer killed at the n-th call of call; its reports. mode:
    "--naive" or "--no-sync" (CGOFUZZ_FILE_NO_SYNC)."""
    argv = [writer, str(d), "12", "--kill-at", "%s:%d" % (call, n)]
    r = subprocess.run(argv + ([mode] if mode else []),
                       capture_output=True, timeout=120)
    assert r.returncode == -signal.SIGKILL, (
        "the writer was to be killed at %s #%d: rc %d, %s"
        % (call, n, r.returncode, r.stderr.decode(errors="replace")))
    return reports(r.stdout.decode())


# Per file the atomic writer calls mkdtemp, open (the temporary), write,
# fsync, close, rename, rmdir, open (the directory), fsync, close: n picks
# the first file (nothing to replace), the sixth (the first replacement of
# f0) and the ninth, and for the calls made twice per file both of them.
CALLS = [("mkdtemp", 1), ("mkdtemp", 6), ("open", 1), ("open", 2),
         ("open", 11), ("open", 12), ("write", 1), ("write", 6),
         ("write", 9), ("fsync", 1), ("fsync", 2), ("fsync", 11),
         ("fsync", 12), ("close", 1), ("close", 2), ("close", 11),
         ("close", 12), ("rename", 1), ("rename", 6), ("rename", 9),
         ("rmdir", 1), ("rmdir", 6)]


@pytest.mark.parametrize("call,n", CALLS, ids=["%s-%d" % c for c in CALLS])
def test_killed_at_each_step_leaves_whole_files(writer, tmp_path, call, n):
    reported = run_killed_at(writer, tmp_path, call, n)
    assert problems(tmp_path, reported) == [], (call, n, os.listdir(tmp_path))
    # A temporary is left exactly when the kill came between making it
    # and removing it (mkdtemp ... rmdir), and it is the one marked.
    # Of the calls made twice per file, the first is the temporary's.
    temps = [e for e in os.listdir(tmp_path) if e.startswith(".")]
    between = call in ("write", "rename", "rmdir") or \
        (call in ("open", "fsync", "close") and n % 2 == 1)
    assert len(temps) == (1 if between else 0), (call, n, temps)
    # The next writer is not stopped by what the killed one left.
    r = subprocess.run([writer, str(tmp_path), "6"], capture_output=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert problems(tmp_path, reports(r.stdout.decode())) == []


@pytest.mark.parametrize("after", [1, 3, 10])
@pytest.mark.parametrize("delay", [0, 0.0005, 0.002, 0.01])
def test_killed_from_outside_at_pinned_moments(writer, tmp_path, after,
                                               delay):
    """SIGKILL after the writer has reported `after` files and `delay`
    seconds more: wherever in a write that lands, the checks hold."""
    # Unbuffered: readline must not take reports past the after-th into a
    # buffer that communicate() does not read.
    p = subprocess.Popen([writer, str(tmp_path), "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, bufsize=0)
    lines = []
    try:
        while len(lines) < after:
            line = p.stdout.readline()
            assert line, p.stderr.read()
            lines.append(line)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == -signal.SIGKILL, err
    # The reports read, and those still in the pipe.
    reported = reports(b"".join(lines).decode() + out.decode())
    assert problems(tmp_path, reported) == [], os.listdir(tmp_path)


@pytest.mark.parametrize("n", [1, 6])
def test_the_checks_catch_a_writer_in_place(writer, tmp_path, n):
    """The same kill in the middle of a write(2) fails a writer that
    writes in place: its file is cut (the check can fail)."""
    reported = run_killed_at(writer, tmp_path, "write", n, mode="--naive")
    bad = problems(tmp_path, reported)
    assert any("f%d: " % ((n - 1) % 5) in b for b in bad), bad


def unnamed_files_here(d):
    """Whether d's file system makes unnamed files (O_TMPFILE), which
    CGOFUZZ_FILE_NO_SYNC writes new files with (else it names a temporary,
    as the synced writes above)."""
    try:
        fd = os.open(str(d), os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (AttributeError, OSError):
        return False
    os.close(fd)
    return True


# --no-sync: the first write of each name (seq 0-4) is an unnamed file
# (open with O_TMPFILE, write, linkat, close); a replacement (seq 5 on)
# tries the same, its linkat finds the file, and it goes the named way
# (mkdtemp, open, write, close, rename, rmdir), without fsyncs. n picks a
# first write (1), a replacement's unnamed try (6) and its named write.
NO_SYNC_CALLS = [("open", 1), ("write", 1), ("linkat", 1), ("close", 1),
                 ("linkat", 6), ("write", 6), ("write", 7), ("mkdtemp", 1),
                 ("rename", 1), ("rmdir", 1)]


@pytest.mark.parametrize("call,n", NO_SYNC_CALLS,
                         ids=["%s-%d" % c for c in NO_SYNC_CALLS])
def test_no_sync_killed_at_each_step_leaves_whole_files(writer, tmp_path,
                                                        call, n):
    """CGOFUZZ_FILE_NO_SYNC (the cache's new inputs): a writer killed at
    any step leaves whole files and loses no reported write (what the
    kernel has survives the writer's death; only a machine crash could
    lose an unsynced file). A new file's unnamed temporary leaves nothing
    behind; a kill at the linkat is the test that the way is taken."""
    if not unnamed_files_here(tmp_path):
        pytest.skip("%s's file system makes no O_TMPFILE files" % tmp_path)
    reported = run_killed_at(writer, tmp_path, call, n, mode="--no-sync")
    assert problems(tmp_path, reported) == [], (call, n, os.listdir(tmp_path))
    temps = [e for e in os.listdir(tmp_path) if e.startswith(".")]
    named = call in ("rename", "rmdir") or (call, n) == ("write", 7)
    assert len(temps) == (1 if named else 0), (call, n, temps)
    r = subprocess.run([writer, str(tmp_path), "6", "--no-sync"],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert problems(tmp_path, reports(r.stdout.decode())) == []

"""Resources that run out and workers that lie (issue 39; docs/faults.md).

Full file systems are real ones: a tmpfs of 16 KiB, filled, mounted in a
mount namespace of the one command (`unshare -m`, or `unshare -rm` when not
root); where the system refuses namespaces those cases are skipped, saying
so. Lying workers go through fakeworker.py, which stands in for the test
binary (it has no Go build information, so cgofuzz cannot tell its release).
The fixtures (env, binary) are test_faults.py's: each case has its own
package copy, cache and $TMPDIR.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

import testlib
from testlib import run, wait_until, written
from test_faults import (CLEAN_BUDGET, FAKEWORKER, FIND_BUDGET, binary,  # noqa: F401
                         env, go, reproduces)

FILL = ('mount -t tmpfs -o size=16k cgofuzz-full "$1" && '
        'dd if=/dev/zero of="$1/.fill" bs=4k count=16 2>/dev/null; '
        'shift; exec "$@"')


@pytest.fixture(scope="session")
def full_mount(tmp_path_factory):
    """A function making argv run with a full tmpfs over a directory."""
    ns = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    probe = str(tmp_path_factory.mktemp("probe"))
    if not shutil.which("unshare"):
        pytest.skip("unshare missing: no full file system to fuzz on")
    r = subprocess.run(ns + ["sh", "-c", FILL, "sh", probe, "sh", "-c",
                             'echo x > "$0/f"', probe],
                       capture_output=True, text=True)
    if r.returncode == 0:  # the write to the full tmpfs failed (ENOSPC)
        pytest.skip("a tmpfs cannot be mounted here (%s): %s"
                    % (" ".join(ns), r.stderr.strip()[-200:]))
    return lambda where, argv: ns + ["sh", "-c", FILL, "sh", where] + argv


def test_full_tmpdir_is_an_error_at_start(env, full_mount):
    """$TMPDIR full: a message naming it and the resource, exit 1, before
    anything runs (no SIGBUS from a shared-memory file later)."""
    r = run(full_mount(env.tmpdir, env.cmd("FuzzCrash", [FIND_BUDGET])),
            env.pkg, env.env())
    assert r.rc == 1, str(r)
    assert "$TMPDIR (%s)" % env.tmpdir in r.stderr, str(r)
    assert "No space left on device" in r.stderr, str(r)
    assert "signal" not in r.out.lower(), str(r)
    assert not os.listdir(env.tmpdir)  # the tmpfs went with its namespace


def test_full_cache_is_a_warning(env, full_mount):
    """The cache full: one warning naming it, fuzzing goes on, PASS."""
    os.makedirs(env.cache)
    r = run(full_mount(env.cache, env.cmd("FuzzClean", [CLEAN_BUDGET])),
            env.pkg, env.env())
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert env.cache in r.stderr and "No space left" in r.stderr, str(r)


def test_full_testdata_falls_back(env, full_mount):
    """testdata full: the failure goes to $TMPDIR/cgofuzz-failures, is
    named, and reproduces from there."""
    td = os.path.join(env.pkg, "testdata")
    os.makedirs(td)
    r = run(full_mount(td, env.cmd("FuzzCrash", [FIND_BUDGET])), env.pkg,
            env.env())
    assert r.rc == 1, str(r)
    paths = written(r.out)
    assert paths and paths[-1].startswith(
        os.path.join(env.tmpdir, "cgofuzz-failures", "FuzzCrash")), str(r)
    dst = os.path.join(td, "fuzz", "FuzzCrash")
    os.makedirs(dst)
    shutil.copy(paths[-1], dst)
    assert reproduces(env, env.pkg,
                      os.path.join(dst, os.path.basename(paths[-1])))


WRAPPER = """package main

import (
\t"os"
\t"syscall"
)

// Runs fakeworker.py with our arguments: a stand-in test binary that has
// Go build information (go1.26's or whichever go built it).
func main() {
\targs := append([]string{"python3", os.Getenv("FAULT_FAKEWORKER")},
\t\tos.Args[1:]...)
\tpanic(syscall.Exec("/usr/bin/env", append([]string{"env"}, args...),
\t\tos.Environ()))
}
"""


@pytest.fixture(scope="session")
def fake_go(go, tmp_path_factory):
    """fakeworker.py behind a Go program (a binary with build info)."""
    d = tmp_path_factory.mktemp("fakego")
    (d / "go.mod").write_text("module fakego\n\ngo 1.22\n")
    (d / "main.go").write_text(WRAPPER)
    exe = str(d / "fakego")
    r = run([go, "build", "-o", exe, "."], str(d),
            {"GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"})
    assert r.rc == 0, str(r)
    return exe


def fake(env, mode, fuzztime, binary=None):
    """A run of FuzzClean through fakeworker.py in mode; binary: the Go
    wrapper, so that cgofuzz reads Go build information."""
    return run(env.cmd("FuzzClean", ["-fuzztime=" + fuzztime, "-parallel=1"],
                       binary or FAKEWORKER), env.pkg,
               env.env(mode, FAULT_CGOFUZZ=env.cgofuzz,
                       FAULT_FAKEWORKER=FAKEWORKER))


@pytest.mark.parametrize("buildinfo", [False, True],
                         ids=["no-buildinfo", "buildinfo"])
def test_half_reply_is_the_workers_fault(env, fake_go, buildinfo):
    """Half a reply, then silence: the hang timer ends it (10 s: with no
    build information the shortest of all releases, not go1.27's 60 s),
    the message says what the worker sent, no input is blamed or
    written."""
    r = fake(env, "half", "50s", fake_go if buildinfo else None)
    assert r.rc == 1, str(r)
    assert ("cannot tell which Go release built it" in r.stderr) != \
        buildinfo, str(r)
    assert re.search(r"fuzzing process \(pid \d+\): it sent part of a reply "
                     r"and then nothing for 10 s: \"\{", r.out), str(r)
    assert "seed corpus entry" not in r.out and not written(r.out), str(r)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))


def test_run_of_no_input_is_not_a_pass(env):
    """-fuzztime ends before any input ran: FAIL, saying so and why."""
    r = fake(env, "half", "3s")
    assert r.rc == 1 and "PASS" not in r.stdout, str(r)
    assert "fuzzing ran no input in" in r.out, str(r)
    assert "sent part of a reply and then nothing" in r.out, str(r)


@pytest.mark.parametrize("buildinfo", [False, True],
                         ids=["no-buildinfo", "buildinfo"])
def test_garbage_first_reply(env, fake_go, buildinfo):
    """A first reply that is not JSON is named as such, with its bytes."""
    r = fake(env, "garbage", "20s", fake_go if buildinfo else None)
    assert r.rc == 1, str(r)
    assert ("its answer to the first call (ping) is not Go's" in r.out
            and '"hello, this is not JSON"' in r.out), str(r)
    assert "EOF" not in r.out, str(r)


def test_not_a_test_binary(env):
    """A program that is no Go test binary nor C target: exit 2, said."""
    true = shutil.which("true")
    r = run([env.cgofuzz, "fuzz", "-fuzz=FuzzX", true], env.pkg, env.env())
    assert r.rc == 2, str(r)
    assert "%s is not a Go test binary" % true in r.stderr, str(r)
    # A real test binary with no target matching -fuzz answers as go test.
    r = run([env.cgofuzz, "fuzz", "-fuzz=NoSuchTarget", env.binary], env.pkg,
            env.env())
    assert r.rc == 0 and "no fuzz tests to fuzz" in r.stderr, str(r)


def go_children(tmpdir):
    """Processes whose environment has GOTMPDIR under tmpdir: the go
    command cgofuzz starts for objdump, and what it starts."""
    pids = []
    for p in os.listdir("/proc"):
        try:
            with open("/proc/%s/environ" % p, "rb") as f:
                if ("GOTMPDIR=" + tmpdir).encode() in f.read():
                    pids.append(p)
        except OSError:
            pass
    return pids


def test_go_command_leaves_nothing(env, go, tmp_path):
    """A run that ends while the go command still builds objdump (for the
    dictionary's constants; an empty GOCACHE makes it build): nothing of
    the go command is left in $TMPDIR."""
    gocache = str(tmp_path / "gocache")
    r = env.run("FuzzClean", ["-fuzztime=200x"], GOCACHE=gocache)
    assert r.rc == 0, str(r)
    assert not os.listdir(env.tmpdir), os.listdir(env.tmpdir)


def scratch_has(tmpdir, part):
    """Whether cgofuzz's own directory in tmpdir holds an entry whose name
    starts with part."""
    for d in os.listdir(tmpdir):
        if d.startswith("cgofuzz-"):
            try:
                if any(n.startswith(part)
                       for n in os.listdir(os.path.join(tmpdir, d))):
                    return True
            except OSError:
                pass
    return False


@pytest.mark.parametrize("moment", ["discovery", "objdump", "fuzzing"])
def test_sigkill_leaves_nothing(env, go, tmp_path, moment):
    """cgofuzz SIGKILLed while the target's arguments are discovered, while
    the go command builds objdump (an empty GOCACHE), or while fuzzing:
    its children die with it and $TMPDIR is left as it was (everything went
    into one directory that a janitor process removes)."""
    # Only the objdump case needs the go command to build (an empty
    # GOCACHE); the others keep the warm one (building takes seconds).
    # Discovery is made to last (the target sleeps before f.Fuzz).
    extra = {"GOCACHE": str(tmp_path / "gocache")} if moment == "objdump" \
        else {"SLOW_START": "1"} if moment == "discovery" else {}
    out = str(tmp_path / "out")
    with open(out, "w") as f:
        p = subprocess.Popen(env.cmd("FuzzSlowStart", ["-fuzztime=60s"]),
                             cwd=env.pkg, stdout=f, stderr=subprocess.STDOUT,
                             start_new_session=True,
                             env=testlib.environ(env.env(**extra)))
    try:
        if moment == "discovery":
            wait_until(lambda: scratch_has(env.tmpdir, "discover-"),
                       "discovery's directory", timeout=60)
        elif moment == "objdump":
            wait_until(lambda: go_children(env.tmpdir), "the go command",
                       timeout=60)
        else:
            wait_until(lambda: "execs:" in open(out).read(), "fuzzing",
                       timeout=60)
        p.send_signal(signal.SIGKILL)
        p.wait()
        wait_until(lambda: not os.listdir(env.tmpdir) and
                   not go_children(env.tmpdir), "$TMPDIR empty", timeout=30,
                   detail=lambda: "%s %s" % (os.listdir(env.tmpdir),
                                             go_children(env.tmpdir)))
    finally:
        testlib.kill_group(p.pid)


# Moments after the start (s) at which cgofuzz is SIGKILLed: before it has
# read its binary, during discovery and the warm-up, while fuzzing writes
# new inputs to the cache. Pinned, so that every run kills at the same ones.
KILL_MOMENTS = [0.0, 0.01, 0.03, 0.1, 0.25, 0.5, 1.0, 2.0]


@pytest.mark.parametrize("delay", KILL_MOMENTS)
def test_sigkill_at_any_moment_keeps_everything_whole(env, tmp_path, delay):
    """cgofuzz SIGKILLed at a pinned moment of a run that keeps finding
    inputs (FuzzClean, new cache files): no process of it is left, $TMPDIR
    is left as it was, and every file in the cache is a whole corpus file
    (cgofuzz corpus fmt reads it); a second run on that cache passes."""
    p = subprocess.Popen(env.cmd("FuzzClean", ["-fuzztime=60s"]),
                         cwd=env.pkg, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True,
                         env=testlib.environ(env.env()))
    try:
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        testlib.wait_group_gone(p.pid, "after SIGKILL at %.2f s" % delay,
                                timeout=30)
        wait_until(lambda: not os.listdir(env.tmpdir), "$TMPDIR empty",
                   timeout=30, detail=lambda: str(os.listdir(env.tmpdir)))
    finally:
        testlib.kill_group(p.pid)
    files = []
    for root, dirs, names in os.walk(env.cache):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        files += [os.path.join(root, n) for n in names
                  if not n.startswith(".")]
    if files:
        r = run([env.cgofuzz, "corpus", "fmt"] + files, env.pkg)
        assert r.rc == 0, str(r)
    r = env.run("FuzzClean", [CLEAN_BUDGET])
    assert r.rc == 0 and "PASS" in r.stdout, str(r)


def test_slow_inputs_are_not_hangs(env):
    """Every input takes 300 ms, three times a fuzz call's time, so each
    call runs one input and the shared memory's count reads 1 at every
    look: the watch counts a new call as progress, and a 1 s per-input
    limit is not a hang (it was judged one after 1 s in 2 of 3 runs)."""
    r = env.run("FuzzSlowInputs", ["-fuzztime=24x", "-fuzztimeout=1s",
                                   "-parallel=2"])
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert "hung" not in r.out, str(r)


def cpu_quota():
    """The CPU quota of this process's cgroup (v2 cpu.max, v1
    cfs_quota_us), or None: time a throttled group waits is no run delay."""
    for path in ("/sys/fs/cgroup/cpu.max", "/sys/fs/cgroup/cpu/cpu.cfs_quota_us"):
        try:
            with open(path) as f:
                v = f.read().split()[0]
        except OSError:
            continue
        if v not in ("max", "-1"):
            return v
    return None


def test_busy_machine_is_not_a_hang(env):
    """Inputs that each take 400 ms of CPU, under a 1 s hang timer, with
    four workers and two CPU hogs beside them on this machine's cores: each
    takes longer than 1 s of wall time on two cores, but the worker is
    judged by the time it had a CPU (its run queue wait, from the kernel's
    schedstat, is not counted), so none is stopped, re-run or written."""
    if not os.path.exists("/proc/self/task/%d/schedstat" % os.getpid()):
        pytest.skip("no /proc/PID/task/TID/schedstat: no run delay to read")
    if cpu_quota():
        pytest.skip("a CPU quota (%s): throttled time is no run delay" %
                    cpu_quota())
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(2)]
    try:
        r = env.run("FuzzBusyInputs", ["-fuzztime=16x", "-fuzztimeout=1s",
                                       "-parallel=4"])
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert "not a hang" not in r.stderr, str(r)
    assert "hung" not in r.out, str(r)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))


def test_hang_that_does_not_come_again_is_not_recorded(env):
    """An input that passed the hang timer once (a busy machine) but runs
    in time alone: not recorded, said, and the run goes on to PASS."""
    flag = os.path.join(env.tmp, "slow-once")
    r = env.run("FuzzSlowOnce", ["-fuzztime=3000x", "-fuzztimeout=1s"],
                SLOW_ONCE_FLAG=flag)
    assert os.path.exists(flag), str(r)  # the slow input did run
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert "not a hang, not recorded" in r.stderr, str(r)
    assert not written(r.out)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))


def test_go_timer_hang_that_does_not_come_again_is_not_recorded(env):
    """The same input slow once past a Go worker's own 10 s timer (Go
    1.26: "panic: deadlocked!"), with cgofuzz's watch set later (30 s):
    the worker's own report is a hang too, and the input is run again
    alone before it is blamed; it runs in time, so nothing is recorded."""
    flag = os.path.join(env.tmp, "slow-once")
    r = env.run("FuzzSlowOnce", ["-fuzztime=3000x", "-fuzztimeout=30s"],
                SLOW_ONCE_FLAG=flag, SLOW_ONCE_SECONDS="12")
    assert os.path.exists(flag), str(r)
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert "not a hang, not recorded" in r.stderr, str(r)
    assert not written(r.out)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))


def test_hang_that_comes_again_is_recorded(env):
    """A real hang (with -fuzztimeout below Go's own timer, so cgofuzz's
    watch stops it): run again alone, it hangs again; recorded, said so,
    and the input reproduces as a test timeout."""
    r = env.run("FuzzSleepy", [FIND_BUDGET, "-fuzztimeout=1s"])
    assert r.rc == 1, str(r)
    assert "it hung again when run alone" in r.out, str(r)
    paths = written(r.out)
    assert paths, str(r)
    with open(os.path.join(env.pkg, paths[-1]), "rb") as f:
        assert f.read().split(b"\n")[1].startswith(b'[]byte("H'), paths


def test_hang_confirmed_by_its_early_rerun(env):
    """With a hang timer of 4 s or more, an input whose count stood still
    for a second is run again at once in a process of its own while its
    worker waits stopped (coord_suspect.c): the hang is recorded from that
    re-run, without a second one after the timer."""
    r = env.run("FuzzSleepy", [FIND_BUDGET, "-fuzztimeout=5s"])
    assert r.rc == 1, str(r)
    assert "it hung again when run again in a process of its own" in r.out, \
        str(r)
    assert "it hung again when run alone" not in r.out, str(r)
    paths = written(r.out)
    assert paths, str(r)
    with open(os.path.join(env.pkg, paths[-1]), "rb") as f:
        assert f.read().split(b"\n")[1].startswith(b'[]byte("H'), paths


def test_slow_once_answered_by_its_early_rerun_is_not_recorded(env):
    """The input slow once (7 s, past a 5 s timer): its early re-run
    answers at once, so when its worker's timer runs out, nothing is
    recorded and the run goes on to PASS."""
    flag = os.path.join(env.tmp, "slow-once")
    r = env.run("FuzzSlowOnce", ["-fuzztime=3000x", "-fuzztimeout=5s"],
                SLOW_ONCE_FLAG=flag, SLOW_ONCE_SECONDS="7")
    assert os.path.exists(flag), str(r)
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert "not a hang, not recorded" in r.stderr, str(r)
    assert not written(r.out)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))


@pytest.mark.parametrize("name", ["Fuzz/../../escaped", "Fuzz\\x", "FuzzA B",
                                  "Fuzz.."])
def test_target_name_must_be_an_identifier(env, tmp_path, name):
    """A binary whose -test.list names a target that is no Go identifier
    (it would become testdata/fuzz/<name> and a cache directory): refused,
    exit 2, nothing made."""
    fake = tmp_path / "fake.test"
    fake.write_text("#!/bin/sh\nfor a; do case $a in -test.list=*) "
                    "printf '%%s\\n' '%s'; exit 0;; esac; done\nexit 2\n"
                    % name.replace("'", ""))
    fake.chmod(0o755)
    r = run([env.cgofuzz, "fuzz", "-fuzz=.", "-fuzzcachedir=" + env.cache,
             str(fake)], env.pkg, env.env())
    assert r.rc == 2, str(r)
    assert "which is no Go identifier: refused" in r.stderr, str(r)
    assert not os.path.exists(os.path.join(env.pkg, "testdata"))
    assert not os.path.exists(env.cache)

"""fuzzlib.py: running `cgofuzz fuzz` and Go test binaries from the pytest
suites of tests/e2e and tests/faults (tests/faults/test_faults.py puts this
directory on sys.path).

Every process is started in a session of its own, so that a case can send
a signal to the coordinator and its workers at once and tell when none of
them is left. Time-outs are hang guards only: when one expires, the whole
process group is killed and the case fails saying what hung, with the
output so far. Cases wait for observable conditions (a line of output, a
file, worker processes), never for a fixed time.
"""
import glob
import os
import re
import signal
import subprocess
import time

import pytest

# GODEBUG=fuzzseed=SEED pins the mutator's random stream of Go's workers and
# of cgofuzz's C workers (worker_server.c), so that runs with an exec budget
# find the same things from one run to the next (the coordinator's own
# scheduling is not seeded: runs with several corpus entries may still
# differ a little).
SEED = 1
# The budget of runs that the case itself ends (with a signal): never
# reached, the hang guards end a run that was not stopped.
UNTIL_STOPPED = "-fuzztime=1000000000x"
HANG_GUARD = 240  # seconds; generous: the machine is shared and has 2 cores


def fuzz_env(base=None, seed=SEED, **extra):
    """The environment of a fuzzing run: `base` (os.environ by default)
    with fuzzseed=seed added to the GODEBUG settings already there (an
    earlier fuzzseed is replaced), plus `extra`."""
    env = dict(os.environ if base is None else base)
    kept = [s for s in env.get("GODEBUG", "").split(",")
            if s and not s.startswith("fuzzseed=")]
    env["GODEBUG"] = ",".join(kept + ["fuzzseed=%d" % seed])
    env.update(extra)
    return env


def fuzz_cmd(cgofuzz, binary, target, cache, extra=(), parallel=2):
    """`cgofuzz fuzz` of one target (an anchored -fuzz) with its cache."""
    return [cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=%d" % parallel,
            "-fuzzcachedir=" + cache] + list(extra) + [binary]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def written(stdout):
    """The paths that "Failing input written to PATH" lines name."""
    return re.findall(r"Failing input written to (\S+)", stdout)


def corpus_entries(d):
    """The entries of a corpus or cache directory as Go and cgofuzz read it:
    its regular files (dot-files included), sorted. Subdirectories, such
    as the hidden .NAME.tmp-XXXXXX one a coordinator killed while writing
    leaves (harmless by design), are not entries."""
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if os.path.isfile(os.path.join(d, f)))


class Result:
    """A finished process: rc, stdout, stderr; str() is the whole output,
    for assertion messages."""

    def __init__(self, cmd, rc, stdout, stderr):
        self.cmd, self.rc, self.stdout, self.stderr = cmd, rc, stdout, stderr
        self.pgid = None

    @property
    def out(self):
        return self.stdout + self.stderr

    def __str__(self):
        return "$ %s\nexit status %s\n--- stdout:\n%s\n--- stderr:\n%s" % (
            " ".join(self.cmd), self.rc, self.stdout[-6000:],
            self.stderr[-6000:])


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(cmd, cwd, env=None, timeout=HANG_GUARD):
    """Runs cmd to its end in a session of its own; a Result. The time-out
    is a hang guard: the group is killed and the case fails."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p.pid)
        out, err = p.communicate()
        r = Result(cmd, None, out.decode(errors="replace"),
                   err.decode(errors="replace"))
        pytest.fail("hang guard: did not end within %d s\n%s" % (timeout, r))
    r = Result(cmd, p.returncode, out.decode(errors="replace"),
               err.decode(errors="replace"))
    r.pgid = p.pid  # for wait_group_gone
    return r


def wait_until(cond, what, timeout=HANG_GUARD, detail=lambda: ""):
    """Polls cond() until it returns a true value, which is returned; fails
    the case (naming `what`) when the hang guard expires first."""
    end = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            pytest.fail("hang guard: %s did not happen within %d s\n%s"
                        % (what, timeout, detail()))
        time.sleep(0.02)


def proc_stat(pid):
    """(state, pgrp) of a process from /proc, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[2])
    except (OSError, IndexError, ValueError):
        return None


def alive(pid):
    """The process exists and is not a zombie."""
    st = proc_stat(pid)
    return st is not None and st[0] != "Z"


def children(pid):
    """The pids of the living children of pid."""
    kids = []
    for t in glob.glob("/proc/%d/task/*/children" % pid):
        kids += [int(x) for x in read(t).split()]
    return [k for k in kids if alive(k)]


def descendants(pid):
    """The pids of all living descendants of pid."""
    out, todo = [], [pid]
    while todo:
        kids = children(todo.pop())
        out += kids
        todo += kids
    return out


def group_members(pgid):
    """The living (non-zombie) processes of a process group."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = proc_stat(int(d))
            if st and st[1] == pgid and st[0] != "Z":
                out.append(int(d))
    return out


def wait_group_gone(pgid, what, timeout=60):
    """Waits until no living process is left in the group (the coordinator
    and its workers); fails listing the orphans otherwise."""
    def orphans():
        return ["%d %s" % (p, read("/proc/%d/cmdline" % p).replace("\0", " "))
                for p in group_members(pgid)]
    wait_until(lambda: not group_members(pgid), what + ": no orphan processes",
               timeout, lambda: "left: %s" % orphans())


class Background:
    """A process started in a session of its own, its stdout and stderr
    going to files in `outdir` (named after `tag`)."""

    def __init__(self, cmd, cwd, env, outdir, tag="bg"):
        self.cmd = cmd
        self.outpath = os.path.join(outdir, tag + ".out")
        self.errpath = os.path.join(outdir, tag + ".err")
        with open(self.outpath, "w") as o, open(self.errpath, "w") as e:
            self.p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=o,
                                      stderr=e, start_new_session=True)
        self.pid = self.p.pid
        self.rc = None

    @property
    def stdout(self):
        return read(self.outpath)

    @property
    def stderr(self):
        return read(self.errpath)

    def result(self):
        return Result(self.cmd, self.rc, self.stdout, self.stderr)

    def wait_for_text(self, text, timeout=HANG_GUARD):
        """Waits for text in its stderr or stdout; fails if the process
        ends without printing it or the hang guard expires."""
        def seen():
            if text in self.stderr or text in self.stdout:
                return True
            if self.p.poll() is not None:
                self.rc = self.p.returncode
                pytest.fail("ended before printing %r\n%s"
                            % (text, self.result()))
            return False
        wait_until(seen, "the output %r" % text, timeout,
                   lambda: str(self.result()))

    def wait_for_workers(self, n=2, timeout=HANG_GUARD):
        """Waits until at least n processes run under it; their pids."""
        return wait_until(
            lambda: (lambda k: k if len(k) >= n else None)(
                descendants(self.pid)),
            "%d worker processes" % n, timeout, lambda: str(self.result()))

    def wait(self, timeout=HANG_GUARD):
        """Its exit status; the hang guard kills the group and fails."""
        try:
            self.rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(self.pid)
            self.rc = self.p.wait()
            pytest.fail("hang guard: did not end within %d s\n%s"
                        % (timeout, self.result()))
        return self.rc

    def signal(self, sig):
        os.kill(self.pid, sig)

    def signal_group(self, sig):
        os.killpg(self.pid, sig)

    def cleanup(self):
        """Kills whatever is left of it (a case that failed half-way)."""
        for k in descendants(self.pid):
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass
        kill_group(self.pid)
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()


@pytest.fixture
def background():
    """start(cmd, cwd, env, outdir, tag) -> Background; everything started
    is killed at the end of the case."""
    started = []

    def start(cmd, cwd, env, outdir, tag="bg"):
        b = Background(cmd, cwd, env, outdir, tag)
        started.append(b)
        return b
    yield start
    for b in started:
        b.cleanup()


def build_go_test(go, pkgdir, out):
    """`go test -c -fuzz=. -o out` in pkgdir; fails the case with go's
    output when it does not build."""
    r = run([go, "test", "-c", "-fuzz=.", "-o", out, "."], pkgdir)
    assert r.rc == 0, "go test -c failed\n%s" % r
    return out

"""Fault injection into `cgofuzz fuzz` (docs/faults.md has the table).

tests/coord/faults/gopkg is built once per session with `go test -c -fuzz=.`;
every case fuzzes in its own copy of the package, with its own cache and
$TMPDIR (shared-memory files, first fallback for failures), a pinned
GODEBUG fuzzseed and, unless the case is about time, an exec budget.
Protocol faults go through fakeworker.py. The cases check the exit status
and message, that cgofuzz does not crash, that no process is left behind,
and that every failure written reproduces.

The cases that inject faults into the coordinator's own system calls need
strace (scripts/install-deps.sh installs it), those that make a directory
unwritable as root need chattr: without them they are skipped, saying so.
"""
import hashlib
import os
import re
import shutil
import signal
import time

import pytest

import testlib
from testlib import (corpus_entries, read, run, wait_group_gone, wait_until,
                     written)

HERE = os.path.dirname(os.path.abspath(__file__))
FAKEWORKER = os.path.join(HERE, "fakeworker.py")
# Every planted bug of gopkg is found within a few hundred execs with the
# pinned seed; the run ends at the first failure.
FIND_BUDGET = "-fuzztime=1000000x"
# Enough for FuzzClean to find several new interesting inputs.
CLEAN_BUDGET = "-fuzztime=20000x"
# The fuzzseed this suite's budgets and expectations were tuned with.
SEED = 1


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def binary(go, tmp_path_factory):
    """The test binary of tests/coord/faults/gopkg, built once (from a copy)."""
    return testlib.build_go_test_copy(go, os.path.join(HERE, "gopkg"),
                                      tmp_path_factory, "gopkg")


class Env:
    """One case's directories: package copies (new_pkg), a cache and a
    private $TMPDIR, all under the case's tmp_path."""

    def __init__(self, cgofuzz, binary, tmp):
        self.cgofuzz, self.binary, self.tmp = cgofuzz, binary, tmp
        self.n = 0
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        self.pkg = self.new_pkg()

    def new_pkg(self):
        self.n += 1
        d = os.path.join(self.tmp, "pkg%d" % self.n)
        shutil.copytree(os.path.join(HERE, "gopkg"), d)
        return d

    def cmd(self, target, extra, binary=None, cache=None, parallel=2):
        return testlib.fuzz_cmd(self.cgofuzz, binary or self.binary, target,
                                cache or self.cache, extra, parallel)

    def env(self, mode=None, **extra):
        e = testlib.fuzz_env(SEED, FAULT_REAL=self.binary,
                             FAULT_CGOFUZZ=self.cgofuzz, TMPDIR=self.tmpdir)
        if mode is not None:
            e["FAULT_MODE"] = mode
        e.update(extra)
        return e

    def run(self, target, extra, pkg=None, mode=None, **env):
        """A run to its end; mode: through fakeworker.py in that mode."""
        return run(self.cmd(target, extra, FAKEWORKER if mode else None),
                   pkg or self.pkg, self.env(mode, **env))

    def start(self, background, target, extra, pkg=None, tag="bg"):
        return background(self.cmd(target, extra), pkg or self.pkg,
                          self.env(), self.tmp, tag)

    def shm_files(self, tmpdir=None):
        """What is left in $TMPDIR but the failure fallback, once the
        janitor of a killed cgofuzz (csrc/base/scratch.c) had its chance to
        remove cgofuzz's directory: waited for, up to 10 s."""
        def left():
            return [f for f in os.listdir(tmpdir or self.tmpdir)
                    if f != "cgofuzz-failures"]
        end = time.monotonic() + 10
        while left() and time.monotonic() < end:
            time.sleep(0.05)
        return left()


@pytest.fixture
def env(cgofuzz, binary, tmp_path):
    return Env(cgofuzz, binary, str(tmp_path))


def reproduces(env, pkg, path):
    """go test (the binary in regression mode) fails on that file."""
    target = os.path.basename(os.path.dirname(path))
    r = run([env.binary, "-test.run=%s/%s" % (target, os.path.basename(path)),
             "-test.timeout=20s"], pkg)
    return r.rc != 0


def tree(d):
    """Everything under d, relative, directories ending in '/'."""
    out = []
    for root, dirs, files in os.walk(d):
        rel = os.path.relpath(root, d)
        for x in dirs:
            out.append(os.path.normpath(os.path.join(rel, x)) + "/")
        for x in files:
            out.append(os.path.normpath(os.path.join(rel, x)))
    return sorted(out)


# --- worker-side protocol faults (fakeworker.py) ---

@pytest.mark.parametrize("mode,want", [
    pytest.param("truncate", "communicating with fuzzing process",
                 id="truncate")] + [
    pytest.param(mode, "", id=mode)
    for mode in ("unasked", "oversize", "close", "noping")])
def test_protocol(env, mode, want):
    """A worker that truncates, invents, inflates or never sends replies
    (or closes its pipes): the run ends (exit 0 or 1, not a crash of
    cgofuzz) with the expected message, and writes no failure."""
    r = env.run("FuzzClean", [CLEAN_BUDGET], mode=mode)
    assert r.rc in (0, 1), "want exit 0 or 1\n%s" % r
    assert want in r.stdout, "want %r\n%s" % (want, r)
    assert not written(r.out), "a failure was written\n%s" % r


def test_call_not_written(env):
    """A worker whose call pipe is closed when the coordinator writes its
    next call (it is dying): that is its death (coord_proc.c marks the slot
    lost, the loop hands it to coord_resp.c at once), handled as one found
    by reading its reply pipe: the input sent is recorded with the exit
    status, once, and the run ends (nothing waits on a call never sent)."""
    r = env.run("FuzzClean", [CLEAN_BUDGET], mode="closein")
    assert r.rc == 1, str(r)
    assert "fuzzing process hung or terminated unexpectedly: exit status 3" \
        in r.stdout, str(r)
    assert len(written(r.stdout)) == 1, str(r)


@pytest.mark.parametrize("mode", ["shmlen", "shmdata"])
def test_shm_tampered(env, mode):
    """Go's coordinator checks the input in shm after each call
    (worker.go: "workerServer.fuzz modified input") and stops with that
    error, writing nothing since the input is no longer known. cgofuzz
    does the same, and does not read past the mapping for a bogus
    value_len."""
    r = env.run("FuzzCrash", [FIND_BUDGET], mode=mode)
    assert r.rc == 1 and "workerServer.fuzz modified input" in r.stdout, \
        str(r)
    assert not written(r.stdout), "a failure was written\n%s" % r


def test_death_during_minimize(env):
    """A worker that dies (SIGKILL) during a Minimize call: FAIL, the
    failure written once, and it reproduces."""
    r = env.run("FuzzMinDie", [FIND_BUDGET])
    w = written(r.stdout)
    assert r.rc == 1 and len(w) == 1, str(r)
    assert reproduces(env, env.pkg, os.path.join(env.pkg, w[0])), \
        "%s does not reproduce" % w[0]


def test_sigstop_workers(env, background):
    """Workers stopped with SIGSTOP while fuzzing: the run still ends
    (this case is about -fuzztime=3s: the coordinator must not wait for
    the stopped workers forever), exit 0 or 1, nothing left behind."""
    bg = env.start(background, "FuzzClean", ["-fuzztime=3s"])
    bg.wait_for_text("now fuzzing")
    for k in bg.wait_for_workers(2):
        os.kill(k, signal.SIGSTOP)
    rc = bg.wait()
    assert rc in (0, 1), str(bg.result())
    wait_group_gone(bg.pid, "SIGSTOPped workers")


# --- coordinator side ---

def test_coordinator_sigkill(env, background):
    """The coordinator SIGKILLed while fuzzing: its workers do not outlive
    it."""
    bg = env.start(background, "FuzzClean", [testlib.UNTIL_STOPPED])
    bg.wait_for_text("now fuzzing")
    kids = bg.wait_for_workers(2)
    bg.signal(signal.SIGKILL)
    bg.wait()
    wait_until(lambda: not [k for k in kids if testlib.alive(k)],
               "the workers' exit after the coordinator's SIGKILL",
               60, lambda: "left: %s" % [k for k in kids if testlib.alive(k)])
    wait_group_gone(bg.pid, "coordinator SIGKILL")


def test_sigterm_while_fuzzing(env, background):
    """SIGTERM while fuzzing: PASS, no orphans."""
    bg = env.start(background, "FuzzClean", [testlib.UNTIL_STOPPED])
    bg.wait_for_text("now fuzzing")
    bg.wait_for_workers(2)
    bg.signal(signal.SIGTERM)
    assert bg.wait() == 0, str(bg.result())
    wait_group_gone(bg.pid, "SIGTERM")


def test_sigint_while_minimizing(env, background):
    """SIGINT while a crasher is minimized (FuzzSlowMin: 2 ms per exec):
    the crasher is written as far as it got, FAIL, it reproduces, no
    orphans."""
    bg = env.start(background, "FuzzSlowMin", [testlib.UNTIL_STOPPED])
    bg.wait_for_text("minimizing")
    bg.signal(signal.SIGINT)
    rc = bg.wait()
    out = bg.stdout + bg.stderr
    w = written(out)
    assert rc == 1 and len(w) == 1, str(bg.result())
    assert reproduces(env, env.pkg, os.path.join(env.pkg, w[0])), \
        "%s does not reproduce" % w[0]
    wait_group_gone(bg.pid, "SIGINT while minimizing")


@pytest.fixture
def block_dir(tool):
    """block_dir(d) creates d so that nothing can be created in it. Root
    (CI) ignores a read-only mode, so there d is made immutable (chattr +i
    stops root too); skips the case when that is not possible here. Every
    blocked directory is unblocked at the end of the case."""
    blocked = []

    def block(d):
        os.makedirs(d)
        blocked.append(d)
        if os.geteuid() != 0:
            os.chmod(d, 0o555)
            return
        r = run([tool("chattr"), "+i", d], "/")
        if r.rc != 0:
            pytest.skip("chattr +i does not work here, and root ignores a "
                        "read-only mode: %s" % r.stderr.strip())
    yield block
    for d in blocked:
        unblock_dir(d)


def unblock_dir(d):
    if shutil.which("chattr"):
        run(["chattr", "-i", d], "/")
    os.chmod(d, 0o755)


def test_write_fallback(env, block_dir):
    """testdata/fuzz/FuzzCrash exists but nothing can be created in it:
    FAIL, saying why and where the failure went ($TMPDIR/cgofuzz-failures);
    that file holds the input, and copied where go test looks it
    reproduces."""
    d = os.path.join(env.pkg, "testdata", "fuzz", "FuzzCrash")
    block_dir(d)
    try:
        r = env.run("FuzzCrash", [FIND_BUDGET])
    finally:
        unblock_dir(d)
    m = re.search(r"Failing input written to (\S+)", r.stdout)
    path = m and m.group(1)
    assert r.rc == 1 and path and path.startswith(env.tmpdir), str(r)
    assert "could not write the failing input to testdata/fuzz/FuzzCrash" \
        in r.out and "written to %s instead" % path in r.out, str(r)
    assert os.path.isfile(path) and \
        read(path).startswith("go test fuzz v1\n"), \
        "the fallback file %s does not hold the input" % path
    shutil.copy(path, d)
    assert reproduces(env, env.pkg, os.path.join(d, os.path.basename(path))), \
        "the fallback file does not reproduce"


STDERR_INPUT = (r"could not be written anywhere; here it is:\n"
                r"(go test fuzz v1\n(?:[\w\[\].]+\(.*\)\n)+)")


def test_nothing_writable(env, block_dir):
    """Every place a failing input can go is blocked: testdata/fuzz/
    FuzzCrash is immutable, and "cgofuzz-failures" is a plain file both in
    $TMPDIR (which stays writable for the shared-memory files) and in the
    working directory. FAIL, the three places are named, the input is
    printed in full on stderr, and saved by hand it reproduces."""
    d = os.path.join(env.pkg, "testdata", "fuzz", "FuzzCrash")
    block_dir(d)
    for where in (env.tmpdir, env.pkg):
        open(os.path.join(where, "cgofuzz-failures"), "w").close()
    try:
        r = env.run("FuzzCrash", [FIND_BUDGET])
    finally:
        unblock_dir(d)
    # The header, then one Go value expression per line ([]byte("..."), ...).
    m = re.search(STDERR_INPUT, r.stderr)
    assert r.rc == 1 and \
        r.stderr.count("could not write the failing input to") == 3, str(r)
    assert m, "the input is not printed on stderr\n%s" % r
    saved = os.path.join(d, "from-stderr")
    with open(saved, "w") as f:
        f.write(m.group(1))
    assert reproduces(env, env.pkg, saved), "the printed input does not " \
        "reproduce:\n%s" % m.group(1)


def test_shared_cache(env, background):
    """Two coordinators share one cache directory: both PASS, and the
    cache holds only whole corpus files (a subdirectory, such as a
    temporary one, is not an entry)."""
    procs = [env.start(background, "FuzzClean", [CLEAN_BUDGET],
                       pkg=env.new_pkg(), tag="run%d" % i) for i in (1, 2)]
    rcs = [p.wait() for p in procs]
    text = "\n".join(str(p.result()) for p in procs)
    assert rcs == [0, 0], text
    files = corpus_entries(os.path.join(env.cache, "FuzzClean"))
    bad = [f for f in files
           if not open(f, "rb").read().startswith(b"go test fuzz v1\n")]
    assert files and not bad, "%d files, not whole: %s\n%s" % (
        len(files), bad, text)


def test_bad_cache(env):
    """Malformed or wrong-type files in the cache are skipped, not fatal
    (FuzzClean never fails): PASS, one warning naming the cache (Go skips
    silently; its readCache has a TODO to warn), each bad file named once
    with Go's reason. Subdirectories (a plain one, and the hidden
    temporary one a coordinator killed mid-write leaves) are not files and
    are not named."""
    d = os.path.join(env.cache, "FuzzClean")
    os.makedirs(d)
    bad = {"garbage": b"garbage\n", "empty": b"",
           "wrongtype": b'go test fuzz v1\nstring("Zoo")\n',
           "wrongarity": b'go test fuzz v1\n[]byte("Z")\n[]byte("Z")\n',
           "badversion": b'go test fuzz v2\n[]byte("Z")\n',
           "binary": bytes(range(256))}
    for k, v in bad.items():
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)
    os.makedirs(os.path.join(d, "subdir"))
    leftover = os.path.join(d, ".0123456789abcdef.tmp-Ab12Cd")
    os.makedirs(leftover)
    with open(os.path.join(leftover, "0123456789abcdef"), "wb") as f:
        f.write(b"go test fuzz v1\n[]by")
    r = env.run("FuzzClean", ["-fuzztime=2000x"])
    assert r.rc == 0 and "PASS" in r.stdout, str(r)
    assert r.stderr.count("warning: skipping malformed files in the fuzz "
                          "cache") == 1 and d in r.stderr, str(r)
    lines = [line for line in r.stderr.splitlines()
             if line.startswith("\t" + d)]
    named = sorted(os.path.basename(line.split(":")[0]) for line in lines)
    assert named == sorted(bad), "named %s\n%s" % (named, r)
    assert all(len(line.split(": ", 1)) == 2 and line.split(": ", 1)[1]
               for line in lines), "a file named without a reason\n%s" % r
    assert "mismatched types in corpus entry: [string], want [[]uint8]" \
        in r.stderr and "wrong number of values in corpus entry: 2, want 1" \
        in r.stderr, "not Go's reasons\n%s" % r


def test_shm_capacity(env):
    """Go's workers have 100 MiB of shared memory for the value; a
    testdata input over it is refused with a clear error (exit 1 or 2),
    and nothing crashes."""
    d = os.path.join(env.pkg, "testdata", "fuzz", "FuzzClean")
    os.makedirs(d)
    huge = os.path.join(d, "huge")
    with open(huge, "w") as f:
        f.write('go test fuzz v1\n[]byte("%s")\n' % ("A" * ((100 << 20) + 1)))
    try:
        r = env.run("FuzzClean", ["-fuzztime=200x"])
    finally:
        os.remove(huge)  # 100 MiB: not kept among pytest's old tmp dirs
    assert r.rc in (1, 2) and ("too large" in r.out or "capacity" in r.out
                               or "shared memory" in r.out), str(r)


# --- faults in the coordinator's own system calls (strace) ---
#
# strace traces the coordinator only (no -f: the workers it forks are not
# traced) and tampers with one chosen call: a delay (the window a ^C has to
# hit), an error (ENOSPC, EINTR) or a signal. ZRun makes the crash-file
# write happen at the same point of every run, so that the call can be
# chosen by its number (strace's when=N).

# "?": no error if the architecture lacks the call (arm64 has no rename).
RENAMES = ("rename", "renameat", "renameat2")
TRACED = "openat,write,close," + ",".join("?" + r for r in RENAMES)
Z_INPUT = b'go test fuzz v1\n[]byte("Z")\n'
Z_NAME = hashlib.sha256(Z_INPUT).hexdigest()[:16]  # Go's name for that file
DELAY_US = 2000000  # how long a delayed call keeps the coordinator stopped
ENOSPC = "No space left on device"


def strace_env(env, tmpdir):
    """The environment of a coordinator run under strace: a private
    $TMPDIR; LeakSanitizer (ASan builds) cannot work under ptrace and would
    fail the run at exit, so it is off there."""
    asan = os.environ.get("ASAN_OPTIONS", "")
    return env.env(TMPDIR=tmpdir,
                   ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


def strace_calls(log):
    """The coordinator's traced calls from a strace -n -o log, in order, as
    (name, n, line, nr): n counts the calls of that name so far (strace's
    when= numbering), nr is the system call's number; a signal is
    (SIGNAME, 0, line, None)."""
    calls, seen = [], {}
    for line in read(log).splitlines():
        m = re.match(r"\[\s*(\d+)\]\s*(.*)", line)
        nr, line = (int(m.group(1)), m.group(2)) if m else (None, line)
        m = re.match(r"(\w+)\(", line)
        if m:
            seen[m.group(1)] = seen.get(m.group(1), 0) + 1
            calls.append((m.group(1), seen[m.group(1)], line, nr))
        elif line.startswith("--- SIG"):
            calls.append((line.split()[1], 0, line, None))
    return calls


class ZRun:
    """FuzzCrash whose failing input is "Z", put in a private cache: the
    worker fails on it during the warm-up, and it cannot shrink, so the
    file written is always Z_NAME holding Z_INPUT. With -parallel=1 the
    coordinator makes the same calls in the same order on every run up to
    that write, so the write(2) of the crash file is always the N-th
    write(2); the `zplan` fixture finds N with a dry run. Private $TMPDIR
    (shm files, first fallback) and package copy."""

    def __init__(self, env, strace, tag):
        self.env, self.strace = env, strace
        self.pkg = env.new_pkg()
        self.root = os.path.join(env.tmp, "%s%d" % (tag, env.n))
        self.cache = os.path.join(self.root, "cache")
        self.tmpdir = os.path.join(self.root, "tmp")
        self.log = os.path.join(self.root, "strace.log")
        os.makedirs(os.path.join(self.cache, "FuzzCrash"))
        os.makedirs(self.tmpdir)
        with open(os.path.join(self.cache, "FuzzCrash", "z"), "wb") as f:
            f.write(Z_INPUT)
        self.testdata = os.path.join(self.pkg, "testdata", "fuzz", "FuzzCrash")
        # The three places a failing input can go, as the coordinator names
        # them in its messages.
        self.places = ["testdata/fuzz/FuzzCrash",
                       os.path.join(self.tmpdir, "cgofuzz-failures", "FuzzCrash"),
                       "cgofuzz-failures/FuzzCrash"]
        self.bg = None

    def start(self, background, inject=None):
        cmd = [self.strace, "-qq", "-n", "-y", "-o", self.log,
               "-e", "trace=" + TRACED]
        if inject:
            cmd += ["-e", "inject=" + inject]
        # -autodict=false: the static dictionary's go tool objdump ends at
        # a moment of its own, and its close(2)s would shift the counts
        # the injections are planned by.
        cmd += self.env.cmd("FuzzCrash", [FIND_BUDGET, "-autodict=false"],
                            cache=self.cache, parallel=1)
        self.bg = background(cmd, self.pkg, strace_env(self.env, self.tmpdir),
                             self.root, "run")

    def finish(self):
        self.rc = self.bg.wait()
        self.stdout, self.stderr = self.bg.stdout, self.bg.stderr
        self.calls = strace_calls(self.log)

    def run(self, background, inject=None):
        self.start(background, inject)
        self.finish()

    def coordinator(self):
        """The coordinator's pid: the child of strace that runs cgofuzz
        (strace forks short-lived children of its own at start-up to probe
        ptrace features)."""
        exe = os.path.realpath(self.env.cgofuzz)

        def child():
            for k in testlib.children(self.bg.pid):
                try:
                    if os.readlink("/proc/%d/exe" % k) == exe:
                        return k
                except OSError:
                    pass
            return None
        return wait_until(child, "the coordinator's start", detail=self.text)

    def text(self):
        return "%s\n--- strace log:\n%s" % (self.bg.result(),
                                             self.trace()[-4000:])

    def trace(self):
        return "\n".join(c[2] for c in strace_calls(self.log))

    def tampered(self):
        return [c for c in self.calls
                if c[2].endswith("(INJECTED)") or c[2].endswith("(DELAYED)")]

    def place_of(self, line):
        """Which of the three places a traced call touches (index), or None:
        a path argument as the coordinator names it, or an fd (-y shows its
        real path)."""
        for i, p in enumerate(self.places):
            real = os.path.realpath(os.path.join(self.pkg, p))
            if '"%s/' % p in line or "<%s/" % real in line:
                return i
        return None

    def leftovers(self):
        """Anything left in the three places (they may exist, empty)."""
        return {p: tree(os.path.join(self.pkg, p)) for p in self.places
                if tree(os.path.join(self.pkg, p))}

    def shm_files(self):
        return self.env.shm_files(self.tmpdir)

    def assert_clean(self, name):
        """What every run must leave: no orphan workers, no shm files, no
        sanitizer report (ASan's exit status 1 looks like a FAIL)."""
        wait_group_gone(self.bg.pid, name)
        assert not self.shm_files(), "%s: shm files left: %s" % (
            name, self.shm_files())
        assert "Sanitizer" not in self.stderr, "%s: sanitizer report\n%s" % (
            name, self.stderr)


@pytest.fixture(scope="session")
def strace(tool):
    return tool("strace")


@pytest.fixture(scope="session")
def zplan(strace, cgofuzz, binary, tmp_path_factory):
    """A dry run of ZRun: for each traced call, the number (when=N) of its
    first call on the crash file in testdata, and its system call number,
    e.g. {"openat": (15, 257), "write": (7, 1), "close": (22, 3),
    "rename": (1, 82)}."""
    env = Env(cgofuzz, binary, str(tmp_path_factory.mktemp("zplan")))
    started = []

    def background(*a):
        started.append(testlib.Background(*a))
        return started[-1]
    z = ZRun(env, strace, "zplan")
    try:
        z.run(background)
    finally:
        for b in started:
            b.cleanup()
    plan = {}
    for name, n, line, nr in z.calls:
        if n and z.place_of(line) == 0 and name not in plan:
            plan[name] = (n, nr)
    assert z.rc == 1 and written(z.stdout) == [z.places[0] + "/" + Z_NAME] \
        and all(k in plan for k in ("openat", "write", "close")) and \
        any(r in plan for r in RENAMES), \
        "strace dry run: crash file not written, or its calls not found " \
        "(%s)\n%s" % (plan, z.text())
    return plan


def test_strace_dry_run(zplan):
    """The strace cases' dry run writes the crash file and finds its
    calls (what they all build on)."""
    assert zplan


@pytest.fixture
def zrun(env, strace, background):
    """zrun(tag) -> a new ZRun of this case (started with .run/.start)."""
    def make(tag):
        z = ZRun(env, strace, tag)
        z.background = background
        return z
    return make


def assert_written_whole(env, z, name):
    """The usual outcome: FAIL, Z_INPUT written whole to testdata under its
    name, nothing else there, reproduces, no orphans, no shm files."""
    path = os.path.join(z.testdata, Z_NAME)
    assert z.rc == 1 and \
        written(z.stdout) == [z.places[0] + "/" + Z_NAME], \
        "%s: want FAIL, written to testdata\n%s" % (name, z.text())
    assert os.path.isfile(path) and open(path, "rb").read() == Z_INPUT, \
        "%s: the file is not whole" % name
    assert tree(z.testdata) == [Z_NAME], \
        "%s: something else in testdata (a partial or temporary file): %s" \
        % (name, tree(z.testdata))
    assert reproduces(env, z.pkg, path), "%s: does not reproduce" % name
    z.assert_clean(name)


def wait_partial(z, size):
    """Waits for the crash file being written (under testdata, not yet
    under its final name) to have the given size; its path."""
    final = os.path.join(z.testdata, Z_NAME)

    def partial():
        for root, _, files in os.walk(z.testdata):
            for f in files:
                p = os.path.join(root, f)
                try:
                    if p != final and os.path.getsize(p) == size:
                        return p
                except OSError:
                    pass
        if z.bg.p.poll() is not None:
            pytest.fail("the run ended before a %d-byte partial file "
                        "appeared\n%s" % (size, z.text()))
        return None
    return wait_until(partial, "a %d-byte partial crash file" % size,
                      detail=z.text)


def wait_stopped_in(z, pid, nr):
    """Waits until the coordinator is held by strace (tracing stop) at the
    entry of system call number nr: the delayed call."""
    seen = []

    def stopped():
        st = testlib.proc_stat(pid)
        sc = read("/proc/%d/syscall" % pid)
        seen.append((st, sc.split(" ")[0]))
        if st is None or st[0] == "Z":
            pytest.fail("the coordinator ended before it was seen held in "
                        "system call %d (seen: %s)\n%s"
                        % (nr, sorted(set(seen)), z.text()))
        return st[0] == "t" and sc.split(" ")[0] == str(nr)
    wait_until(stopped, "the coordinator held in system call %d" % nr,
               detail=lambda: "seen: %s\n%s" % (sorted(set(seen)), z.text()))


@pytest.mark.parametrize("what", ["write", "rename", "eintr"])
def test_sigint_while_writing(env, zplan, zrun, what):
    """^C (SIGINT to the whole process group, as a terminal sends it)
    while the crash file is written. strace holds the coordinator for
    DELAY_US inside the write(2) of that file, or inside its rename(2);
    once it is held there with the temporary file present (empty, or
    whole), SIGINT is sent. Third case: that write(2) fails with EINTR and
    strace raises SIGINT at that very call (as on an interruptible file
    system). The handler only sets a flag, so the write must complete:
    SIGINT arrives in that call, and the file is written whole."""
    call = {"write": "write", "eintr": "write",
            "rename": [r for r in RENAMES if r in zplan][0]}[what]
    when, nr = zplan[call]
    how = ("error=EINTR:signal=SIGINT" if what == "eintr"
           else "delay_enter=%d" % DELAY_US)
    name = "^C in the crash file's %s(2)" % what
    z = zrun("sigint")
    z.start(z.background, "%s:%s:when=%d" % (call, how, when))
    if what != "eintr":
        pid = z.coordinator()
        part = wait_partial(z, 0 if what == "write" else len(Z_INPUT))
        wait_stopped_in(z, pid, nr)
        final = os.path.exists(os.path.join(z.testdata, Z_NAME))
        z.bg.signal_group(signal.SIGINT)
        assert part and not final, \
            "%s: SIGINT not sent while the file was incomplete: %s" % (
                name, tree(z.testdata))
    z.finish()
    # Where SIGINT reached the coordinator: right after the tampered call,
    # before its next call.
    at = [i for i, c in enumerate(z.calls) if c[0] == call and c[1] == when]
    sig = [i for i, c in enumerate(z.calls) if c[0] == "SIGINT"]
    nxt = [i for i, c in enumerate(z.calls) if c[1] and at and i > at[0]]
    assert at and sig and z.calls[at[0]] in z.tampered() and \
        sig[0] > at[0] and (not nxt or sig[0] < nxt[0]), \
        "%s: SIGINT did not arrive in that call\n%s" % (name, z.text())
    assert_written_whole(env, z, name)


def enospc_message(place):
    return r"could not write the failing input to %s: .*%s/%s.*%s" % (
        re.escape(place), re.escape(place), Z_NAME, ENOSPC)


@pytest.mark.parametrize("call", ["write", "close"])
def test_enospc_once(env, zplan, zrun, call):
    """Disk full while the crash file is written: the coordinator's
    write(2) (or close(2), where NFS reports it) of the crash file in
    testdata fails with ENOSPC. FAIL, the error names the file, the input
    goes to $TMPDIR/cgofuzz-failures (and it says so), nothing partial is
    left in testdata, and copied back the file reproduces."""
    name = "ENOSPC on %s of the crash file" % call
    z = zrun("enospc")
    z.run(z.background, "%s:error=ENOSPC:when=%d" % (call, zplan[call][0]))
    fb = os.path.join(z.places[1], Z_NAME)
    hit = [c for c in z.tampered() if z.place_of(c[2]) == 0]
    assert len(z.tampered()) == 1 and hit, \
        "%s: the failing call was not the crash file's\n%s" % (name, z.text())
    assert z.rc == 1 and re.search(enospc_message(z.places[0]), z.stderr), \
        "%s: want FAIL, the error naming the file\n%s" % (name, z.text())
    assert written(z.stdout) == [fb] and \
        "written to %s instead" % fb in z.stderr and os.path.isfile(fb) and \
        open(fb, "rb").read() == Z_INPUT, \
        "%s: not written to $TMPDIR/cgofuzz-failures\n%s" % (name, z.text())
    assert tree(z.testdata) == [], \
        "%s: left in testdata: %s" % (name, tree(z.testdata))
    z.assert_clean(name)
    shutil.copy(fb, z.testdata)
    assert reproduces(env, z.pkg, os.path.join(z.testdata, Z_NAME)), \
        "%s: copied back, does not reproduce" % name


@pytest.fixture
def fallback_write_step(zplan, zrun):
    """How many write(2)s separate the crash file's in testdata from the
    one to the first fallback (the same distance separates that one from
    the second fallback's), from a run where the first fails with
    ENOSPC."""
    z = zrun("step")
    n = zplan["write"][0]
    z.run(z.background, "write:error=ENOSPC:when=%d" % n)
    nxt = [c[1] for c in z.calls if c[0] == "write" and
           z.place_of(c[2]) == 1]
    assert nxt, "ENOSPC: the write(2) to the fallback was not found\n%s" \
        % z.text()
    return nxt[0] - n


@pytest.mark.parametrize("what", ["write", "rename"])
def test_enospc_everywhere(env, zplan, zrun, request, what):
    """Disk full everywhere: every write(2) (or every rename(2)) of the
    crash file fails with ENOSPC, in the three places in order. FAIL, the
    three places are named with the error, the input is printed on stderr
    (saved by hand it reproduces), and nothing is left in any place."""
    name = "ENOSPC on every %s(2) of the crash file" % what
    if what == "write":
        n = zplan["write"][0]
        step = request.getfixturevalue("fallback_write_step")
        inject = "write:error=ENOSPC:when=%d..%d+%d" % (n, n + 2 * step, step)
    else:
        inject = "%s:error=ENOSPC" % ",".join(r for r in RENAMES if r in zplan)
    z = zrun("enospc")
    z.run(z.background, inject)
    where = [z.place_of(c[2]) for c in z.tampered()]
    assert where == [0, 1, 2], \
        "%s: did not fail in the three places in order: %s\n%s" % (
            name, where, z.text())
    named = [p for p in z.places if re.search(enospc_message(p), z.stderr)]
    assert z.rc == 1 and named == z.places, \
        "%s: want FAIL naming the three places, named %s\n%s" % (
            name, named, z.text())
    m = re.search(STDERR_INPUT, z.stderr)
    assert m and m.group(1).encode() == Z_INPUT, \
        "%s: the input is not printed on stderr\n%s" % (name, z.text())
    assert not z.leftovers(), "%s: left: %s" % (name, z.leftovers())
    z.assert_clean(name)
    saved = os.path.join(z.testdata, "from-stderr")
    os.makedirs(z.testdata, exist_ok=True)
    with open(saved, "w") as f:
        f.write(m.group(1))
    assert reproduces(env, z.pkg, saved), \
        "%s: saved by hand, does not reproduce" % name


def test_killed_writing(env, zplan, zrun):
    """The coordinator SIGKILLed (as by the OOM killer) at the write(2) of
    the crash file. That input dies with it (the next run finds it again:
    it is still in the cache), but testdata must stay valid: go test reads
    every file in testdata/fuzz/<Target> and fails the target on a
    malformed one, so a partial file left there would break the package's
    tests (and cgofuzz's next run). The hidden temporary directory that
    may stay is not an entry."""
    name = "SIGKILL at the crash file's write(2)"
    z = zrun("killed")
    z.run(z.background, "write:signal=SIGKILL:when=%d" % zplan["write"][0])
    assert z.rc == -signal.SIGKILL and z.calls and \
        z.place_of(z.calls[-1][2]) == 0, \
        "%s: not killed there\n%s" % (name, z.text())
    wait_group_gone(z.bg.pid, name)
    # The shm file's name is removed as soon as it is mapped (csrc/shm.c),
    # so even a SIGKILL leaves nothing in $TMPDIR.
    assert not z.shm_files(), "%s: shm files left: %s" % (name, z.shm_files())
    top = [os.path.basename(f) for f in corpus_entries(z.testdata)]
    r = run([env.binary, "-test.run=^FuzzCrash$", "-test.timeout=20s"], z.pkg)
    assert r.rc == 0, "%s: testdata no longer valid, go test fails (files " \
        "there: %s, tree %s)\n%s" % (name, top, tree(z.testdata), r)
    r = run(env.cmd("FuzzCrash", [FIND_BUDGET], cache=z.cache), z.pkg,
            env.env(TMPDIR=z.tmpdir))
    path = os.path.join(z.testdata, Z_NAME)
    assert r.rc == 1 and written(r.stdout) == [z.places[0] + "/" + Z_NAME] \
        and reproduces(env, z.pkg, path), \
        "%s: the next run does not write it, or it does not reproduce\n%s" \
        % (name, r)


@pytest.mark.parametrize("how", ["immutable", "ENOSPC"])
def test_cache_unwritable(env, tool, block_dir, how):
    """New interesting inputs cannot be saved in the cache: one warning
    naming the cache directory, fuzzing goes on (the inputs stay in
    memory), PASS. immutable: the cache directory is immutable; ENOSPC
    (disk full): strace fails every rename(2) and linkat(2) of the
    coordinator (here its only ones are cache writes: a new input is an
    unnamed file linked into place, else a temporary renamed), so the
    temporary files must not pile up in the cache either."""
    d = os.path.join(env.cache, "FuzzClean")
    cmd = env.cmd("FuzzClean", [CLEAN_BUDGET])
    run_env = env.env()
    if how == "immutable":
        block_dir(d)
    else:
        strace = tool("strace")
        os.makedirs(d)
        run_env = strace_env(env, env.tmpdir)
        ren = ",".join("?" + r for r in RENAMES + ("linkat",))
        cmd = [strace, "-qq", "-o", os.path.join(env.tmp, "cache.log"),
               "-e", "trace=" + ren, "-e", "inject=%s:error=ENOSPC" % ren] + cmd
    try:
        r = run(cmd, env.pkg, run_env)
    finally:
        if how == "immutable":
            unblock_dir(d)
    warns = [line for line in r.stderr.splitlines()
             if "could not write new inputs to the cache" in line]
    n = [int(x) for x in re.findall(r"new interesting: (\d+)", r.stderr)]
    assert r.rc == 0 and r.stdout.endswith("PASS\n") and n and n[-1] >= 2, \
        "want PASS with at least 2 new interesting inputs\n%s" % r
    assert len(warns) == 1 and d + "/" in warns[0] and \
        (how != "ENOSPC" or ENOSPC in warns[0]), \
        "want one warning naming %s\n%s" % (d, r)
    assert tree(d) == [], "left in the cache directory: %s" % tree(d)
    assert env.shm_files() == [], "shm files left: %s" % env.shm_files()
    assert "Sanitizer" not in r.stderr, "sanitizer report\n%s" % r

"""Every worker death explained and recorded (issue 15; coord_death.c).

A worker that dies or hangs under `cgofuzz fuzz` is classified from its
wait status, the tail of its stderr and what the coordinator's watch saw;
the FAIL block names the class first, then Go's own line, the report and a
hint, and the input that was running is written, byte for byte.

Each case starts from a cache entry that triggers the death (a cache entry
that fails during the warm-up is recorded to testdata, as Go does, and is
run as it is: the file written must hold exactly its bytes), with one
worker, a 2 s -fuzztimeout and a 300 MiB -fuzzrsslimitmb. The planted
behaviours are in gopkg/deaths_test.go (Go) and ctarget.c (C, built with
`cgofuzz cc` and ASan). The written file must reproduce: the Go test binary
or the C binary with -test.run=Target/NAME (a hang as a -test.timeout, a
memory blow-up under `ulimit -v`, as the hint says).
"""
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

import testlib
from testlib import corpus_entries, read, run

HERE = os.path.dirname(os.path.abspath(__file__))
LIMITS = ["-fuzztimeout=2s", "-fuzzrsslimitmb=300"]
# A memory blow-up must meet the memory limit before the time limit, even
# when a loaded machine makes touching 300 MiB take seconds.
OOM_LIMITS = ["-fuzztimeout=30s", "-fuzzrsslimitmb=300"]


@pytest.fixture(scope="session")
def gobin(tool, tmp_path_factory):
    return testlib.build_go_test_copy(tool("go"), os.path.join(HERE, "gopkg"),
                                      tmp_path_factory, "deaths")


@pytest.fixture(scope="session")
def cbin(cgofuzz, tool, tmp_path_factory):
    tool("clang")
    out = str(tmp_path_factory.mktemp("deaths-c") / "ctarget")
    r = run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=address,fuzzer",
             os.path.join(HERE, "ctarget.c"), "-o", out])
    assert r.rc == 0, r
    return out


def die(cgofuzz, binary, target, trigger, tmp, extra=LIMITS,
        asan="detect_leaks=0"):
    """Fuzzes target from one cache entry holding []byte(trigger); the
    Result, the files written to testdata and the entry's bytes."""
    pkg = os.path.join(tmp, "pkg")
    if binary.endswith(".test"):
        shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    else:
        os.makedirs(pkg)
    if extra is LIMITS and trigger.startswith("OOM"):
        extra = OOM_LIMITS
    cache = os.path.join(tmp, "cache")
    os.makedirs(os.path.join(cache, target))
    entry = 'go test fuzz v1\n[]byte("%s")\n' % trigger
    testlib.write(os.path.join(cache, target, "trigger"), entry)
    r = run(testlib.fuzz_cmd(cgofuzz, binary, target, cache,
                             ["-fuzztime=2000x"] + list(extra), parallel=1),
            pkg, testlib.fuzz_env(1, ASAN_OPTIONS=asan))
    files = corpus_entries(os.path.join(pkg, "testdata", "fuzz", target))
    return r, files, entry, pkg


def replay(binary, target, path, pkg, limit_kb=None, timeout="30s",
           env=None):
    cmd = [binary, "-test.run=%s/%s" % (target, os.path.basename(path)),
           "-test.timeout=" + timeout]
    if limit_kb:
        cmd = ["sh", "-c", 'ulimit -v %d && exec "$@"' % limit_kb, "sh"] + cmd
    return run(cmd, pkg, env or {"ASAN_OPTIONS": "detect_leaks=0"})


GO_CASES = [
    # trigger, headline, a line of the report
    ("PANIC1", "fuzzing process crashed: Go panic",
     "panic: planted panic: PANIC1"),
    ("MAPW1", "fuzzing process crashed: Go fatal error",
     "fatal error: concurrent map writes"),
    ("DEAD1", "fuzzing process hung: no progress for 2s on one input "
     "(-fuzztimeout); cgofuzz stopped it", "time.Sleep"),
    ("OOM1", "fuzzing process out of memory: resident set",
     "SIGQUIT: quit"),
    ("KILL1", "fuzzing process killed by signal 9 (SIGKILL)",
     "the input did it again when re-run alone"),
    ("EXIT1", "fuzzing process exited with status 3 and no report",
     "fuzzing process hung or terminated unexpectedly: exit status 3"),
]


@pytest.mark.parametrize("trigger,headline,report",
                         [pytest.param(*c, id=c[0]) for c in GO_CASES])
def test_go_worker_death(cgofuzz, gobin, tmp_path, trigger, headline, report):
    """A Go worker's death: the class, the report from its stderr, the
    exact input written once, and go test's replay fails on it."""
    r, files, entry, pkg = die(cgofuzz, gobin, "FuzzDeath", trigger,
                               str(tmp_path))
    assert r.rc == 1, r
    assert headline in r.stdout and report in r.stdout, r
    assert len(files) == 1 and read(files[0]) == entry, (files, r)
    assert "Failing input written to testdata/fuzz/FuzzDeath/" in r.stdout, r
    if trigger.startswith("DEAD"):
        # The goroutine running the fuzz function, from the SIGQUIT dump.
        assert "the goroutine running the fuzz function shown" in r.stdout, r
        assert "deaths_test.go:" in r.stdout, r
        assert "add -timeout=7s" in r.stdout, r
        rr = replay(gobin, "FuzzDeath", files[0], pkg, timeout="3s")
        assert rr.rc not in (0, None) and "test timed out" in rr.out, rr
    elif trigger.startswith("OOM"):
        assert "ulimit -v" in r.stdout, r
        rr = replay(gobin, "FuzzDeath", files[0], pkg, limit_kb=1500000)
        assert rr.rc not in (0, None) and "out of memory" in rr.out, rr
    else:
        rr = replay(gobin, "FuzzDeath", files[0], pkg)
        assert rr.rc not in (0, None), rr
        if trigger.startswith("KILL"):
            assert rr.rc == -signal.SIGKILL, rr


C_CASES = [
    ("HEAP1", "fuzzing process crashed: sanitizer report",
     "ERROR: AddressSanitizer: heap-buffer-overflow"),
    ("ABORT1", "fuzzing process killed by signal 6 (SIGABRT) with no report",
     "fuzzing process hung or terminated unexpectedly: signal: aborted"),
    # The C worker is given our limits (-test.fuzztimeout, -test.fuzzrsslimitmb)
    # and its watchdog may stop the input before the coordinator does:
    # either way it is a hang (or an OOM) with the input recorded.
    ("HANG1", "fuzzing process hung: ",
     "fuzzing process hung or terminated unexpectedly: "),
    ("OOM1", "fuzzing process out of memory: ",
     "fuzzing process hung or terminated unexpectedly: "),
]


@pytest.mark.parametrize("trigger,headline,report",
                         [pytest.param(*c, id=c[0]) for c in C_CASES])
def test_c_worker_death(cgofuzz, cbin, tmp_path, trigger, headline, report):
    """A C target's worker: the same, and the binary replays the file."""
    r, files, entry, pkg = die(cgofuzz, cbin, "FuzzLibFuzzer", trigger,
                               str(tmp_path))
    assert r.rc == 1, r
    assert headline in r.stdout and report in r.stdout, r
    assert len(files) == 1 and read(files[0]) == entry, (files, r)
    env = None
    if trigger.startswith("OOM"):
        # Run alone, the input only uses 2 GiB: ASan's RSS limit makes it
        # fail, as the hint says.
        assert "ASAN_OPTIONS=hard_rss_limit_mb=N" in r.stdout, r
        env = {"ASAN_OPTIONS": "detect_leaks=0:hard_rss_limit_mb=300"}
    rr = replay(cbin, "FuzzLibFuzzer", files[0], pkg, timeout="3s", env=env)
    assert rr.rc not in (0, None), rr


def test_c_worker_leak(cgofuzz, cbin, tmp_path):
    """An input that leaks memory, with LeakSanitizer on (ASan's default):
    the C worker checks for leaks after an input that allocated more than
    it freed (runtime/leak.c), and the leak is a failure with
    LeakSanitizer's report, the input written; the binary replays it, and
    with LeakSanitizer off (ASAN_OPTIONS=detect_leaks=0) the same input
    passes."""
    r, files, entry, pkg = die(cgofuzz, cbin, "FuzzLibFuzzer", "LEAK1",
                               str(tmp_path), asan="detect_leaks=1")
    assert r.rc == 1, r
    assert "fuzzing process found a memory leak" in r.stdout, r
    # The leaking input ran twice (found, then confirmed, as libFuzzer
    # does): LeakSanitizer reports the second run's 32 bytes, and the
    # first run's too unless a stale copy of its pointer (a register or
    # stack slot it scans) still reaches them, which varies with what ran
    # before.
    assert re.search(r"Direct leak of (32 byte\(s\) in 1|64 byte\(s\) "
                     r"in 2) object\(s\)", r.stdout), r
    assert "ctarget.c:25" in r.stdout, r
    assert len(files) == 1 and read(files[0]) == entry, (files, r)
    rr = replay(cbin, "FuzzLibFuzzer", files[0], pkg, timeout="10s",
                env={"ASAN_OPTIONS": "detect_leaks=1"})
    assert rr.rc not in (0, None) and "LeakSanitizer" in rr.out, rr
    rr = replay(cbin, "FuzzLibFuzzer", files[0], pkg, timeout="10s")
    assert rr.rc == 0, rr


def test_go_death_found_by_fuzzing(cgofuzz, gobin, tmp_path):
    """A death reached by mutation (the cache entry "DEA" passes; a few
    mutations away are a hang, a panic, an OOM...): the input rebuilt from
    shared memory is the one that was running, so the file written, a
    mutant of the entry, fails again when replayed."""
    r, files, entry, pkg = die(cgofuzz, gobin, "FuzzDeath", "DEA",
                               str(tmp_path),
                               ["-fuzztimeout=1s", "-fuzzrsslimitmb=300"])
    if r.rc == 0:
        pytest.skip("no mutation reached a planted death in 2000 execs:\n%s"
                    % r)
    assert r.rc == 1 and "Failing input written to" in r.stdout, r
    assert len(files) == 1 and read(files[0]) != entry, (files, r)
    rr = replay(gobin, "FuzzDeath", files[0], pkg, limit_kb=1500000,
                timeout="3s")
    assert rr.rc not in (0, None), (read(files[0]), rr, r)


def test_go_own_timer_is_explained(cgofuzz, gobin, tmp_path):
    """Without -fuzztimeout below Go's 10 s, Go's worker may panic with
    "deadlocked!" first: either way the death is called a hang."""
    r, files, entry, pkg = die(cgofuzz, gobin, "FuzzDeath", "DEAD2",
                               str(tmp_path), ["-fuzztimeout=30s"])
    assert r.rc == 1, r
    assert "fuzzing process hung: Go's worker gave up on one input (its " \
        "own timer" in r.stdout and "panic: deadlocked!" in r.stdout, r
    assert len(files) == 1 and read(files[0]) == entry, (files, r)


@pytest.fixture
def memory_cgroup(tmp_path):
    """A memory cgroup limited to 400 MiB (v1 or v2), removed at the end;
    a skip, saying why, when this machine does not let us make one."""
    name = "cgofuzz-deaths-%d" % os.getpid()
    for root, limit in (("/sys/fs/cgroup/memory", "memory.limit_in_bytes"),
                        ("/sys/fs/cgroup", "memory.max")):
        d = os.path.join(root, name)
        if not os.path.exists(os.path.join(root, limit)) and \
                not os.path.exists(os.path.join(root, "cgroup.subtree_control")):
            continue
        try:
            os.mkdir(d)
            testlib.write(os.path.join(d, limit), str(400 << 20))
        except OSError:
            if os.path.isdir(d):
                os.rmdir(d)
            continue
        yield d
        testlib.wait_until(lambda: not read(os.path.join(d, "cgroup.procs")).strip(),
                           "the cgroup's processes to end", 60)
        os.rmdir(d)
        return
    pytest.skip("cannot make a memory cgroup here (needs root and a "
                "writable cgroup v1 memory controller or cgroup v2)")


def test_go_kernel_oom_kill_is_recorded(cgofuzz, gobin, tmp_path,
                                        memory_cgroup):
    """The kernel's OOM killer (a 400 MiB memory cgroup, no
    -fuzzrsslimitmb) SIGKILLs the worker: Go records nothing; here the
    death is called out of memory (oom_kill in /proc/vmstat moved) and the
    input that was running is written."""
    pkg = str(tmp_path / "pkg")
    shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    cache = str(tmp_path / "cache")
    os.makedirs(os.path.join(cache, "FuzzDeath"))
    entry = 'go test fuzz v1\n[]byte("OOM2")\n'
    testlib.write(os.path.join(cache, "FuzzDeath", "trigger"), entry)
    cmd = testlib.fuzz_cmd(cgofuzz, gobin, "FuzzDeath", cache,
                           ["-fuzztime=2000x"], parallel=1)
    r = run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"',
             memory_cgroup] + cmd, pkg, testlib.fuzz_env(1))
    assert r.rc == 1, r
    assert "fuzzing process killed by signal 9 (SIGKILL) while the kernel's " \
        "OOM killer ran" in r.stdout, r
    files = corpus_entries(os.path.join(pkg, "testdata", "fuzz", "FuzzDeath"))
    assert len(files) == 1 and read(files[0]) == entry, (files, r)


def test_go_oom_kill_of_an_input_that_runs_alone_is_not_recorded(
        cgofuzz, gobin, tmp_path, memory_cgroup):
    """The kernel's OOM killer takes the worker on an input that, run again
    alone, passes (FuzzOOMOnce blows up on its first input only, as an
    input taken while other programs filled the memory does): nothing is
    written, the user is told, the warm-up entry is run again for its
    coverage and the run goes on to its end."""
    pkg = str(tmp_path / "pkg")
    shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    cache = str(tmp_path / "cache")
    os.makedirs(os.path.join(cache, "FuzzOOMOnce"))
    testlib.write(os.path.join(cache, "FuzzOOMOnce", "trigger"),
                  'go test fuzz v1\n[]byte("once")\n')
    cmd = testlib.fuzz_cmd(cgofuzz, gobin, "FuzzOOMOnce", cache,
                           ["-fuzztime=2000x"], parallel=1)
    r = run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"',
             memory_cgroup] + cmd, pkg, testlib.fuzz_env(1))
    assert os.path.exists(os.path.join(pkg, "oom-once.mark")), r
    assert r.rc == 0, (r.stdout, r.stderr)
    assert "the kernel's OOM killer stopped a worker while the machine was " \
        "short of memory; its input ran alone" in r.stderr, r
    assert "gathering baseline coverage: 1/1 completed" in r.stderr, r
    assert not os.path.isdir(os.path.join(pkg, "testdata")), r


HOG = r"""
import os, sys
pid = int(sys.argv[1])
def gone():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True
held = []
while not gone() and len(held) < 1024:
    held.append(b"\x01" * (4 << 20))
sys.exit(0 if gone() else 1)
"""


def idle(pid, looks=20):
    """Whether every thread of pid slept on each of looks looks 20 ms
    apart (a Go worker waiting for its next call)."""
    for _ in range(looks):
        try:
            for t in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/stat" % (pid, t)) as f:
                    if f.read().rsplit(")", 1)[1].split()[0] != "S":
                        return False
        except OSError:
            return False
        time.sleep(0.02)
    return True


def test_go_idle_worker_taken_by_the_oom_killer_is_replaced(
        cgofuzz, gobin, tmp_path, memory_cgroup):
    """The kernel's OOM killer takes a worker while it waits for its next
    call (the coordinator stopped meanwhile; another process fills the
    cgroup, and the worker's oom_score_adj of 1000 makes it the victim): it held no input,
    so nothing is written and a new worker goes on. Go ends the run there
    ("fuzzing process hung or terminated unexpectedly"). FuzzIdleOOM fails
    the first input a new worker runs, which ends the run."""
    pkg = str(tmp_path / "pkg")
    shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    cache = str(tmp_path / "cache")
    cmd = testlib.fuzz_cmd(cgofuzz, gobin, "FuzzIdleOOM", cache,
                           ["-fuzztime=1000000000x", "-cmpfeedback=false",
                            "-autodict=false"], parallel=1)
    err = str(tmp_path / "stderr")
    with open(err, "wb") as ef:
        p = subprocess.Popen(
            ["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"',
             memory_cgroup] + cmd, cwd=pkg, env=testlib.environ(
                 testlib.fuzz_env(1)), stdout=subprocess.PIPE, stderr=ef,
            start_new_session=True)
        try:
            pidfile = os.path.join(pkg, "worker.pid")
            testlib.wait_until(lambda: os.path.exists(pidfile) and
                               read(pidfile).strip(), "the worker's pid", 60)
            worker = int(read(pidfile))
            os.kill(p.pid, signal.SIGSTOP)
            try:
                testlib.wait_until(lambda: idle(worker),
                                   "the worker to finish its call", 30)
                testlib.write(os.path.join(pkg, "restart.mark"), "")
                testlib.write("/proc/%d/oom_score_adj" % worker, "1000")
                # The hog may be the OOM killer's next victim (the run's
                # shared memory stays charged to the cgroup): only the
                # worker's death matters.
                hog = run(["sh", "-c", 'echo $$ > "$0/cgroup.procs" && '
                           'exec "$@"', memory_cgroup, "python3", "-c", HOG,
                           str(worker)], pkg)
                assert hog.rc in (0, -signal.SIGKILL), hog
                assert not idle(worker, 1), (hog, "the worker lives")
            finally:
                os.kill(p.pid, signal.SIGCONT)
            out, _ = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                testlib.kill_group(p.pid)
    out = out.decode(errors="replace")
    assert "the kernel's OOM killer stopped an idle worker" in read(err), (
        out, read(err))
    assert p.returncode == 1, (out, read(err))
    assert "an input run by a new worker" in out + read(err), (out, read(err))
    assert "terminated unexpectedly" not in out + read(err), (out, read(err))


def test_worker_killed_while_a_failure_is_minimized_keeps_it(cgofuzz, gobin,
                                                              tmp_path):
    """A worker killed from outside while another minimizes a failure (two
    workers; FuzzMinKill's failing input takes seconds to minimize, and
    says which worker minimizes it): the run ends with that failure,
    written, not with the kill (which used to end the run first and drop
    the failure unwritten)."""
    pkg = str(tmp_path / "pkg")
    shutil.copytree(os.path.join(HERE, "gopkg"), pkg)
    cache = str(tmp_path / "cache")
    os.makedirs(os.path.join(cache, "FuzzMinKill"))
    entry = 'go test fuzz v1\n[]byte("BUG%s")\n' % ("x" * 150)
    testlib.write(os.path.join(cache, "FuzzMinKill", "trigger"), entry)
    cmd = testlib.fuzz_cmd(cgofuzz, gobin, "FuzzMinKill", cache,
                           ["-fuzztime=120s", "-fuzzminimizetime=5s",
                            "-cmpfeedback=false", "-autodict=false"],
                           parallel=2)
    err = str(tmp_path / "stderr")
    with open(err, "wb") as ef:
        p = subprocess.Popen(cmd, cwd=pkg, env=testlib.environ(
            testlib.fuzz_env(2)), stdout=subprocess.PIPE, stderr=ef,
            start_new_session=True)
        try:
            testlib.wait_until(
                lambda: "fuzz: minimizing" in read(err) and os.path.exists(
                    os.path.join(pkg, "minimizer.pid")),
                "the failing input's minimization", 60)
            time.sleep(0.3)
            busy = int(read(os.path.join(pkg, "minimizer.pid")))
            kids = [int(k) for k in subprocess.run(
                ["pgrep", "-P", str(p.pid)], capture_output=True,
                text=True).stdout.split()]
            workers = [k for k in kids if b"fuzzworker" in open(
                "/proc/%d/cmdline" % k, "rb").read()]
            other = [k for k in workers if k != busy]
            assert busy in workers and len(other) == 1, (busy, kids,
                                                         read(err))
            os.kill(other[0], signal.SIGKILL)
            out, _ = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                testlib.kill_group(p.pid)
    out = out.decode(errors="replace")
    assert p.returncode == 1, (out, read(err))
    assert "while the failing input was minimized; the failure stands" \
        in read(err), (out, read(err))
    files = corpus_entries(os.path.join(pkg, "testdata", "fuzz",
                                        "FuzzMinKill"))
    assert len(files) == 1 and read(files[0]).startswith(
        'go test fuzz v1\n[]byte("BUG'), (files, out, read(err))

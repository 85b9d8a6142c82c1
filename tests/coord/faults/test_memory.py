"""Memory running out in cgofuzz's coordinator (issue 39; docs/faults.md).

failalloc.c, preloaded into `cgofuzz fuzz`, fails its N-th allocation
(malloc, calloc, realloc, and through them glibc's own: strdup, stdio,
regcomp), once or from then on, the way SQLite's malloc tests walk every
allocation of a statement. The run is a real one: tests/coord/faults/gopkg's
FuzzCrash (a panic on inputs starting with 'Z', found within a few hundred
execs with the pinned seed), two Go workers, which do not load the shim.

Whatever allocation fails, and whether memory comes back or not:
- cgofuzz is never killed by a signal and never hangs;
- the run never passes: either the crash is reported, and its input can
  be had (a file that holds it, or its bytes printed), or the run says it
  ran out of memory and exits non-zero;
- $TMPDIR is left as it was (the run's scratch directory removed, by the
  janitor when exit's own removal had no memory), but for the failure
  fallback directory.

The same holds for a C target under libFuzzer's command line (its
coordinator is the target's own process; the crash is reported as
libFuzzer reports it, the input in a crash- file or printed, or the run
says it had no memory: "out of memory", or strerror's "Cannot allocate
memory" for a file it could not read).

The release build only (an ASan build has its own allocator). The CI run
takes every STRIDE-th allocation of the Go run in both modes
(CGOFUZZ_FAILALLOC_ALL=1 takes every one) and every allocation of the C
target's.
"""
import os
import re
import shutil
import subprocess
import time

import pytest

import testlib
from testlib import run, written
from test_faults import FIND_BUDGET, binary, go  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
STRIDE = 1 if os.environ.get("CGOFUZZ_FAILALLOC_ALL") else 7
GUARD = 30  # s: a run that takes longer is a hang


@pytest.fixture(scope="module")
def shim(sanitized, tmp_path_factory):
    if sanitized:
        pytest.skip("an ASan build brings its own allocator; the release "
                    "build runs these cases")
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler for the allocator shim")
    so = str(tmp_path_factory.mktemp("failalloc") / "failalloc.so")
    b = subprocess.run([cc, "-O1", "-shared", "-fPIC", "-o", so,
                        os.path.join(HERE, "failalloc.c"), "-ldl",
                        "-lpthread", "-lgcc_s"],
                       capture_output=True, text=True)
    if b.returncode != 0:
        pytest.skip("the allocator shim needs glibc and libgcc_s: %s"
                    % b.stderr.strip()[-300:])
    return so


class Run:
    def __init__(self, result, d, log):
        self.r, self.d, self.log = result, d, log

    def __str__(self):
        return "%s\nshim: %s" % (self.r, self.log)


def fuzz(cgofuzz, binary, shim, tmp, spec):
    """One run of FuzzCrash in directories of its own with FAILALLOC=spec."""
    d = os.path.join(tmp, "run-" + spec.replace("+", "p"))
    os.makedirs(os.path.join(d, "tmp"))
    log = os.path.join(d, "failalloc.log")
    # Mutants are traced for as long as a run lasts (fb_cmp.c), so with them
    # a run's allocations follow the machine's load (200 on a quiet machine,
    # 16,604 under the suite's other tests), and the walk over them with it:
    # the cases walk the allocations of the corpus's traces alone.
    env = testlib.fuzz_env(1, LD_PRELOAD=shim, FAILALLOC=spec,
                           FAILALLOC_LOG=log, TMPDIR=os.path.join(d, "tmp"),
                           CGOFUZZ_CMP_MUTANTS="0")
    r = run([cgofuzz, "fuzz", "-fuzz=FuzzCrash", FIND_BUDGET, "-parallel=2",
             "-fuzzcachedir=" + os.path.join(d, "cache"), binary], d, env,
            timeout=GUARD)
    text = open(log).read() if os.path.exists(log) else ""
    return Run(r, d, text)


def allocations(text):
    m = re.search(r"^count (\d+)$", text, re.M)
    return int(m.group(1)) if m else 0


def recoverable(x):
    """The crash's input is in a file named by the run, or printed."""
    for path in written(x.r.out):
        full = path if os.path.isabs(path) else os.path.join(x.d, path)
        if os.path.exists(full):
            with open(full, "rb") as f:
                lines = f.read().split(b"\n")
            if len(lines) > 1 and lines[1].startswith(b'[]byte("Z'):
                return True
    return '[]byte("Z' in x.r.out


def tmp_left(d):
    tmp = os.path.join(d, "tmp")
    end = time.monotonic() + 5
    while True:
        left = [f for f in os.listdir(tmp) if f != "cgofuzz-failures"]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


def broken(x, crashed, whole):
    """The rules every run keeps (module docstring), for a run whose crash
    report is told by crashed(out) and its input found by whole(x): a
    message naming the rule broken, or None."""
    rc = x.r.rc
    if rc is None:
        return "hung (killed after %d s)" % GUARD
    if rc < 0 or rc >= 128 or "signal " in x.log:
        return "killed by a signal (rc %s)" % rc
    if rc == 0:
        return "passed with the crash unreported"
    if crashed(x.r.out):
        if not whole(x):
            return "the crash was reported but its input is nowhere"
    elif not re.search(r"out of memory|Cannot allocate memory", x.r.out):
        return "failed (rc %d) without saying it ran out of memory" % rc
    left = tmp_left(x.d)
    if left:
        return "$TMPDIR not left as it was: %s" % left
    return None


def check(x):
    return broken(x, lambda out: "--- FAIL" in out and "crash on Z" in out,
                  recoverable)


@pytest.fixture(scope="module")
def total(cgofuzz, binary, shim, tmp_path_factory):
    """The allocations of a run that fails none (and finds the crash)."""
    x = fuzz(cgofuzz, binary, shim, str(tmp_path_factory.mktemp("count")),
             "0")
    assert x.r.rc == 1 and "crash on Z" in x.r.out, str(x)
    n = allocations(x.log)
    assert n > 50, "the shim saw %d allocations: not preloaded?\n%s" % (n, x)
    return n


C_TARGET = r"""
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (n > 1 && d[0] == 'Z' && d[1] == 'Q')
    __builtin_trap();
  return 0;
}
"""


@pytest.fixture(scope="module")
def c_target(cgofuzz, tool, tmp_path_factory):
    tool("clang")
    d = tmp_path_factory.mktemp("lftarget")
    (d / "t.c").write_text(C_TARGET)
    exe = str(d / "t")
    b = run([cgofuzz, "cc", "-fsanitize=fuzzer", str(d / "t.c"), "-o", exe])
    assert b.rc == 0, str(b)
    return exe


def lf_fuzz(exe, shim, tmp, spec):
    d = os.path.join(tmp, "lf-" + spec.replace("+", "p"))
    for sub in ("tmp", "corpus"):
        os.makedirs(os.path.join(d, sub))
    log = os.path.join(d, "failalloc.log")
    r = run([exe, "-seed=1", "-runs=2000000", "corpus"], d,
            {"LD_PRELOAD": shim, "FAILALLOC": spec, "FAILALLOC_LOG": log,
             "TMPDIR": os.path.join(d, "tmp")}, timeout=GUARD)
    text = open(log).read() if os.path.exists(log) else ""
    return Run(r, d, text)


def lf_unit(x):
    """The crash's input is in a crash- file, or listed as libFuzzer lists
    it, or printed in Go's form."""
    units = [os.path.join(x.d, f) for f in os.listdir(x.d)
             if f.startswith("crash-")]
    return (any(open(u, "rb").read().startswith(b"ZQ") for u in units) or
            "0x5a,0x51" in x.r.out or '"ZQ' in x.r.out)


def lf_check(x):
    return broken(x, lambda out: "deadly signal" in out, lf_unit)


@pytest.mark.parametrize("mode", ["once", "from-then-on"])
def test_libfuzzer_front_end(c_target, shim, tmp_path, mode):
    """A C target under libFuzzer's command line, every allocation of its
    coordinator failing in turn (the workers, started by exec, do not load
    the shim; a run takes milliseconds)."""
    suffix = "+" if mode == "from-then-on" else ""
    x = lf_fuzz(c_target, shim, str(tmp_path), "0")
    assert "deadly signal" in x.r.out, str(x)
    total = allocations(x.log)
    assert total > 50, str(x)
    bad = []
    for n in range(1, total + total // 10 + 1):
        x = lf_fuzz(c_target, shim, str(tmp_path), "%d%s" % (n, suffix))
        why = lf_check(x)
        if why:
            bad.append("allocation %d%s: %s\n%s" % (n, suffix, why, x))
    assert not bad, "%d of the runs broke a rule:\n\n%s" % (
        len(bad), "\n\n".join(bad[:3]))


@pytest.mark.parametrize("mode", ["once", "from-then-on"])
def test_every_allocation_may_fail(cgofuzz, binary, shim, total, tmp_path,
                                   mode):
    """Each STRIDE-th allocation of the run fails (once, or with every later
    one): the properties of the module docstring hold for every run."""
    suffix = "+" if mode == "from-then-on" else ""
    bad, injected = [], 0
    # A little past the count: a failure makes some runs allocate more.
    for n in range(1, total + total // 10 + 1, STRIDE):
        x = fuzz(cgofuzz, binary, shim, str(tmp_path), "%d%s" % (n, suffix))
        injected += "failed %d" % n in x.log
        why = check(x)
        if why:
            bad.append("allocation %d%s: %s\n%s" % (n, suffix, why, x))
    assert injected > total // STRIDE // 2, "few failures injected"
    assert not bad, "%d of the runs broke a rule:\n\n%s" % (
        len(bad), "\n\n".join(bad[:3]))

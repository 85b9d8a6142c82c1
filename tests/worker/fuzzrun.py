"""fuzzrun.py: running test binaries (C fuzz targets, Go test binaries) the
way the pytest suites of tests/worker, tests/gofuzz, tests/selffuzz and
tests/fuzz do: captured output for the assertion messages, a pinned fuzzing
seed, exec budgets instead of durations, and a generous time-out that only
guards against a hang.

Import it with tests/worker on sys.path (the modules of the other suites
insert it)."""
import os
import re
import subprocess

# GODEBUG=fuzzseed=N seeds the mutators of cgofuzz's C workers (and of the
# C exec loop under Go's coordinator), so a run's inputs are reproducible.
SEED = "fuzzseed=3"

# Only a hang guard: a run that passes its exec budget ends long before.
HANG_GUARD = 600


class Run:
    """A finished process: rc, out, err (text) and a description for
    assertion messages."""

    def __init__(self, argv, rc, out, err):
        self.argv, self.rc, self.out, self.err = argv, rc, out, err

    def __str__(self):
        def tail(s):
            return s if len(s) <= 4000 else "...\n" + s[-4000:]
        return "$ %s\nexit %s\n--- stdout:\n%s\n--- stderr:\n%s" % (
            " ".join(self.argv), self.rc, tail(self.out), tail(self.err))

    __repr__ = __str__  # pytest shows the repr in assertion messages


def run(argv, cwd=None, env=None, timeout=HANG_GUARD, exe=None, **kw):
    """Runs argv to completion; env entries are added to os.environ (None
    removes one). Returns a Run."""
    e = dict(os.environ)
    for k, v in (env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    p = subprocess.run(argv, cwd=cwd, env=e, executable=exe, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", **kw)
    return Run([str(a) for a in argv], p.returncode, p.stdout, p.stderr)


def fuzz(binary, target, cwd, budget, parallel=1, extra=(), env=None,
         seed=SEED, exe=None):
    """Fuzzes target of a test binary (-test.fuzz=^target$, or the pattern
    as given when it is not a plain name) in cwd for budget execs
    (-test.fuzztime=<budget>x), with its own cache directory in cwd and
    GODEBUG=fuzzseed pinned. Returns a Run."""
    pattern = "^%s$" % target if re.match(r"^\w+$", target) else target
    argv = [binary, "-test.fuzz=" + pattern,
            "-test.fuzztime=%dx" % budget, "-test.parallel=%d" % parallel,
            "-test.fuzzcachedir=" + os.path.join(cwd, "cache")] + list(extra)
    e = {"GODEBUG": seed}
    e.update(env or {})
    return run(argv, cwd=cwd, env=e, exe=exe)


def failing_input(out, target=r"\w+"):
    """The path (relative to the run's directory) of the failing input that
    a fuzzing run reported as written, or None."""
    m = re.search(r"Failing input written to (testdata/fuzz/%s/\w+)" % target,
                  out)
    return m and m.group(1)


def new_interesting(err):
    """The "new interesting: N" count of the last progress line, or None."""
    n = re.findall(r"new interesting: (\d+)", err)
    return int(n[-1]) if n else None


def write(path, text):
    """Writes text to path, creating its directory."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)

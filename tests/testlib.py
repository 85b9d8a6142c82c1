"""testlib.py: the helpers every Python suite shares (tests/conftest.py puts
tests/ on sys.path, so a suite just does `import testlib`; tests/conftest.py
also has the `background` fixture built on Background).

Running processes: run() runs a command to its end, Background (through the
`background` fixture) runs one alongside the case. Either way the process
gets a session of its own, so that a case can signal the coordinator and
its workers at once and tell when none of them is left. Output is captured
as text (undecodable bytes replaced, newlines as written): a Result has
.stdout, .stderr and .out (both, stdout first), .rc, and str() of it is
the whole story for an assertion message.

Time-outs are hang guards only: when one expires, the whole process group
is killed and the case fails saying what hung, with the output so far.
Cases wait for observable conditions (a line of output, a file, worker
processes) and fuzz for an exec budget, never for a fixed time.

Environments: `env` arguments (run, Background, fuzz) are changes to
os.environ: each name is set to its value, or removed when the value is
None. fuzz_env() gives the changes of a fuzzing run (fuzzseed pinned).

Also: reading the []byte values of corpus files Go (or cgofuzz) wrote
(go_unquote, go_bytes; bench/c/c_bench.py uses go_unquote too), process-tree
helpers from /proc, and small file helpers."""
import glob
import os
import re
import shutil
import signal
import subprocess
import time
import uuid


def _fail(msg):
    """Fails the current pytest case (pytest imported only here, so that
    bench/ scripts can use the helpers without it)."""
    import pytest
    pytest.fail(msg)


# GODEBUG=fuzzseed=N pins the mutator's random stream of Go's workers, of
# cgofuzz's C workers (csrc/runtime/worker.c) and of the C exec loop under Go's
# coordinator, so that runs with an exec budget find the same things from
# one run to the next (the coordinators' own scheduling is not seeded: runs
# with several corpus entries may still differ a little). SEED is the
# default; a suite whose budgets were tuned with another seed passes its
# own (tests/coord/e2e and tests/coord/faults use 1).
SEED = 3
# The budget of `cgofuzz fuzz` runs that the case itself ends (with a
# signal): never reached, the hang guards end a run that was not stopped.
UNTIL_STOPPED = "-fuzztime=1000000000x"
# Seconds. Only a hang guard: generous, the machine is shared and has 2
# cores, and a run that passes its exec budget ends long before.
HANG_GUARD = 600


# -- environments ------------------------------------------------------------

def environ(changes=None):
    """os.environ with changes applied (a value of None removes the name):
    the environment a process started with env=changes gets."""
    env = dict(os.environ)
    for k, v in (changes or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def fuzz_env(seed=SEED, **changes):
    """The changes to os.environ of a fuzzing run: GODEBUG keeps the
    settings already there and gets fuzzseed=seed (an earlier fuzzseed is
    replaced), plus `changes` (applied after, so a GODEBUG among them wins
    whole)."""
    kept = [s for s in os.environ.get("GODEBUG", "").split(",")
            if s and not s.startswith("fuzzseed=")]
    env = {"GODEBUG": ",".join(kept + ["fuzzseed=%d" % seed])}
    env.update(changes)
    return env


# -- running processes -------------------------------------------------------

class Result:
    """A finished process: cmd, rc (None when the hang guard killed it),
    stdout, stderr, and pgid (its process group, for wait_group_gone)."""

    def __init__(self, cmd, rc, stdout, stderr, pgid=None):
        self.cmd = [str(a) for a in cmd]
        self.rc, self.stdout, self.stderr = rc, stdout, stderr
        self.pgid = pgid

    @property
    def out(self):
        """stdout and stderr together (stdout first)."""
        return self.stdout + self.stderr

    def __str__(self):
        def tail(s):
            return s if len(s) <= 6000 else "...\n" + s[-6000:]
        return "$ %s\nexit status %s\n--- stdout:\n%s\n--- stderr:\n%s" % (
            " ".join(self.cmd), self.rc, tail(self.stdout), tail(self.stderr))

    __repr__ = __str__  # pytest shows the repr of a non-string message


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _text(b):
    return b.decode(errors="replace")


def run(cmd, cwd=None, env=None, timeout=HANG_GUARD, exe=None):
    """Runs cmd to its end in a session of its own, in cwd, with the changes
    `env` to os.environ (and exe as the program when given: cmd[0] is then
    only its argv[0]); a Result. The time-out is a hang guard: the group is
    killed and the case fails."""
    p = subprocess.Popen(cmd, cwd=cwd, env=environ(env), executable=exe,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p.pid)
        out, err = p.communicate()
        r = Result(cmd, None, _text(out), _text(err), p.pid)
        _fail("hang guard: did not end within %d s\n%s" % (timeout, r))
    return Result(cmd, p.returncode, _text(out), _text(err), p.pid)


def wait_until(cond, what, timeout=HANG_GUARD, detail=lambda: ""):
    """Polls cond() until it returns a true value, which is returned; fails
    the case (naming `what`) when the hang guard expires first."""
    end = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > end:
            _fail("hang guard: %s did not happen within %d s\n%s"
                        % (what, timeout, detail()))
        time.sleep(0.02)


class Background:
    """A process started in a session of its own (env: changes to
    os.environ), its stdout and stderr going to files in `outdir` (named
    after `tag`). The `background` fixture of tests/conftest.py starts
    these and kills what is left of them at the end of the case."""

    def __init__(self, cmd, cwd, env, outdir, tag="bg"):
        self.cmd = cmd
        self.outpath = os.path.join(outdir, tag + ".out")
        self.errpath = os.path.join(outdir, tag + ".err")
        with open(self.outpath, "w") as o, open(self.errpath, "w") as e:
            self.p = subprocess.Popen(cmd, cwd=cwd, env=environ(env),
                                      stdout=o, stderr=e,
                                      start_new_session=True)
        self.pid = self.p.pid
        self.rc = None

    @property
    def stdout(self):
        return read(self.outpath)

    @property
    def stderr(self):
        return read(self.errpath)

    def result(self):
        return Result(self.cmd, self.rc, self.stdout, self.stderr, self.pid)

    def wait_for_text(self, text, timeout=HANG_GUARD):
        """Waits for text in its stderr or stdout; fails if the process
        ends without printing it or the hang guard expires."""
        def seen():
            if text in self.stderr or text in self.stdout:
                return True
            if self.p.poll() is not None:
                self.rc = self.p.returncode
                _fail("ended before printing %r\n%s"
                            % (text, self.result()))
            return False
        wait_until(seen, "the output %r" % text, timeout,
                   lambda: str(self.result()))

    def wait_for_workers(self, n=2, timeout=HANG_GUARD):
        """Waits until at least n fuzz workers run under it; their pids."""
        return wait_until(
            lambda: (lambda k: k if len(k) >= n else None)(
                fuzz_workers(self.pid)),
            "%d worker processes" % n, timeout, lambda: str(self.result()))

    def wait(self, timeout=HANG_GUARD):
        """Its exit status; the hang guard kills the group and fails."""
        try:
            self.rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(self.pid)
            self.rc = self.p.wait()
            _fail("hang guard: did not end within %d s\n%s"
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


# -- fuzzing runs ------------------------------------------------------------

def fuzz_cmd(cgofuzz, binary, target, cache, extra=(), parallel=2):
    """`cgofuzz fuzz` of one target (an anchored -fuzz) with its cache."""
    return [cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=%d" % parallel,
            "-fuzzcachedir=" + cache] + list(extra) + [binary]


def cgofuzz_in(cgofuzz, binary, target, cwd, extra=(), parallel=1,
               seed=SEED):
    """`cgofuzz fuzz` of one target in cwd (a package's copy), its cache in
    cwd/cache, with GODEBUG=fuzzseed=seed; a Result."""
    return run(fuzz_cmd(cgofuzz, binary, target, os.path.join(cwd, "cache"),
                        extra, parallel=parallel), cwd, fuzz_env(seed))


def fuzz(binary, target, cwd, budget, parallel=1, extra=(), env=None,
         seed=SEED, exe=None):
    """Fuzzes target of a test binary (a C target or a Go test binary:
    -test.fuzz=^target$, or the pattern as given when it is not a plain
    name) in cwd for budget execs (-test.fuzztime=<budget>x), with its own
    cache directory in cwd, in the environment fuzz_env(seed, **env).
    Returns a Result."""
    pattern = "^%s$" % target if re.match(r"^\w+$", target) else target
    argv = [binary, "-test.fuzz=" + pattern,
            "-test.fuzztime=%dx" % budget, "-test.parallel=%d" % parallel,
            "-test.fuzzcachedir=" + os.path.join(cwd, "cache")] + list(extra)
    return run(argv, cwd=cwd, env=fuzz_env(seed, **(env or {})), exe=exe)


def build_go_test(go, pkgdir, out):
    """`go test -c -fuzz=. -o out` in pkgdir; fails the case with go's
    output when it does not build."""
    r = run([go, "test", "-c", "-fuzz=.", "-o", out, "."], pkgdir)
    assert r.rc == 0, "go test -c failed\n%s" % r
    return out


def build_go_test_copy(go, src, tmp_path_factory, name):
    """The test binary of the Go package at src, built (once per session,
    by a session fixture) from a copy in a temporary directory, so that the
    repository stays clean. name names the copy and the binary."""
    d = tmp_path_factory.mktemp(name + "-build")
    pkg = str(d / name)
    shutil.copytree(src, pkg)
    return build_go_test(go, pkg, str(d / (name + ".test")))


def written(text):
    """The paths that "Failing input written to PATH" lines name."""
    return re.findall(r"Failing input written to (\S+)", text)


def failing_input(text, target=r"\w+"):
    """The path (relative to the run's directory) of the failing input that
    a fuzzing run reported as written to testdata, or None."""
    m = re.search(r"Failing input written to (testdata/fuzz/%s/\w+)" % target,
                  text)
    return m and m.group(1)


def new_interesting(stderr):
    """The "new interesting: N" count of the last progress line, or None."""
    n = re.findall(r"new interesting: (\d+)", stderr)
    return int(n[-1]) if n else None


def corpus_entries(d):
    """The entries of a corpus or cache directory as Go and cgofuzz read it:
    its regular files (dot-files included), sorted. Subdirectories, such
    as the hidden .NAME.tmp-XXXXXX one a coordinator killed while writing
    leaves (harmless by design), are not entries."""
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if os.path.isfile(os.path.join(d, f)))


# -- process trees (/proc) ---------------------------------------------------

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


def fuzz_workers(pid):
    """The descendants of pid that are fuzz workers (-test.fuzzworker): not
    the other programs a run starts (go tool objdump for the dictionary,
    discovery runs), nor the comparison-feedback tracing worker, which runs
    a patched copy of the binary from a memfd named cgofuzz-cmp (the fuzz
    workers' own copy is cgofuzz-fast)."""
    out = []
    for k in descendants(pid):
        try:
            cmd = read("/proc/%d/cmdline" % k)
            exe = os.readlink("/proc/%d/exe" % k)
        except OSError:
            continue
        if ("-test.fuzzworker" in cmd.split("\0") and
                "memfd:cgofuzz-cmp" not in exe):
            out.append(k)
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


# -- files -------------------------------------------------------------------

def read(path):
    """The text of a file ("" when it cannot be read)."""
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def write(path, text):
    """Writes text to path, creating its directory."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def fresh(path):
    """An empty directory at path (removed first if it exists)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


# -- Go's quoting ------------------------------------------------------------

def go_unquote(s):
    """Decodes Go's strconv.Quote output (as %q writes []byte values):
    \\xNN is a byte, \\u/\\U and raw non-ASCII characters are UTF-8."""
    assert s[0] == '"' and s[-1] == '"', s[:20]
    s = s[1:-1]
    out = bytearray()
    i = 0
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
              "\\": 92, '"': 34, "'": 39}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        e = s[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif e == "u":
            out += chr(int(s[i + 2:i + 6], 16)).encode("utf-8")
            i += 6
        elif e == "U":
            out += chr(int(s[i + 2:i + 10], 16)).encode("utf-8")
            i += 10
        elif e in "01234567":
            out.append(int(s[i + 1:i + 4], 8))
            i += 4
        else:
            raise ValueError("bad escape \\" + e)
    return bytes(out)


def go_bytes(text):
    """The value of a corpus file holding one []byte ("go test fuzz v1\n
    []byte(\"...\")\n"), as bytes."""
    line = text.split("\n")[1]
    assert line.startswith("[]byte(") and line.endswith(")"), line
    return go_unquote(line[7:-1])


def copy_module(src, dest, module):
    """Copies the Go module src to dest under a module path of its own
    (example.com/m<random>, in place of `module` in its go.mod, and in the
    imports of its own packages in its .go files): go's fuzz cache is per
    import path, so each case gets a fresh one. Returns dest."""
    shutil.copytree(src, dest)
    gomod = os.path.join(dest, "go.mod")
    with open(gomod) as f:
        text = f.read()
    assert module in text, (gomod, module)
    new = "example.com/m%s" % uuid.uuid4().hex[:12]
    with open(gomod, "w") as f:
        f.write(text.replace(module, new))
    for root, _, files in os.walk(dest):
        for name in files:
            if not name.endswith(".go"):
                continue
            p = os.path.join(root, name)
            with open(p) as f:
                t = f.read()
            u = t.replace('"%s/' % module, '"%s/' % new)
            if u != t:
                with open(p, "w") as f:
                    f.write(u)
    return dest

#!/usr/bin/env python3
"""Fault injection into `cgofuzz fuzz` (docs/faults.md has the table).

Builds tests/faults/gopkg with `go test -c -fuzz=.`; protocol faults go
through fakeworker.py. Each case checks: the expected exit status and
message, no crash of cgofuzz, no orphan process, and that every failure
written reproduces. Every subprocess has a time-out.
  test_faults.py --cgofuzz build/bin/cgofuzz [-k NAME]

Requires strace (scripts/install-deps.sh installs it) for the cases that
inject faults into the coordinator's own system calls (t_sigint_writing,
t_enospc, t_killed_writing, and the ENOSPC half of t_cache_unwritable):
without it they print "SKIP: strace missing" and check nothing.
"""
import argparse, glob, hashlib, os, re, shutil, signal, subprocess, sys, \
    tempfile, time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish  # noqa: E402  (tests/checks.py)

HERE = os.path.dirname(os.path.abspath(__file__))


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for t in glob.glob("/proc/%d/task/*/children" % p):
            try:
                kids = [int(x) for x in open(t).read().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


class Env:
    def __init__(self, args, tmp, binary):
        self.cgofuzz, self.tmp, self.binary = args.cgofuzz, tmp, binary
        self.n = 0

    def pkg(self):
        self.n += 1
        d = os.path.join(self.tmp, "pkg%d" % self.n)
        shutil.copytree(os.path.join(HERE, "gopkg"), d)
        return d

    def cmd(self, target, extra, binary=None, cache=None, parallel=2):
        return [self.cgofuzz, "fuzz", "-fuzz=^%s$" % target,
                "-parallel=%d" % parallel,
                "-fuzzcachedir=" + (cache or os.path.join(self.tmp, "cache"))] + \
            list(extra) + [binary or self.binary]

    def env(self, mode=None):
        e = dict(os.environ, FAULT_REAL=self.binary, FAULT_CGOFUZZ=self.cgofuzz)
        if mode is not None:
            e["FAULT_MODE"] = mode
        return e

    def run(self, target, extra, pkg=None, mode=None, timeout=90):
        binary = os.path.join(HERE, "fakeworker.py") if mode else None
        return subprocess.run(self.cmd(target, extra, binary), cwd=pkg or self.pkg(),
                              capture_output=True, text=True, errors="replace",
                              timeout=timeout, env=self.env(mode))

    def start(self, target, extra, pkg):
        out = open(os.path.join(pkg, "..", "bg%d.out" % self.n), "w+")
        return subprocess.Popen(self.cmd(target, extra), cwd=pkg, stdout=out,
                                stderr=subprocess.STDOUT, text=True,
                                start_new_session=True, env=self.env()), out


def reproduces(env, pkg, path):
    name = os.path.basename(path)
    target = os.path.basename(os.path.dirname(path))
    r = subprocess.run([env.binary, "-test.run=%s/%s" % (target, name),
                        "-test.timeout=20s"], cwd=pkg, capture_output=True,
                       text=True, errors="replace", timeout=60)
    return r.returncode != 0


def written(out):
    return re.findall(r"Failing input written to (\S+)", out)


def wait_text(f, text, timeout):
    end = time.time() + timeout
    while time.time() < end:
        f.seek(0)
        if text in f.read():
            return True
        time.sleep(0.05)
    return False


# --- worker-side protocol faults (fakeworker.py) ---

def t_protocol(env):
    for mode, want in [("truncate", "communicating with fuzzing process"),
                       ("unasked", ""), ("oversize", ""), ("close", ""),
                       ("noping", "")]:
        t0 = time.time()
        try:
            r = env.run("FuzzClean", ["-fuzztime=3s"], mode=mode, timeout=60)
        except subprocess.TimeoutExpired:
            check("protocol %s: ends in time" % mode, False)
            continue
        out = r.stdout + r.stderr
        check("protocol %s: exit 0/1, no crash of cgofuzz (rc=%d, %.1fs)"
              % (mode, r.returncode, time.time() - t0),
              r.returncode in (0, 1) and time.time() - t0 < 40, out)
        check("protocol %s: expected message" % mode, want in r.stdout, out)
        check("protocol %s: no failure written" % mode, not written(out), out)
        print("     [%s] %s" % (mode, r.stdout.strip().replace("\n", " | ")[:200]))


def t_shm(env):
    # Go's coordinator checks the input in shm after each call (worker.go:
    # "workerServer.fuzz modified input") and stops with that error; it
    # writes nothing, since the input is no longer known. cgofuzz does the
    # same, and must not read past the mapping for a bogus value_len.
    for mode in ("shmlen", "shmdata"):
        pkg = env.pkg()
        r = env.run("FuzzCrash", ["-fuzztime=60s"], pkg=pkg, mode=mode)
        out = r.stdout + r.stderr
        check("%s: FAIL 'workerServer.fuzz modified input', nothing written"
              % mode, r.returncode == 1 and
              "workerServer.fuzz modified input" in r.stdout and
              not written(r.stdout), out)


def t_min_death(env):
    pkg = env.pkg()
    r = env.run("FuzzMinDie", ["-fuzztime=60s"], pkg=pkg)
    out = r.stdout + r.stderr
    w = written(r.stdout)
    check("death during minimize: FAIL, written", r.returncode == 1 and
          len(w) == 1, out)
    if w:
        check("death during minimize: reproduces",
              reproduces(env, pkg, os.path.join(pkg, w[0])))


def t_sigstop(env):
    pkg = env.pkg()
    p, out = env.start("FuzzClean", ["-fuzztime=3s"], pkg)
    try:
        wait_text(out, "now fuzzing", 30)
        kids = [k for k in descendants(p.pid)]
        for k in kids:
            os.kill(k, signal.SIGSTOP)
        t0 = time.time()
        rc = p.wait(timeout=40)
        check("SIGSTOP worker: ends by -fuzztime + grace (rc=%d, %.1fs)"
              % (rc, time.time() - t0), rc in (0, 1), "")
    except subprocess.TimeoutExpired:
        check("SIGSTOP worker: ends by -fuzztime + grace", False)
    finally:
        for k in descendants(p.pid):
            os.kill(k, signal.SIGKILL)
        os.killpg(p.pid, signal.SIGKILL) if p.poll() is None else None
        p.wait(timeout=10)


# --- coordinator side ---

def t_coord_sigkill(env):
    pkg = env.pkg()
    p, out = env.start("FuzzClean", ["-fuzztime=60s"], pkg)
    ok = wait_text(out, "now fuzzing", 30)
    kids = descendants(p.pid)
    check("coordinator SIGKILL: workers running", ok and len(kids) >= 2, str(kids))
    p.kill()
    p.wait(timeout=10)
    end = time.time() + 10
    while time.time() < end and any(alive(k) for k in kids):
        time.sleep(0.1)
    left = [k for k in kids if alive(k)]
    check("coordinator SIGKILL: no orphan workers", not left, str(left))
    for k in left:
        os.kill(k, signal.SIGKILL)


def t_sigterm(env):
    for sig, marker, target in [(signal.SIGTERM, "now fuzzing", "FuzzClean"),
                                (signal.SIGINT, "minimizing", "FuzzSlowMin")]:
        pkg = env.pkg()
        p, out = env.start(target, ["-fuzztime=60s"], pkg)
        ok = wait_text(out, marker, 60)
        kids = descendants(p.pid)
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rc = p.wait(timeout=10)
        out.seek(0)
        text = out.read()
        name = "%s during %s" % (signal.Signals(sig).name, marker)
        if target == "FuzzClean":
            check(name + ": PASS", ok and rc == 0, text)
        else:
            w = written(text)
            check(name + ": crasher written, FAIL", ok and rc == 1 and len(w) == 1, text)
            if w:
                check(name + ": reproduces", reproduces(env, pkg, os.path.join(pkg, w[0])))
        time.sleep(0.5)
        check(name + ": no orphans", not [k for k in kids if alive(k)])


def block_dir(d):
    """Creates d so that nothing can be created in it. We run as root in
    CI, where a read-only mode would not stop a write, so d is made
    immutable (ext4's chattr +i stops root too). False: not possible here."""
    os.makedirs(d)
    if subprocess.run(["chattr", "+i", d], capture_output=True).returncode == 0:
        return True
    if os.geteuid() == 0:
        print("skip: chattr +i is not available here")
        return False
    os.chmod(d, 0o555)
    return True


def unblock_dir(d):
    subprocess.run(["chattr", "-i", d], capture_output=True)
    os.chmod(d, 0o755)


def t_write_fallback(env):
    pkg = env.pkg()
    # testdata/fuzz/FuzzCrash exists but nothing can be created in it.
    d = os.path.join(pkg, "testdata", "fuzz", "FuzzCrash")
    if not block_dir(d):
        return
    fallback_tmp = os.path.join(env.tmp, "fallback-tmp")
    os.makedirs(fallback_tmp, exist_ok=True)
    try:
        r = subprocess.run(env.cmd("FuzzCrash", ["-fuzztime=60s"]), cwd=pkg,
                           capture_output=True, text=True, errors="replace",
                           timeout=90, env=dict(env.env(), TMPDIR=fallback_tmp))
    finally:
        unblock_dir(d)
    out = r.stdout + r.stderr
    m = re.search(r"Failing input written to (\S+)", r.stdout)
    path = m and m.group(1)
    check("unwritable testdata: FAIL, says why and where the failure went",
          r.returncode == 1 and path and path.startswith(fallback_tmp) and
          "could not write the failing input to testdata/fuzz/FuzzCrash" in out
          and "written to %s instead" % path in out, out)
    if path and os.path.isfile(path):
        check("unwritable testdata: the fallback file holds the input",
              open(path).read().startswith("go test fuzz v1\n"))
        # Copied where go test looks, it reproduces.
        shutil.copy(path, d)
        check("unwritable testdata: fallback reproduces",
              reproduces(env, pkg, os.path.join(d, os.path.basename(path))))


def t_nothing_writable(env):
    # Every place a failing input can go is blocked: testdata/fuzz/FuzzCrash
    # is immutable, and "cgofuzz-failures" is a plain file both in $TMPDIR
    # (which stays writable for the shared-memory files) and in the working
    # directory, so both fallback directories fail too. The input must then
    # be printed in full on stderr.
    pkg = env.pkg()
    d = os.path.join(pkg, "testdata", "fuzz", "FuzzCrash")
    if not block_dir(d):
        return
    tmp = os.path.join(env.tmp, "blocked-tmp")
    os.makedirs(tmp, exist_ok=True)
    for where in (tmp, pkg):
        open(os.path.join(where, "cgofuzz-failures"), "w").close()
    try:
        r = subprocess.run(env.cmd("FuzzCrash", ["-fuzztime=60s"]), cwd=pkg,
                           capture_output=True, text=True, errors="replace",
                           timeout=90, env=dict(env.env(), TMPDIR=tmp))
    finally:
        unblock_dir(d)
    # The header, then one Go value expression per line ([]byte("..."), ...).
    m = re.search(r"could not be written anywhere; here it is:\n"
                  r"(go test fuzz v1\n(?:[\w\[\].]+\(.*\)\n)+)", r.stderr)
    check("nothing writable: FAIL, all three places tried and named",
          r.returncode == 1 and r.stderr.count("could not write the failing "
                                               "input to") == 3,
          r.stdout + r.stderr)
    check("nothing writable: the input is printed on stderr", m is not None,
          r.stderr)
    if m:
        # Saved by hand where go test looks, it reproduces.
        name = os.path.join(d, "from-stderr")
        with open(name, "w") as f:
            f.write(m.group(1))
        check("nothing writable: the printed input reproduces",
              reproduces(env, pkg, name))


def t_shared_cache(env):
    cache = os.path.join(env.tmp, "cache")
    procs = []
    for _ in range(2):
        pkg = env.pkg()
        procs.append(env.start("FuzzClean", ["-fuzztime=4s"], pkg))
    rcs = []
    for p, out in procs:
        try:
            rcs.append(p.wait(timeout=60))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            rcs.append(p.wait(timeout=10))
    text = "".join(open(o.name).read() for _, o in procs)
    check("two processes, one cache: both PASS", rcs == [0, 0], text)
    d = os.path.join(cache, "FuzzClean")
    files = os.listdir(d) if os.path.isdir(d) else []
    bad = [f for f in files
           if not open(os.path.join(d, f), "rb").read().startswith(b"go test fuzz v1\n")]
    check("two processes, one cache: only whole corpus files (%d)" % len(files),
          files and not bad, str(bad))


def t_bad_cache(env):
    d = os.path.join(env.tmp, "cache", "FuzzClean")
    os.makedirs(d, exist_ok=True)
    bad = {"garbage": b"garbage\n", "empty": b"",
           "wrongtype": b'go test fuzz v1\nstring("Zoo")\n',
           "wrongarity": b'go test fuzz v1\n[]byte("Z")\n[]byte("Z")\n',
           "badversion": b'go test fuzz v2\n[]byte("Z")\n',
           "binary": bytes(range(256))}
    for k, v in bad.items():
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)
    os.makedirs(os.path.join(d, "subdir"), exist_ok=True)
    r = env.run("FuzzClean", ["-fuzztime=2000x"])
    out = r.stdout + r.stderr
    # FuzzClean never fails: the bad files must be skipped, not fail the run.
    check("malformed/wrong-type cache files: skipped, PASS",
          r.returncode == 0 and "PASS" in r.stdout, out)
    # One warning (Go skips silently; its readCache has a TODO to warn),
    # naming each bad file with the reason; the subdirectory is not a file.
    check("malformed cache files: one warning naming the cache",
          r.stderr.count("warning: skipping malformed files in the fuzz "
                         "cache") == 1 and d in r.stderr, r.stderr)
    lines = [l for l in r.stderr.splitlines() if l.startswith("\t" + d)]
    named = sorted(os.path.basename(l.split(":")[0]) for l in lines)
    check("malformed cache files: each named once, with a reason",
          named == sorted(bad) and all(len(l.split(": ", 1)) == 2 and
                                       l.split(": ", 1)[1] for l in lines),
          "%s\n%s" % (named, r.stderr))
    check("malformed cache files: reasons are Go's",
          "mismatched types in corpus entry: [string], want [[]uint8]"
          in r.stderr and "wrong number of values in corpus entry: 2, "
          "want 1" in r.stderr, r.stderr)


def t_shm_capacity(env):
    # Go's workers have 100 MiB of shared memory for the value; a testdata
    # input over it must be refused with a clear error, not crash anything.
    pkg = env.pkg()
    d = os.path.join(pkg, "testdata", "fuzz", "FuzzClean")
    os.makedirs(d)
    with open(os.path.join(d, "huge"), "w") as f:
        f.write('go test fuzz v1\n[]byte("%s")\n' % ("A" * ((100 << 20) + 1)))
    r = env.run("FuzzClean", ["-fuzztime=200x"], pkg=pkg, timeout=120)
    out = r.stdout + r.stderr
    check("input over shm capacity: exit 1/2 with a message, no crash "
          "(rc=%d)" % r.returncode, r.returncode in (1, 2) and
          ("too large" in out or "capacity" in out or "shared memory" in out), out)


# --- faults in the coordinator's own system calls (strace) ---
#
# strace traces the coordinator only (no -f: the workers it forks are not
# traced) and tampers with one chosen call: a delay (the window a ^C has to
# hit), an error (ENOSPC, EINTR) or a signal. ZRun makes the crash-file
# write happen at the same point of every run, so that the call can be
# chosen by its number (strace's when=N).

STRACE = shutil.which("strace")
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
    return dict(env.env(), TMPDIR=tmpdir,
                ASAN_OPTIONS=(asan + ":" if asan else "") + "detect_leaks=0")


def have_strace(what):
    if STRACE:
        return True
    print("SKIP: strace missing (%s not checked)" % what)
    return False


def group_gone(pgid, timeout=5):
    """No process left in the group (the coordinator and its workers)."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


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


def strace_calls(log):
    """The coordinator's traced calls from a strace -o log, in order, as
    (name, n, line): n counts the calls of that name so far (strace's
    when= numbering); a signal is (SIGNAME, 0, line)."""
    calls, seen = [], {}
    if not os.path.exists(log):
        return calls
    for line in open(log, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"(\w+)\(", line)
        if m:
            seen[m.group(1)] = seen.get(m.group(1), 0) + 1
            calls.append((m.group(1), seen[m.group(1)], line))
        elif line.startswith("--- SIG"):
            calls.append((line.split()[1], 0, line))
    return calls


class ZRun:
    """FuzzCrash whose failing input is "Z", put in a private cache: the
    worker fails on it during the warm-up, and it cannot shrink, so the
    file written is always Z_NAME holding Z_INPUT. With -parallel=1 the
    coordinator makes the same calls in the same order on every run up to
    that write, so the write(2) of the crash file is always the N-th
    write(2); zplan finds N with a dry run. Private $TMPDIR (shm files,
    first fallback)."""

    def __init__(self, env, tag):
        self.env = env
        self.pkg = env.pkg()
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

    def start(self, inject=None):
        cmd = [STRACE, "-qq", "-y", "-o", self.log, "-e", "trace=" + TRACED]
        if inject:
            cmd += ["-e", "inject=" + inject]
        cmd += self.env.cmd("FuzzCrash", ["-fuzztime=60s"], cache=self.cache,
                            parallel=1)
        self.outf = open(os.path.join(self.root, "stdout"), "w+")
        self.errf = open(os.path.join(self.root, "stderr"), "w+")
        self.p = subprocess.Popen(cmd, cwd=self.pkg, stdout=self.outf,
                                  stderr=self.errf, start_new_session=True,
                                  env=strace_env(self.env, self.tmpdir))

    def finish(self):
        try:
            self.rc = self.p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.rc = self.p.wait(timeout=10)
            check("strace run ends in time", False)
        self.outf.seek(0)
        self.errf.seek(0)
        self.stdout, self.stderr = self.outf.read(), self.errf.read()
        self.outf.close()
        self.errf.close()
        self.calls = strace_calls(self.log)
        self.no_orphans = group_gone(self.p.pid)

    def run(self, inject=None):
        self.start(inject)
        self.finish()

    def trace(self):
        return "\n".join(c[2] for c in self.calls)

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
        return [f for f in os.listdir(self.tmpdir) if f != "cgofuzz-failures"]

    def check_clean(self, name):
        """What every run must leave: no orphan workers, no shm files, no
        sanitizer report (ASan's exit status 1 looks like a FAIL)."""
        check(name + ": no orphans, no shm files, no sanitizer report",
              self.no_orphans and not self.shm_files() and
              "Sanitizer" not in self.stderr,
              str(self.shm_files()) + self.stderr)


def zplan(env):
    """A dry run of ZRun: for each traced call, the number (when=N) of its
    first call on the crash file in testdata, e.g. {"openat": 15,
    "write": 7, "close": 22, "rename": 1}. {} if the dry run failed."""
    if getattr(env, "zplan", None) is None:
        z = ZRun(env, "zplan")
        z.run()
        plan = {}
        for name, n, line in z.calls:
            if n and z.place_of(line) == 0 and name not in plan:
                plan[name] = n
        ok = (z.rc == 1 and written(z.stdout) == [z.places[0] + "/" + Z_NAME]
              and all(k in plan for k in ("openat", "write", "close")) and
              any(r in plan for r in RENAMES))
        check("strace dry run: crash file written, its calls found %s" % plan,
              ok, z.stdout + z.stderr + z.trace())
        env.zplan = plan if ok else {}
    return env.zplan


def wait_partial(z, size, timeout):
    """Waits for the crash file being written (under testdata, not yet
    under its final name) to have the given size."""
    final = os.path.join(z.testdata, Z_NAME)
    end = time.time() + timeout
    while time.time() < end and z.p.poll() is None:
        for root, _, files in os.walk(z.testdata):
            for f in files:
                p = os.path.join(root, f)
                try:
                    if p != final and os.path.getsize(p) == size:
                        return p
                except OSError:
                    pass
        time.sleep(0.01)
    return None


def check_written_whole(env, z, name):
    """The usual outcome: FAIL, Z_INPUT written whole to testdata under its
    name, nothing else there, reproduces, no orphans, no shm files."""
    out = z.stdout + z.stderr
    path = os.path.join(z.testdata, Z_NAME)
    check(name + ": FAIL, written to testdata (rc=%d)" % z.rc, z.rc == 1 and
          written(z.stdout) == [z.places[0] + "/" + Z_NAME], out)
    check(name + ": the file is whole", os.path.isfile(path) and
          open(path, "rb").read() == Z_INPUT)
    check(name + ": nothing else in testdata (no partial or temporary file)",
          tree(z.testdata) == [Z_NAME], str(tree(z.testdata)))
    check(name + ": reproduces", os.path.isfile(path) and
          reproduces(env, z.pkg, path))
    z.check_clean(name)


def t_sigint_writing(env):
    # ^C (SIGINT to the whole process group, as a terminal sends it) while
    # the crash file is written. strace stops the coordinator for DELAY_US
    # inside the write(2) of that file, or inside its rename(2); when the
    # temporary file is there (empty, or whole), SIGINT is sent. Third
    # case: that write(2) fails with EINTR and SIGINT is raised at that
    # very call (as on an interruptible file system). The handler only
    # sets a flag, so the write must complete.
    if not have_strace("^C while writing"):
        return
    plan = zplan(env)
    if not plan:
        return
    ren = [r for r in RENAMES if r in plan][0]
    delay = "delay_enter=%d" % DELAY_US
    for what, call, how, size in [
            ("in the crash file's write(2)", "write", delay, 0),
            ("in the crash file's rename(2)", ren, delay, len(Z_INPUT)),
            ("interrupting the crash file's write(2) (EINTR)", "write",
             "error=EINTR:signal=SIGINT", None)]:
        name = "^C " + what
        z = ZRun(env, "sigint")
        z.start("%s:%s:when=%d" % (call, how, plan[call]))
        if size is not None:
            part = wait_partial(z, size, 30)
            time.sleep(0.3)  # well inside the delay
            final = os.path.exists(os.path.join(z.testdata, Z_NAME))
            os.killpg(z.p.pid, signal.SIGINT)
            check(name + ": SIGINT sent while the file was incomplete",
                  part is not None and not final, str(tree(z.testdata)))
        z.finish()
        # Where SIGINT reached the coordinator: right after the tampered
        # call, before its next call.
        at = [i for i, c in enumerate(z.calls)
              if c[0] == call and c[1] == plan[call]]
        sig = [i for i, c in enumerate(z.calls) if c[0] == "SIGINT"]
        nxt = [i for i, c in enumerate(z.calls) if c[1] and at and i > at[0]]
        check(name + ": SIGINT arrived in that call (%s)" %
              (z.calls[at[0]][2][-40:] if at else "?"),
              at and sig and z.calls[at[0]] in z.tampered() and
              sig[0] > at[0] and (not nxt or sig[0] < nxt[0]), z.trace())
        check_written_whole(env, z, name)


def t_enospc(env):
    # Disk full while the crash file is written: strace makes the
    # coordinator's write(2) (or close(2), where NFS reports it) of the
    # crash file in testdata fail with ENOSPC; then the write(2) of it in
    # every place; then every rename(2).
    if not have_strace("disk full when a failure is written"):
        return
    plan = zplan(env)
    if not plan:
        return
    step = None
    for call in ("write", "close"):
        name = "ENOSPC on %s of the crash file" % call
        z = ZRun(env, "enospc")
        z.run("%s:error=ENOSPC:when=%d" % (call, plan[call]))
        out = z.stdout + z.stderr
        fb = os.path.join(z.places[1], Z_NAME)
        hit = [c for c in z.tampered() if z.place_of(c[2]) == 0]
        check(name + ": the failing call was the crash file's",
              len(z.tampered()) == 1 and hit, z.trace())
        check(name + ": FAIL, the error names the file (rc=%d)" % z.rc,
              z.rc == 1 and re.search(
                  r"could not write the failing input to %s: .*%s/%s.*%s" %
                  ((re.escape(z.places[0]),) * 2 + (Z_NAME, ENOSPC)),
                  z.stderr), out)
        check(name + ": written to $TMPDIR/cgofuzz-failures, and says so",
              written(z.stdout) == [fb] and "written to %s instead" % fb in
              z.stderr and os.path.isfile(fb) and
              open(fb, "rb").read() == Z_INPUT, out)
        check(name + ": nothing left in testdata (no partial file)",
              tree(z.testdata) == [], str(tree(z.testdata)))
        z.check_clean(name)
        if os.path.isfile(fb):
            shutil.copy(fb, z.testdata)
            check(name + ": copied back, reproduces",
                  reproduces(env, z.pkg, os.path.join(z.testdata, Z_NAME)))
        if call == "write":
            # The number of the write(2) to the first fallback: the same
            # distance separates it from the second one.
            nxt = [c[1] for c in z.calls if c[0] == "write" and
                   z.place_of(c[2]) == 1]
            step = nxt[0] - plan["write"] if nxt else None
    if step is None:
        check("ENOSPC: the write(2) to the fallback was found", False)
        return
    n = plan["write"]
    ren = ",".join(r for r in RENAMES if r in plan)
    for what, inject in [
            ("every write(2)", "write:error=ENOSPC:when=%d..%d+%d" %
             (n, n + 2 * step, step)),
            ("every rename(2)", "%s:error=ENOSPC" % ren)]:
        name = "ENOSPC on %s of the crash file" % what
        z = ZRun(env, "enospc")
        z.run(inject)
        out = z.stdout + z.stderr
        where = [z.place_of(c[2]) for c in z.tampered()]
        check(name + ": it failed in the three places, in order",
              where == [0, 1, 2], z.trace())
        named = [p for p in z.places if re.search(
            r"could not write the failing input to %s: .*%s/%s.*%s" %
            (re.escape(p), re.escape(p), Z_NAME, ENOSPC), z.stderr)]
        check(name + ": FAIL, the three places named with the error "
              "(rc=%d)" % z.rc, z.rc == 1 and named == z.places, out)
        m = re.search(r"could not be written anywhere; here it is:\n"
                      r"(go test fuzz v1\n(?:[\w\[\].]+\(.*\)\n)+)", z.stderr)
        check(name + ": the input is printed on stderr",
              m is not None and m.group(1).encode() == Z_INPUT, z.stderr)
        check(name + ": nothing left in any of the three places",
              not z.leftovers(), str(z.leftovers()))
        z.check_clean(name)
        if m:
            saved = os.path.join(z.testdata, "from-stderr")
            os.makedirs(z.testdata, exist_ok=True)
            with open(saved, "w") as f:
                f.write(m.group(1))
            check(name + ": saved by hand, reproduces",
                  reproduces(env, z.pkg, saved))


def t_killed_writing(env):
    # The coordinator SIGKILLed (as by the OOM killer) at the write(2) of
    # the crash file. That input dies with it (the next run finds it again:
    # it is still in the cache), but testdata must stay valid: go test
    # reads every file in testdata/fuzz/<Target> and fails the target on a
    # malformed one, so a partial file left there would break the
    # package's tests (and cgofuzz's next run).
    if not have_strace("killed while writing"):
        return
    plan = zplan(env)
    if not plan:
        return
    name = "SIGKILL at the crash file's write(2)"
    z = ZRun(env, "killed")
    z.run("write:signal=SIGKILL:when=%d" % plan["write"])
    check(name + ": killed there (rc=%d)" % z.rc, z.rc == -signal.SIGKILL and
          z.calls and z.place_of(z.calls[-1][2]) == 0, z.trace()[-2000:])
    check(name + ": no orphan workers", z.no_orphans)
    # The shm file's name is removed as soon as it is mapped (csrc/shm.c),
    # so even a SIGKILL leaves nothing in $TMPDIR.
    check(name + ": no shm files left in $TMPDIR", not z.shm_files(),
          str(z.shm_files()))
    top = [f for f in os.listdir(z.testdata)
           if os.path.isfile(os.path.join(z.testdata, f))] \
        if os.path.isdir(z.testdata) else []
    r = subprocess.run([env.binary, "-test.run=^FuzzCrash$",
                        "-test.timeout=20s"], cwd=z.pkg, capture_output=True,
                       text=True, errors="replace", timeout=60)
    check(name + ": testdata still valid, go test passes (files there: %s)"
          % top, r.returncode == 0, r.stdout + r.stderr + str(tree(z.testdata)))
    r = subprocess.run(env.cmd("FuzzCrash", ["-fuzztime=60s"], cache=z.cache),
                       cwd=z.pkg, capture_output=True, text=True,
                       errors="replace", timeout=90,
                       env=dict(env.env(), TMPDIR=z.tmpdir))
    path = os.path.join(z.testdata, Z_NAME)
    check(name + ": the next run writes it, it reproduces",
          r.returncode == 1 and written(r.stdout) == [z.places[0] + "/" + Z_NAME]
          and reproduces(env, z.pkg, path), r.stdout + r.stderr)


def t_cache_unwritable(env):
    # New interesting inputs cannot be saved in the cache: one warning
    # naming the cache directory, fuzzing goes on (the inputs stay in
    # memory), PASS. (a) the cache directory is immutable; (b) disk full:
    # strace fails every rename(2) of the coordinator with ENOSPC (here its
    # only renames are cache writes), so the temporary files must not pile
    # up in the cache either.
    ren = ",".join("?" + r for r in RENAMES)
    for how in ("immutable", "ENOSPC"):
        cache = os.path.join(env.tmp, "cache-" + how)
        d = os.path.join(cache, "FuzzClean")
        tmpdir = os.path.join(env.tmp, "tmp-cache-" + how)
        os.makedirs(tmpdir)
        cmd = env.cmd("FuzzClean", ["-fuzztime=2s"], cache=cache)
        run_env = dict(env.env(), TMPDIR=tmpdir)
        if how == "immutable":
            if not block_dir(d):
                continue
        else:
            if not have_strace("cache full"):
                continue
            os.makedirs(d)
            run_env = strace_env(env, tmpdir)
            cmd = [STRACE, "-qq", "-o", os.path.join(tmpdir, "..", "cache.log"),
                   "-e", "trace=" + ren, "-e", "inject=%s:error=ENOSPC" % ren] + cmd
        try:
            r = subprocess.run(cmd, cwd=env.pkg(), capture_output=True,
                               text=True, errors="replace", timeout=60,
                               env=run_env)
        finally:
            if how == "immutable":
                unblock_dir(d)
        out = r.stdout + r.stderr
        warns = [l for l in r.stderr.splitlines()
                 if "could not write new inputs to the cache" in l]
        n = [int(x) for x in re.findall(r"new interesting: (\d+)", r.stderr)]
        name = "cache %s" % how
        check(name + ": fuzzing goes on, PASS (%d new interesting)" %
              (n[-1] if n else 0), r.returncode == 0 and
              r.stdout.endswith("PASS\n") and n and n[-1] >= 2, out)
        check(name + ": one warning, naming the cache directory",
              len(warns) == 1 and d + "/" in warns[0] and
              (how != "ENOSPC" or ENOSPC in warns[0]), out)
        check(name + ": nothing left in the cache directory",
              tree(d) == [], str(tree(d)))
        check(name + ": no shm files left, no sanitizer report",
              os.listdir(tmpdir) == [] and "Sanitizer" not in r.stderr,
              str(os.listdir(tmpdir)) + r.stderr)


# Known bugs in others' code: failing tests, run with --known-bugs only
# (not in ctest; see docs/faults.md).
KNOWN_BUGS = []
CASES = [t_coord_sigkill, t_shared_cache, t_bad_cache, t_protocol, t_shm,
         t_min_death, t_sigstop, t_sigterm, t_shm_capacity, t_write_fallback,
         t_nothing_writable, t_sigint_writing, t_enospc, t_killed_writing,
         t_cache_unwritable]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgofuzz", required=True)
    ap.add_argument("-k", default="")
    ap.add_argument("--known-bugs", action="store_true",
                    help="run only the known-bug cases (expected to fail)")
    args = ap.parse_args()
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    tmp = tempfile.mkdtemp(prefix="cgofuzz-faults-")
    try:
        binary = os.path.join(tmp, "faults.test")
        b = subprocess.run(["go", "test", "-c", "-fuzz=.", "-o", binary, "."],
                           cwd=os.path.join(HERE, "gopkg"), capture_output=True,
                           text=True, timeout=300)
        if b.returncode != 0:
            print(b.stderr)
            return 1
        env = Env(args, tmp, binary)
        for case in KNOWN_BUGS if args.known_bugs else CASES:
            if args.k in case.__name__:
                print("== " + case.__name__, flush=True)
                case(env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())

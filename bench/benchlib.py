"""benchlib: what every benchmark shares (bench/README.md).

Each benchmark is a folder of bench/ (its script, its targets); its results
go to bench/results/<folder>/. A script finds this module with

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import benchlib

and takes from it the tree's paths (ROOT, BENCH, RESULTS, CACHE), logging
(log: a line of the markdown report, kept in LINES and printed; note: a
progress line on stderr), commands (sh: output captured; sh_merged: stdout
and stderr as one text; must: merged, exit on failure; Proc: a process
whose output lines are timestamped), fresh directories, text tables, and
for the Go benchmarks (cmpgates, gobugs) running an engine with its output
polled, f.Add seeds read from a test file and written for
go-118-fuzz-build, that tool's libFuzzer build, and medians and ratios with
misses counted as the cap.

Python 3 stdlib, Linux.
"""
import datetime
import glob
import os
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
RESULTS = os.path.join(BENCH, "results")  # one folder per benchmark
CACHE = os.path.join(BENCH, ".cache")  # builds and runs kept between runs
sys.path.insert(0, os.path.join(ROOT, "tests"))
from testlib import go_unquote  # noqa: E402  (shared with the tests)

G118 = "github.com/AdamKorcz/go-118-fuzz-build"
G118_PIN = os.path.join(ROOT, "tests", "cli", "corpus", "go118mod", "go.mod")

LINES = []  # the report, markdown
RUNNING = []  # the process group running now, killed on ^C


def log(*a):
    """A line of the report: printed, and kept in LINES for write_report."""
    s = " ".join(str(x) for x in a)
    print(s, flush=True)
    LINES.append(s)


def note(*a):
    """A progress line, on stderr (not part of the report)."""
    print(*a, file=sys.stderr, flush=True)


def result_path(bench, name):
    """bench/results/<bench>/<today>-<name>: where a run's report goes."""
    return os.path.join(RESULTS, bench,
                        "%s-%s" % (datetime.date.today(), name))


def emit(lines, out=None):
    """Prints a report's lines, and writes them to the file out if given."""
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


def sh(argv, cwd=None, env=None, timeout=900):
    """Runs argv with stdout and stderr captured apart."""
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True,
                          text=True, errors="replace", timeout=timeout,
                          stdin=subprocess.DEVNULL)


def sh_merged(argv, **kw):
    """Runs argv with stderr merged into stdout (r.stdout is all of it)."""
    return subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          errors="replace", **kw)


def stdout_of(argv, cwd=None, env=None):
    """The stdout of argv, which must succeed (CalledProcessError)."""
    return subprocess.run(argv, cwd=cwd, env=env, check=True,
                          capture_output=True, text=True).stdout


def must(argv, cwd=None):
    """sh_merged that must succeed: the output, or exit with it."""
    r = sh_merged(argv, cwd=cwd)
    if r.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(argv), r.stdout[-3000:]))
    return r.stdout


def fresh(path):
    """path, emptied (made if missing)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def table(head, rows, out=print):
    """A text table, line by line to out: the first column left-aligned,
    the others right-aligned, a rule under the head, a blank line after."""
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]

    def line(r):
        return "  ".join(str(x).rjust(n) if i else str(x).ljust(n)
                         for i, (x, n) in enumerate(zip(r, w)))
    out(line(head))
    out("  ".join("-" * n for n in w))
    for r in rows:
        out(line(r))
    out("")


class Proc:
    """Runs a process, timestamps its output lines, stops on a pattern."""

    def __init__(self, argv, cwd, timeout, env=None, executable=None,
                 stop=None):
        self.lines = []
        self.t0 = time.monotonic()
        self.hit = None
        self.p = subprocess.Popen(argv, cwd=cwd, env=env,
                                  executable=executable,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL,
                                  start_new_session=True)
        t = threading.Thread(target=self._read, args=(stop,), daemon=True)
        t.start()
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.p.wait()
        t.join(5)
        self.rc = self.p.returncode
        self.wall = time.monotonic() - self.t0
        self.out = "\n".join(l for _, l in self.lines)

    def _read(self, stop):
        for raw in self.p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            now = time.monotonic() - self.t0
            self.lines.append((now, line))
            if stop and self.hit is None and re.search(stop, line):
                self.hit = now

    def kill(self):
        try:
            os.killpg(self.p.pid, 9)
        except ProcessLookupError:
            pass



def tail(text, n=8):
    return "\n".join("    " + l for l in text.splitlines()[-n:])



def go_string(text, i):
    """Parses the Go string literal at text[i]; (bytes, index after it).
    An interpreted literal is decoded by testlib.go_unquote."""
    if text[i] == "`":
        j = text.index("`", i + 1)
        return text[i + 1:j].replace("\r", "").encode(), j + 1
    assert text[i] == '"', text[i:i + 20]
    j = i + 1
    while text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return go_unquote(text[i:j + 1]), j + 1



def go_values(args):
    """The values of an f.Add argument list made of []byte("..."), "..."
    and integer literals (optionally converted, int64(5))."""
    vals, i = [], 0
    while i < len(args):
        c = args[i]
        if c in " \t\n,":
            i += 1
        elif args.startswith("[]byte(", i):
            b, i = go_string(args, i + len("[]byte("))
            vals.append(b)
            i = args.index(")", i) + 1
        elif c in "\"`":
            b, i = go_string(args, i)
            vals.append(b.decode("utf-8", "surrogateescape"))
        else:
            m = re.compile(r"(?:\w+\()?(-?(?:0x[0-9a-fA-F]+|\d+))\)?").match(
                args, i)
            if not m:
                raise ValueError("cannot read f.Add(%s)" % args)
            vals.append(int(m.group(1), 0))
            i = m.end()
    return vals



def go118_encode(types, values):
    """The bytes go-118-fuzz-build's testing.F.Fuzz decodes into values
    (go-fuzz-headers' consumer, docs/corpus-tools.md): []byte and string
    get a 4-byte big-endian length; 64-bit integers 8 bytes and an order
    byte (even: little-endian)."""
    out = b""
    for t, v in zip(types, values):
        if t in ("[]byte", "string"):
            b = v if isinstance(v, bytes) else v.encode("utf-8",
                                                         "surrogateescape")
            if not b:
                raise ValueError("an empty %s cannot be encoded" % t)
            out += struct.pack(">I", len(b)) + b
        elif t in ("int", "int64", "uint", "uint64"):
            out += struct.pack("<Q", v & (2 ** 64 - 1)) + b"\x00"
        elif t in ("int32", "uint32", "rune"):
            out += struct.pack(">I", v & (2 ** 32 - 1))
        elif t in ("int16", "uint16"):
            out += struct.pack("<H", v & 0xffff) + b"\x00"
        elif t in ("int8", "uint8", "byte"):
            out += bytes([v & 0xff])
        elif t == "bool":
            out += b"\x00" if v else b"\x01"
        else:
            raise ValueError("type %s is not supported" % t)
    return out



def go_corpus_file(types, values):
    """A "go test fuzz v1" file of the values (not canonical: \\x escapes)."""
    lines = ["go test fuzz v1"]
    for t, v in zip(types, values):
        if t in ("[]byte", "string"):
            b = v if isinstance(v, bytes) else v.encode("utf-8",
                                                         "surrogateescape")
            q = "".join(chr(c) if 0x20 <= c < 0x7f and c not in (34, 92)
                        else "\\x%02x" % c for c in b)
            lines.append('%s("%s")' % (t, q))
        else:
            lines.append("%s(%d)" % (t, v))
    return "\n".join(lines) + "\n"



class Run:
    pass



def start_session(argv, cwd, outp, env=None):
    """Starts argv in its own session (killed as a group on ^C, RUNNING),
    stdout and stderr into the file outp: (the process, its start on the
    monotonic clock)."""
    with open(outp, "w") as out:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, stdout=out,
                             stderr=subprocess.STDOUT, env=env,
                             stdin=subprocess.DEVNULL, start_new_session=True)
    RUNNING[:] = [p.pid]
    return p, t0


def run_polled(argv, cwd, limit, found, env=None):
    """Runs argv in its own session, output to files in cwd, polling every
    5 ms in the first second, 20 ms up to 10 s and 50 ms after (a bug found
    at start-up takes go test -fuzz 20 ms: a coarser poll would hide what
    tells the engines apart there): .found is the time found(output so
    far) first held; SIGINT at limit, SIGKILL 15 s later. .wall, .rc,
    .out."""
    outp = os.path.join(cwd, ".bench.out")
    r = Run()
    r.found, r.timed_out = None, False
    p, t0 = start_session(argv, cwd, outp, env)
    size, killed = -1, 0
    while p.poll() is None:
        now = time.monotonic() - t0
        if r.found is None:
            sz = os.path.getsize(outp)
            if sz != size:
                size = sz
                with open(outp, errors="replace") as f:
                    if found(f.read()):
                        r.found = now
        if now > limit and killed == 0:
            r.timed_out = True
            os.killpg(p.pid, signal.SIGINT)
            killed = 1
        elif now > limit + 15 and killed == 1:
            os.killpg(p.pid, signal.SIGKILL)
            killed = 2
        time.sleep(0.005 if now < 1 else 0.02 if now < 10 else 0.05)
    r.wall = time.monotonic() - t0
    r.rc = p.returncode
    try:
        os.killpg(p.pid, signal.SIGKILL)  # workers left behind, if any
    except ProcessLookupError:
        pass
    RUNNING[:] = []
    with open(outp, errors="replace") as f:
        r.out = f.read()
    if r.found is None and found(r.out):
        r.found = r.wall
    return r



def settle_args(ap, args, defaults, engines):
    """Gives each option of defaults ((name, full run's value, --quick's
    value), the engines' too) that was not given its value for this run,
    then refuses (ap.error) an engine that is not one of engines."""
    for name, full, quick in defaults:
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    bad = [e for e in args.engines if e not in engines]
    if bad:
        ap.error("unknown engine %s (have: %s)" % (",".join(bad),
                                                   ",".join(engines)))


def require_cgofuzz(path):
    """path made absolute; exits saying so when it is no executable."""
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        sys.exit("%s is not an executable: build cgofuzz or give --cgofuzz"
                 % path)
    return path


def clang_version():
    r = sh(["clang", "--version"])
    return r.stdout.splitlines()[0] if r.returncode == 0 else "no clang"



def has_cmpfeedback(cgofuzz):
    r = sh([cgofuzz, "fuzz", "-h"])
    return "cmpfeedback" in r.stdout + r.stderr



def median_of(times, cap):
    return statistics.median([cap if t is None else t for t in times])



def fmt_time(t):
    """Seconds to one decimal, or two below 1 s (start-up finds)."""
    return "miss" if t is None else "%.2f" % t if t < 1 else "%.1f" % t



def ratio(num, den, num_missed, den_missed):
    """num/den of medians; '>=' when num's median is a cap (a lower bound),
    '<=' when den's is, '?' when both."""
    if num_missed and den_missed:
        return "? (both medians are caps)"
    return "%s%.1fx" % (">=" if num_missed else "<=" if den_missed else "",
                        num / den)



def summary_cells(times_of, engines, caps, heads):
    """One row of a time-to-failure summary: per engine (times_of(e): its
    runs' times, None for a miss) "median (found/runs: each time)", then
    the ratios of medians named in heads ("go/cgofuzz"). (cells, {engine:
    (found, runs, median, missed)}); missed: the median is the cap."""
    cells, meds = [], {}
    for e in engines:
        times = times_of(e)
        if not times:
            cells.append("")
            continue
        found = sum(t is not None for t in times)
        med = median_of(times, caps[e])
        missed = found <= len(times) // 2 and found < len(times)
        meds[e] = (found, len(times), med, missed)
        cells.append("%s%s (%d/%d: %s)" % (
            ">=" if missed else "", fmt_time(med), found, len(times),
            " ".join(fmt_time(t) for t in times)))
    for h in heads:
        num = h.split("/")[0]
        if num in meds and "cgofuzz" in meds:
            cells.append(ratio(meds[num][2], meds["cgofuzz"][2],
                               meds[num][3], meds["cgofuzz"][3]))
        else:
            cells.append("")
    return cells, meds


def header(args, go, cgofuzz_ok):
    log("- date: %s" % datetime.datetime.now().strftime("%Y-%m-%d %H:%M"))
    log("- go: %s" % sh([go, "version"]).stdout.strip())
    if cgofuzz_ok:
        log("- cgofuzz: %s (%s, built %s)" % (
            args.cgofuzz, sh([args.cgofuzz, "version"]).stdout.strip(),
            time.ctime(os.path.getmtime(args.cgofuzz))))
    try:
        rev = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout
    except OSError:
        rev = ""
    log("- repository: %s" % (rev.strip() or "?"))
    log("- machine: %d cores, load average %s at the start" % (
        os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))



def final_stats(path, target):
    """The target's last -fuzzstats row as a dict, or None."""
    try:
        with open(path) as f:
            rows = [l.rstrip("\n").split(",") for l in f]
    except OSError:
        return None
    if not rows:
        return None
    head = rows[0]
    mine = [r for r in rows[1:] if len(r) == len(head) and
            (r[head.index("target")] == target or
             r[head.index("target")].endswith(":" + target) or
             r[head.index("target")].endswith("." + target))]
    return dict(zip(head, mine[-1])) if mine else None



def kill_running():
    for pid in RUNNING:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def write_report(path):
    if LINES:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(LINES) + "\n")
        print("written to %s" % path)


def fuzz_signature(text):
    """(types, [seed values...]) of the first f.Fuzz/f.Add in a test
    file's text, read with go_values (literal arguments only)."""
    sig = re.search(r"f\.Fuzz\(func\(t \*testing\.T, ([^)]*)\)", text)
    types = [p.strip().split()[-1] for p in sig.group(1).split(",")]
    # Parameters sharing a type ("a, b string"): fill in from the right.
    for k in range(len(types) - 2, -1, -1):
        if len(sig.group(1).split(",")[k].split()) == 1:
            types[k] = types[k + 1]
    seeds = [go_values(m.group(1)) for m in
             re.finditer(r"^\s*f\.Add\((.*)\)\s*$", text, flags=re.M)]
    return types, seeds


# -- libFuzzer through go-118-fuzz-build -------------------------------------

def go118_tool(go, env=None):
    """(path of go-118-fuzz-build, the version pinned in tests/cli/corpus/
    go118mod, None) or (None, None, why not); installs it when missing."""
    pin = None
    if os.path.exists(G118_PIN):
        m = re.search(re.escape(G118) + r"\s+(\S+)", open(G118_PIN).read())
        pin = m.group(1) if m else None
    version = pin or "latest"
    gobin = sh([go, "env", "GOBIN"]).stdout.strip() or os.path.join(
        sh([go, "env", "GOPATH"]).stdout.strip().split(":")[0], "bin")
    tool = shutil.which("go-118-fuzz-build") or os.path.join(
        gobin, "go-118-fuzz-build")
    if not os.access(tool, os.X_OK):
        log("libFuzzer: go install %s@%s (into %s)" % (G118, version, gobin))
        r = sh([go, "install", "%s@%s" % (G118, version)])
        if r.returncode != 0:
            return None, None, "go install %s@%s failed: %s" % (
                G118, version, r.stderr.strip()[-300:])
    if not shutil.which("clang"):
        return None, None, "clang is not installed"
    return tool, version, None


def go118_build(go, tool, version, pkg, test_file, targets, outdir,
                env=None):
    """Builds a libFuzzer binary per target from the package copy pkg, as
    OSS-Fuzz's compile_native_go_fuzzer does: the test file becomes a
    non-test file importing go-118-fuzz-build's testing package. ({target:
    binary}, None) or (None, why not)."""
    env = dict(env or os.environ, GOFLAGS="-mod=mod")
    with open(os.path.join(pkg, test_file)) as f:
        text = f.read().replace('"testing"', '"%s/testing"' % G118)
    os.remove(os.path.join(pkg, test_file))
    with open(os.path.join(pkg, test_file.replace("_test.go", "_libfuzzer.go")),
              "w") as f:
        f.write(text)
    r = sh([go, "get", "%s/testing@%s" % (G118, version)], cwd=pkg, env=env)
    if r.returncode != 0:
        return None, "go get %s/testing@%s failed: %s" % (
            G118, version, r.stderr.strip()[-300:])
    bins = {}
    for target in targets:
        a = os.path.join(pkg, target + ".a")
        r = sh([tool, "-o", a, "-func", target, "."], cwd=pkg, env=env)
        if r.returncode != 0:
            return None, "go-118-fuzz-build -func %s failed: %s" % (
                target, (r.stdout + r.stderr).strip()[-300:])
        b = os.path.join(outdir, target + ".libfuzzer")
        r = sh(["clang", "-fsanitize=fuzzer", a, "-o", b], cwd=pkg)
        if r.returncode != 0:
            return None, "clang -fsanitize=fuzzer failed: %s" % (
                r.stderr.strip()[-300:])
        bins[target] = b
    return bins, None


def go118_seed_roundtrips(cgofuzz, work, raw, types, values):
    """Whether cgofuzz decodes the go118 file raw back to values."""
    chk = os.path.join(work, "seedcheck")
    shutil.rmtree(chk, ignore_errors=True)
    os.makedirs(chk)
    want = os.path.join(chk, "want")
    with open(want, "w") as f:
        f.write(go_corpus_file(types, values))
    got = sh([cgofuzz, "corpus", "convert", "-from", "go118",
              "-types", ",".join(types), "-o", os.path.join(chk, "got"), raw])
    fmt = sh([cgofuzz, "corpus", "fmt", want])
    files = glob.glob(os.path.join(chk, "got", "*"))
    return (got.returncode == 0 and fmt.returncode == 0 and len(files) == 1
            and open(files[0]).read().rstrip("\n") ==
            fmt.stdout.rstrip("\n"))


def go118_to_corpus(cgofuzz, crash, types, outdir):
    """Converts a libFuzzer crash file of a go-118-fuzz-build target into a
    testdata/fuzz file in outdir: (its name, None) or (None, why not)."""
    r = sh([cgofuzz, "corpus", "convert", "-from", "go118", "-types",
            ",".join(types), "-o", outdir, crash])
    names = os.listdir(outdir) if os.path.isdir(outdir) else []
    if r.returncode != 0 or len(names) != 1:
        return None, "cgofuzz corpus convert -from go118 failed: %s" % (
            (r.stdout + r.stderr).strip()[-200:])
    return names[0], None


def go118_seeds(cgofuzz, work, d, types, seeds):
    """Writes the f.Add seeds into d in go-fuzz-headers' layout, one file
    each, and checks each decodes back to its seed when cgofuzz is given;
    the problems found."""
    problems = []
    os.makedirs(d)
    for k, values in enumerate(seeds):
        raw = os.path.join(d, "seed%d" % k)
        with open(raw, "wb") as f:
            f.write(go118_encode(types, values))
        if cgofuzz and not go118_seed_roundtrips(cgofuzz, work, raw, types,
                                                 values):
            problems.append("seed %d does not decode back" % k)
    return problems


def kill_session(sid, sig=signal.SIGKILL):
    """Sends sig to every process of session sid (a process started with
    start_new_session=True has its pid as sid): also those that moved to a
    process group of their own, as go test -fuzz does with gosentry's
    LibAFL runner, which killpg on the first group would miss. The pids
    signalled."""
    hit = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                stat = f.read()
            # pid (comm) state ppid pgrp session ...: comm may hold spaces
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[3]) == sid:
                os.kill(int(pid), sig)
                hit.append(int(pid))
        except (OSError, ValueError, IndexError):
            pass
    return hit

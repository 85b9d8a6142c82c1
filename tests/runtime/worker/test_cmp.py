"""trace-cmp mutations end to end: a minimal coordinator that speaks Go's
worker protocol plus the exact-input slot (include/cgofuzz/exact.h) drives
the C worker on FuzzMagic (eight byte comparisons in a loop) with a fixed
exec budget and a pinned seed (GODEBUG=fuzzseed=7). With trace-cmp
recording on the worker must find the magic and publish the exact failing
input; with it off (CGOFUZZ_NO_TRACE_CMP) the same budget and seed must not
find it. Also: a user dictionary (-test.fuzzdict) alone finds it, the slot
is never left set by a call that found nothing, and minimization is bounded
under an exact-mode coordinator."""
import base64
import json
import mmap
import os
import struct
import subprocess
import tempfile

import pytest

import testlib
from testlib import environ, go_bytes

MAGIC = bytes([0x8f, 0x13, 0xa7, 0x5c, 0xe2, 0x39, 0xd4, 0x6b])
SLOT_MAGIC = 0x5443584546474643
RAW_MAGIC = 0x5741524546474643  # the raw form: one argument's bytes
CAP = 1 << 20
# A call's time limit (ns) is only a hang guard: calls end at their exec
# Limit, so the sequence of inputs depends on the seed alone.
CALL_TIMEOUT = 120 * 10**9


def encode(b):
    return b'go test fuzz v1\n[]byte("' + "".join(
        "\\x%02x" % c for c in b).encode() + b'")\n'


def decode(enc):
    return go_bytes(enc.decode("utf-8"))


class Worker:
    def __init__(self, exe, env, extra=()):
        self.f = tempfile.TemporaryFile()
        self.f.truncate(40 + CAP)
        self.m = mmap.mmap(self.f.fileno(), 40 + CAP)
        cin_r, self.cin = os.pipe()
        self.cout, cout_w = os.pipe()
        fds = {3: cin_r, 4: cout_w, 5: self.f.fileno()}

        def pre():
            tmp = [os.dup(fds[k]) for k in (3, 4, 5)]
            for k, fd in zip((3, 4, 5), tmp):
                os.dup2(fd, k)
                os.set_inheritable(k, True)
        self.p = subprocess.Popen(
            [exe, "-test.fuzzworker", "-test.fuzz=^FuzzMagic$"] + list(extra),
            env=env, preexec_fn=pre, pass_fds=(3, 4, 5, cin_r, cout_w,
                                               self.f.fileno()),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(cin_r)
        os.close(cout_w)
        self.rd = os.fdopen(self.cout, "rb")

    def call(self, value, **fuzz):
        self.m[0:40] = struct.pack("<qqQQ?7x", 0, len(value), 0, 0, False)
        self.m[40:40 + len(value)] = value
        msg = {"Ping": None, "Fuzz": fuzz, "Minimize": None}
        os.write(self.cin, (json.dumps(msg) + "\n").encode())
        resp = json.loads(self.rd.readline())
        count = struct.unpack("<q", self.m[0:8])[0]
        check_same = self.m[40:40 + len(value)] == value
        off = 40 + ((len(value) + 7) & ~7)
        magic, _, n = struct.unpack("<QqQ", self.m[off:off + 24])
        exact = None
        if magic == SLOT_MAGIC:
            exact = self.m[off + 24:off + 24 + n]
        elif magic == RAW_MAGIC:
            # FuzzMagic has one []byte argument, so the raw form's argument
            # 0 is the whole input (no replay needed to rebuild it).
            idx = struct.unpack("<Q", self.m[off + 24:off + 32])[0]
            if idx == 0:
                exact = encode(bytes(self.m[off + 32:off + 32 + n]))
        return resp, count, check_same, exact

    def minimize(self, value, keep, **args):
        """A Minimize call; returns (response, execs it counted)."""
        self.m[0:40] = struct.pack("<qqQQ?7x", 0, len(value), 0, 0, False)
        self.m[40:40 + len(value)] = value
        args["KeepCoverage"] = base64.b64encode(bytes(keep)).decode()
        msg = {"Ping": None, "Fuzz": None, "Minimize": args}
        os.write(self.cin, (json.dumps(msg) + "\n").encode())
        resp = json.loads(self.rd.readline())
        return resp, struct.unpack("<q", self.m[0:8])[0]

    def close(self):
        os.close(self.cin)
        self.p.wait(timeout=10)
        err = self.p.stderr.read().decode(errors="replace")
        self.rd.close()
        return err


def campaign(exe, env, budget, extra=()):
    """Go's loop in miniature: warm up the seed, then fuzz calls round robin
    over the corpus until budget execs ran. Returns (found input, execs,
    protocol problems)."""
    w = Worker(exe, env, extra)
    seed = encode(b"hello, world")
    resp, _, _, _ = w.call(seed, Timeout=CALL_TIMEOUT, Limit=1, Warmup=True)
    mask = bytearray(base64.b64decode(resp.get("CoverageData") or ""))
    corpus, execs, i, found, problems = [seed], 0, 0, None, []
    while execs < budget and found is None:
        inp = corpus[i % len(corpus)]
        i += 1
        resp, count, same, exact = w.call(
            inp, Timeout=CALL_TIMEOUT, Limit=5000, Warmup=False,
            CoverageData=base64.b64encode(bytes(mask)).decode())
        execs += count
        if not same:
            problems.append("worker modified the input")
        if resp.get("InternalErr"):
            problems.append(resp["InternalErr"])
            break
        if resp.get("Err"):
            found = exact
            if exact is None or "magic found" not in resp["Err"]:
                problems.append("failure without exact input: %r" % resp)
        elif resp.get("CoverageData"):
            cov = base64.b64decode(resp["CoverageData"])
            for k, c in enumerate(cov):
                mask[k] |= c
            if exact is None:
                problems.append("new coverage without exact input")
            else:
                corpus.append(exact)
        elif exact is not None:
            problems.append("slot left set by a call that found nothing")
    err = w.close()
    return found, execs, problems, err


BUDGET = 300000
SEEDED = testlib.fuzz_env(7)
EXACT = dict(SEEDED, CGOFUZZ_EXACT_SLOT="1")
NO_TRACE_CMP = dict(EXACT, CGOFUZZ_NO_TRACE_CMP="1")


@pytest.fixture(scope="module")
def magic(target):
    return target("magic")


@pytest.fixture(scope="module")
def trace_cmp_on(magic):
    """The campaign with trace-cmp recording on."""
    return campaign(magic, environ(EXACT), BUDGET)


@pytest.fixture(scope="module")
def trace_cmp_off(magic):
    """The same campaign with trace-cmp recording off."""
    return campaign(magic, environ(NO_TRACE_CMP), BUDGET)


def test_trace_cmp_finds_magic(trace_cmp_on):
    """trace-cmp finds the magic within the budget and the worker publishes
    the exact failing input."""
    found, execs, _, err = trace_cmp_on
    assert found is not None and decode(found)[:8] == MAGIC, (
        "found=%r after %d execs\n%s" % (found, execs, err))


def test_protocol_invariants_trace_cmp_on(trace_cmp_on):
    """No call modified its input, left the slot set without a finding, or
    reported new coverage or a failure without the exact input."""
    _, _, problems, err = trace_cmp_on
    assert not problems, (problems, err)


def test_no_trace_cmp_does_not_find_magic(trace_cmp_off):
    """Without trace-cmp the same seed and budget do not find it (so the
    finding above is trace-cmp's)."""
    found, execs, _, err = trace_cmp_off
    assert found is None and execs >= BUDGET, (found, execs, err)


def test_protocol_invariants_trace_cmp_off(trace_cmp_off):
    """The protocol invariants hold with trace-cmp off too."""
    _, _, problems, err = trace_cmp_off
    assert not problems, (problems, err)


def test_dictionary_alone_finds_magic(magic, tmp_path):
    """With trace-cmp off, a -test.fuzzdict entry holding the magic finds
    it."""
    d = tmp_path / "magic.dict"
    d.write_text('# libFuzzer/AFL format\nkw1="\\x8f\\x13\\xa7\\x5c'
                 '\\xe2\\x39\\xd4\\x6b"\n')
    found, execs, _, err = campaign(magic, environ(NO_TRACE_CMP), BUDGET,
                                    ["-test.fuzzdict=%s" % d])
    assert found is not None and decode(found)[:8] == MAGIC, (
        "found=%r after %d execs\n%s" % (found, execs, err))


RAW = b"hello, world" + bytes(range(188))


@pytest.fixture(scope="module")
def minimize_counts(magic):
    """Minimizes one 200-byte interesting input under an exact-mode
    (cgofuzz) coordinator and under Go's: {mode: (response, execs)}.
    KeepCoverage gets one bit no exec sets, so every candidate is rejected
    and Go's minimizer runs all of its passes."""
    out = {}
    for mode, env in (("exact", EXACT), ("go", SEEDED)):
        w = Worker(magic, environ(env))
        big = encode(RAW)
        resp, _, _, _ = w.call(big, Timeout=CALL_TIMEOUT, Limit=1,
                               Warmup=True)
        keep = bytearray(base64.b64decode(resp.get("CoverageData") or ""))
        keep[keep.index(0)] = 0x80
        out[mode] = w.minimize(big, keep, Timeout=CALL_TIMEOUT, Limit=0,
                               Index=0)
        w.close()
    return out


@pytest.mark.parametrize("mode", ["exact", "go"])
def test_minimize_writes_result(minimize_counts, mode):
    """A Minimize call writes its result to shared memory, no error."""
    resp, _ = minimize_counts[mode]
    assert resp.get("WroteToMem") and not resp.get("Err"), resp


def test_exact_minimization_bounded(minimize_counts):
    """Exact-mode minimization is bounded to 64 candidates (plus the
    initial run); Go's full, quadratic minimizer is not."""
    exact = minimize_counts["exact"][1]
    go = minimize_counts["go"][1]
    assert exact <= 64 + 1 < 10 * len(RAW) < go, {"exact": exact, "go": go}


def test_missing_dictionary_is_an_error(magic):
    """-test.fuzzdict naming a file that does not exist is an error, also
    without the exact slot (Go's coordinator), where dictionaries are
    otherwise ignored."""
    w = Worker(magic, environ(SEEDED), ["-test.fuzzdict=/nonexistent"])
    err = w.close()
    assert "cannot read dictionary" in err, err

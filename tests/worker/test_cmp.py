#!/usr/bin/env python3
"""trace-cmp mutations end to end: a minimal coordinator that speaks Go's
worker protocol plus the exact-input slot (include/cgofuzz/exact.h) drives
the C worker on FuzzMagic (eight byte comparisons in a loop) with a fixed
exec budget. With trace-cmp recording on the worker must find the magic
and publish the exact failing input; with it off (CGOFUZZ_NO_TRACE_CMP) the
same budget and seed must not find it. Also: a user dictionary
(-test.fuzzdict) alone finds it, and the slot is never left set by a call
that found nothing."""
import base64
import json
import mmap
import os
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish, go_bytes  # noqa: E402  (tests/checks.py)

MAGIC = bytes([0x8f, 0x13, 0xa7, 0x5c, 0xe2, 0x39, 0xd4, 0x6b])
SLOT_MAGIC = 0x5443584546474643
RAW_MAGIC = 0x5741524546474643  # the raw form: one argument's bytes
CAP = 1 << 20


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
    resp, _, _, _ = w.call(seed, Timeout=10**9, Limit=1, Warmup=True)
    mask = bytearray(base64.b64decode(resp.get("CoverageData") or ""))
    corpus, execs, i, found, problems = [seed], 0, 0, None, []
    while execs < budget and found is None:
        inp = corpus[i % len(corpus)]
        i += 1
        resp, count, same, exact = w.call(
            inp, Timeout=10**9, Limit=5000, Warmup=False,
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


def main():
    exe = sys.argv[1]
    base = dict(os.environ, CGOFUZZ_EXACT_SLOT="1", GODEBUG="fuzzseed=7")
    budget = 300000

    found, execs, problems, err = campaign(exe, base, budget)
    print("     trace-cmp on: found=%r after %d execs" % (found and found[:48], execs))
    check("trace-cmp finds the magic within %d execs, exact input" % budget,
          found is not None and decode(found)[:8] == MAGIC,
          (found, err))
    check("protocol invariants hold (trace-cmp on)", not problems, problems)

    off = dict(base, CGOFUZZ_NO_TRACE_CMP="1")
    found, execs, problems, err = campaign(exe, off, budget)
    print("     trace-cmp off: found=%r after %d execs" % (found, execs))
    check("without trace-cmp the same budget does not find it",
          found is None and execs >= budget, found)
    check("protocol invariants hold (trace-cmp off)", not problems, problems)

    with tempfile.NamedTemporaryFile("w", suffix=".dict", delete=False) as d:
        d.write('# libFuzzer/AFL format\nkw1="\\x8f\\x13\\xa7\\x5c'
                '\\xe2\\x39\\xd4\\x6b"\n')
    found, execs, problems, err = campaign(exe, off, budget,
                                           ["-test.fuzzdict=" + d.name])
    os.unlink(d.name)
    check("a -test.fuzzdict entry alone finds it",
          found is not None and decode(found)[:8] == MAGIC, (found, err))

    # Minimizing an interesting input: bounded to 64 candidates under a
    # cgofuzz coordinator (exact mode), Go's full (quadratic)
    # minimizer under Go's. KeepCoverage gets one bit no exec sets, so every
    # candidate is rejected and Go's minimizer runs all of its passes.
    raw = b"hello, world" + bytes(range(188))
    big = encode(raw)
    counts = {}
    for name, env in (("exact", base),
                      ("go", dict(os.environ, GODEBUG="fuzzseed=7"))):
        w = Worker(exe, env)
        resp, _, _, _ = w.call(big, Timeout=10**9, Limit=1, Warmup=True)
        keep = bytearray(base64.b64decode(resp.get("CoverageData") or ""))
        keep[keep.index(0)] = 0x80
        resp, counts[name] = w.minimize(big, keep, Timeout=10 * 10**9,
                                        Limit=0, Index=0)
        w.close()
        check("Minimize (%s mode) writes a result" % name,
              resp.get("WroteToMem") and not resp.get("Err"), resp)
    print("     minimize execs: exact %d, go %d" % (counts["exact"],
                                                    counts["go"]))
    check("exact-mode minimization is bounded, Go's is not",
          counts["exact"] <= 64 + 1 < 10 * len(raw) < counts["go"], counts)

    # Without the exact-slot environment (Go's coordinator) nothing but
    # Go's mutator runs, so the dictionary is ignored with a warning.
    env = dict(os.environ, GODEBUG="fuzzseed=7")
    w = Worker(exe, env, ["-test.fuzzdict=/nonexistent"])
    err = w.close()
    check("a missing dictionary is an error", "cannot read dictionary" in err,
          err)
    return finish()


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""How `cgofuzz fuzz`'s coordinator scales with its workers (issue 40,
"Scale"): the coordinator alone, its workers stand-ins that do no work.

The stand-in (bench/coord/targets/standin/coord_standin.c, built with `cgofuzz
cc`) is a C target whose worker processes answer every call themselves,
Count 1, no coverage after the warm-up (the steady state of a long
campaign), so execs == calls handed out. Two paces:

  once   every call answered at once: the most calls the coordinator (and,
         on a small machine, the workers beside it) can hand out; CPU per
         call under full load.
  paced  every call answered after its own Timeout (10 ms for cgofuzz's
         plain calls), slept, not spent: what W real workers with a core
         each would send, W x ~100 calls/s, without their CPU, so a 2-core
         machine shows what the coordinator would do with 256 cores'
         worth of workers. The coordinator saturates where it reaches one
         core, or where the calls/s fall below what the workers offer.

Per -parallel N (1, 2, 4, ..., 256) one run of `cgofuzz fuzz -parallel N`,
measured over the progress lines after the first (start-up and warm-up
excluded), about --seconds s: calls/s (the execs of the progress lines),
the coordinator process's own CPU (utime+stime from /proc/PID/stat, its
workers excluded; user and system apart) as % of one core and per call,
its RSS (VmHWM, and RssShmem: the workers' shared memory it touched), its
write() calls (/proc/PID/io syscw) and context switches per call; the
workers' CPU (sum over the coordinator's children) per call; the machine's
busy share of all cores (/proc/stat; other agents' work included).

--real measures the calls/s per worker of real targets (a Go test binary,
bench/coord/targets FuzzLoadFast, and an empty C target, bench/c/empty.c) at
-parallel 2: there is no call counter in the coordinator's output, but
each call is one write() to a worker's pipe, so calls = syscw, calibrated
on the stand-in's runs (where calls == execs). The model: per-call
coordinator cost c, so one coordinator saturates at 1/c calls/s; W
workers each making r calls/s saturate it at W = 1/(c r).

Python 3 stdlib, Linux. Wrap long runs in `flock /tmp/cgofuzz-cpu.lock`.

usage: bench/coord/coord_scale.py [--paces once,paced] [--ns 1,2,...,256]
           [--seconds 9] [--real] [--cgofuzz build/bin/cgofuzz]
           [--json F] [--out F.md]
"""
import argparse
import datetime
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import BENCH, ROOT  # noqa: E402
STANDIN = os.path.join(HERE, "targets", "standin", "coord_standin.c")
TCK = os.sysconf("SC_CLK_TCK")
PROGRESS = re.compile(r"fuzz: elapsed: (\S+), execs: (\d+) ")
LINES = []


def say(s=""):
    print(s, flush=True)
    LINES.append(s)


def godur(s):
    total = 0.0
    for v, u in re.findall(r"([0-9.]+)(h|ms|m|s)", s):
        total += float(v) * {"h": 3600, "m": 60, "s": 1, "ms": 1e-3}[u]
    return total


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def stat_cpu(pid):
    """(utime, stime) in seconds of the whole process, or None."""
    s = read("/proc/%d/stat" % pid)
    if not s:
        return None
    f = s[s.rindex(")") + 2:].split()
    return int(f[11]) / TCK, int(f[12]) / TCK


def sched_ns(pid):
    """CPU time in ns of all the process's threads (schedstat: exact, where
    utime/stime are sampled at the clock tick)."""
    t = 0
    for p in glob.glob("/proc/%d/task/*/schedstat" % pid):
        v = read(p).split()
        if v:
            t += int(v[0])
    return t


def children(pid):
    out = []
    for p in glob.glob("/proc/[0-9]*/stat"):
        s = read(p)
        if s and int(s[s.rindex(")") + 2:].split()[1]) == pid:
            out.append(int(p.split("/")[2]))
    return out


def status_kb(pid):
    d = {}
    for line in read("/proc/%d/status" % pid).splitlines():
        k, _, v = line.partition(":")
        v = v.split()
        if v and v[0].isdigit():
            d[k] = int(v[0])
    return d


def io(pid):
    d = {}
    for line in read("/proc/%d/io" % pid).splitlines():
        k, _, v = line.partition(":")
        d[k] = int(v)
    return d


def machine():
    """(busy, total) jiffies of all cores."""
    f = [int(x) for x in read("/proc/stat").splitlines()[0].split()[1:]]
    idle = f[3] + f[4]
    return sum(f) - idle, sum(f)


def sample(pid, workers):
    s = {"t": time.monotonic()}
    u = stat_cpu(pid)
    s["cu"], s["cs"] = u if u else (0, 0)
    s["cns"] = sched_ns(pid)
    st = status_kb(pid)
    s["hwm"], s["rss"] = st.get("VmHWM", 0), st.get("VmRSS", 0)
    s["shmem"], s["anon"] = st.get("RssShmem", 0), st.get("RssAnon", 0)
    s["vcs"] = st.get("voluntary_ctxt_switches", 0)
    s["ncs"] = st.get("nonvoluntary_ctxt_switches", 0)
    i = io(pid)
    s["syscw"], s["syscr"] = i.get("syscw", 0), i.get("syscr", 0)
    s["w"] = sum(sched_ns(c) for c in workers) / 1e9
    s["mbusy"], s["mtotal"] = machine()
    return s


def run_one(cgofuzz, binary, target, n, seconds, env, work, label,
            perf=None, warm=0):
    """One `cgofuzz fuzz -parallel n` run; figures over its progress lines
    after the first one (warm: seconds more allowed before it)."""
    d = os.path.join(work, "%s-%d" % (label, n))
    os.makedirs(d, exist_ok=True)
    ticks = max(2, -(-seconds // 3))  # whole 3 s windows measured
    fuzztime = 3 * (ticks + 1) + 1 + warm  # one more for start-up, 1 s spare
    argv = [cgofuzz, "fuzz", "-fuzz=^%s$" % target,
            "-fuzztime=%ds" % fuzztime, "-parallel=%d" % n,
            "-fuzzcachedir=" + os.path.join(d, "cache"), binary]
    p = subprocess.Popen(argv, cwd=d, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True, errors="replace")
    samples, workers, tail, perfp = [], None, [], None
    for line in p.stderr:
        tail = (tail + [line.rstrip()])[-5:]
        m = PROGRESS.search(line)
        if not m:
            continue
        el = godur(m.group(1))
        if el >= fuzztime:  # the final line, after the deadline
            continue
        if workers is None:
            workers = children(p.pid)
            if perf:
                perfp = subprocess.Popen(
                    ["perf", "record", "-F", "1999", "-g", "-o", perf,
                     "-p", str(p.pid)], stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
        if len(samples) > ticks:
            continue  # the window is whole; the rest is spare time
        s = sample(p.pid, workers)
        s["execs"], s["el"] = int(m.group(2)), el
        samples.append(s)
        if len(samples) == ticks + 1 and perfp:
            perfp.send_signal(2)
            perfp.wait()
            perfp = None
    out = p.stdout.read()
    rc = p.wait()
    r = {"n": n, "rc": rc, "argv": argv, "tail": tail + [out.strip()],
         "workers_seen": len(workers or [])}
    if len(samples) < 2:
        r["error"] = "fewer than two progress lines"
        return r
    a, b = samples[0], samples[-1]
    dt = b["t"] - a["t"]
    calls = b["execs"] - a["execs"]
    cu, cs = b["cu"] - a["cu"], b["cs"] - a["cs"]
    # CPU from schedstat, split into user and system as utime:stime.
    cpu = (b["cns"] - a["cns"]) / 1e9
    if cu + cs > 0:
        cu, cs = cpu * cu / (cu + cs), cpu * cs / (cu + cs)
    else:
        cu, cs = cpu, 0.0
    r.update({
        "window_s": dt, "calls": calls, "calls_per_s": calls / dt,
        "coord_user_s": cu, "coord_sys_s": cs,
        "coord_cpu_pct": 100 * (cu + cs) / dt,
        "coord_us_per_call": 1e6 * (cu + cs) / calls if calls else None,
        "coord_user_us_per_call": 1e6 * cu / calls if calls else None,
        "workers_cpu_pct": 100 * (b["w"] - a["w"]) / dt,
        "workers_us_per_call": 1e6 * (b["w"] - a["w"]) / calls
        if calls else None,
        "machine_busy_pct": 100 * (b["mbusy"] - a["mbusy"]) /
        max(1, b["mtotal"] - a["mtotal"]),
        "syscw_per_call": (b["syscw"] - a["syscw"]) / calls if calls else None,
        "syscr_per_call": (b["syscr"] - a["syscr"]) / calls if calls else None,
        "ctxsw_per_call": (b["vcs"] + b["ncs"] - a["vcs"] - a["ncs"]) / calls
        if calls else None,
        "vmhwm_kb": b["hwm"], "vmrss_kb": b["rss"], "rssshmem_kb": b["shmem"],
        "rssanon_kb": b["anon"],
    })
    return r


def build_standin(cgofuzz, work):
    out = os.path.join(work, "coord_standin")
    subprocess.check_call([cgofuzz, "cc", "-O2", STANDIN, "-o", out])
    return out


def fmt(v, f="%.1f"):
    return "-" if v is None else f % v


def sweep(a, cgofuzz, standin, work, pace, results):
    env = dict(os.environ)
    env.pop("STANDIN_DELAY", None)
    env.pop("STANDIN_SEEDS", None)
    if pace == "paced":
        env["STANDIN_DELAY"] = "timeout"
    rows = []
    for n in [int(x) for x in a.ns.split(",")]:
        perf = None
        if a.perf and n in [int(x) for x in a.perf.split(",")]:
            perf = os.path.join(work, "perf-%s-%d.data" % (pace, n))
        r = run_one(cgofuzz, standin, "FuzzEmpty", n, a.seconds, env, work,
                    pace, perf)
        r["pace"] = pace
        if perf and os.path.exists(perf):
            r["perf"] = perf_top(perf, a.perf_out, pace, n)
        rows.append(r)
        results.append(r)
        if "error" in r:
            print("  %s N=%d: %s; exit %d; %s" % (pace, n, r["error"], r["rc"],
                                                 r["tail"]), file=sys.stderr)
        else:
            print("  %s N=%3d: %8.0f calls/s, coord %5.1f%% (%.2f us/call), "
                  "workers %5.1f%%, machine %4.1f%%, hwm %d kB" % (
                      pace, n, r["calls_per_s"], r["coord_cpu_pct"],
                      r["coord_us_per_call"] or 0, r["workers_cpu_pct"],
                      r["machine_busy_pct"], r["vmhwm_kb"]),
                  file=sys.stderr, flush=True)
    return rows


def perf_top(data, keep_dir, pace, n):
    """The coordinator's hottest symbols: self time, and inclusive time
    (children), from perf report; both reports kept in keep_dir."""
    tops = {}
    for kind in ("self", "children"):
        rep = subprocess.run(["perf", "report", "-i", data, "--stdio",
                              "--children" if kind == "children"
                              else "--no-children", "--sort", "sym",
                              "-g", "none", "--percent-limit", "0.7"],
                             capture_output=True, text=True, errors="replace")
        top = []
        for line in rep.stdout.splitlines():
            m = re.match(r"\s+([0-9.]+)%\s+(?:([0-9.]+)%\s+)?\[(.)\]\s+(\S.*)$",
                         line)
            if m:
                top.append((float(m.group(1)), m.group(3),
                            m.group(4).strip()))
        tops[kind] = top[:40]
        if keep_dir:
            os.makedirs(keep_dir, exist_ok=True)
            with open(os.path.join(keep_dir, "perf-%s-%d-%s.txt" %
                                   (pace, n, kind)), "w") as f:
                f.write(rep.stdout)
    if keep_dir:
        shutil.copy(data, os.path.join(keep_dir, os.path.basename(data)))
    return tops


def scale_table(rows, pace):
    say()
    say("| N | calls/s | calls/s per worker | coord CPU % of a core "
        "(user+sys) | coord us/call (user) | workers CPU % | workers "
        "us/call | machine busy % | coord write()/call | coord ctx sw/call "
        "| coord VmHWM MB | RssShmem MB |")
    say("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "error" in r:
            say("| %d | %s, exit %d |||||||||||" % (r["n"], r["error"],
                                                   r["rc"]))
            continue
        say("| %d | %.0f | %.0f | %.1f (%.1f+%.1f) | %.2f (%.2f) | %.1f | "
            "%.2f | %.1f | %.2f | %.2f | %.1f | %.1f |" % (
                r["n"], r["calls_per_s"], r["calls_per_s"] / r["n"],
                r["coord_cpu_pct"], 100 * r["coord_user_s"] / r["window_s"],
                100 * r["coord_sys_s"] / r["window_s"],
                r["coord_us_per_call"], r["coord_user_us_per_call"],
                r["workers_cpu_pct"], r["workers_us_per_call"],
                r["machine_busy_pct"], r["syscw_per_call"],
                r["ctxsw_per_call"], r["vmhwm_kb"] / 1024,
                r["rssshmem_kb"] / 1024))


def solve3(m, v):
    """Solves the 3x3 system m x = v (Cramer's rule)."""
    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    if abs(d) < 1e-30:
        return None
    out = []
    for k in range(3):
        mk = [row[:] for row in m]
        for i in range(3):
            mk[i][k] = v[i]
        out.append(det(mk) / d)
    return out


def fit(rows):
    """Least squares of the coordinator's CPU (s per s) = f + C (a + b N),
    C the calls/s: f a fixed cost per second (timers, the watch), a the
    cost of a call, b what each worker more adds to every call (scans and
    poll sets of all workers). Returns (f, a_us, b_us) or None."""
    pts = [(1.0, r["calls_per_s"], r["calls_per_s"] * r["n"],
            r["coord_cpu_pct"] / 100) for r in rows if "error" not in r]
    if len(pts) < 3:
        return None
    m = [[sum(p[i] * p[j] for p in pts) for j in range(3)] for i in range(3)]
    v = [sum(p[i] * p[3] for p in pts) for i in range(3)]
    x = solve3(m, v)
    return None if x is None else (x[0], x[1] * 1e6, x[2] * 1e6)


def saturation_w(f, a_us, b_us, r):
    """W where f + W r (a + b W) = 1 core."""
    left = 1.0 - max(f, 0.0)
    a_s, b_s = a_us / 1e6, max(b_us, 0.0) / 1e6
    if b_s == 0:
        return left / (a_s * r) if a_s > 0 else float("inf")
    # b r W^2 + a r W - left = 0
    return (-(a_s * r) + ((a_s * r) ** 2 + 4 * b_s * r * left) ** 0.5) / (
        2 * b_s * r)


def real_rates(a, cgofuzz, work, syscw_per_call):
    # (`cgofuzz cc` from the build tree: the copy cannot find the libraries)
    """Calls/s per worker of real targets, from the coordinator's write()
    calls (each call one write)."""
    out = []
    tdir = os.path.join(work, "gopkg")
    shutil.copytree(os.path.join(HERE, "targets"), tdir,
                    ignore=shutil.ignore_patterns("standin"))
    gobin = os.path.join(work, "targets.test")
    r = subprocess.run(["go", "test", "-c", "-fuzz=.", "-o", gobin, "."],
                       cwd=tdir, capture_output=True, text=True)
    targets = []
    if r.returncode == 0:
        targets.append(("Go FuzzLoadFast (bench/coord/targets)", gobin,
                        "FuzzLoadFast"))
    else:
        say("(go build failed: %s)" % r.stderr.strip()[-300:])
    cbin = os.path.join(work, "empty_c")
    if subprocess.run([a.cgofuzz, "cc", "-O2", os.path.join(BENCH, "c",
                                                          "empty.c"),
                       "-o", cbin]).returncode == 0:
        targets.append(("C empty.c (bench/c)", cbin, "FuzzLibFuzzer"))
    env = dict(os.environ)
    env.pop("STANDIN_DELAY", None)
    env.pop("STANDIN_SEEDS", None)
    for label, binary, target in targets:
        rr = run_one(cgofuzz, binary, target, a.real_parallel, a.seconds,
                     env, work, "real-" + target)
        rr["label"] = label
        if "error" not in rr:
            calls = rr["syscw_per_call"] * rr["calls"] / syscw_per_call
            rr["est_calls_per_s"] = calls / rr["window_s"]
            rr["execs_per_s"] = rr["calls_per_s"]
            rr["est_coord_us_per_call"] = (
                1e6 * (rr["coord_user_s"] + rr["coord_sys_s"]) / calls
                if calls else None)
        out.append(rr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--paces", default="once,paced")
    ap.add_argument("--ns", default="1,2,4,8,16,32,64,128,256")
    ap.add_argument("--seconds", type=int, default=9,
                    help="measured per N (whole 3 s progress windows)")
    ap.add_argument("--real", action="store_true",
                    help="also the calls/s per worker of real targets")
    ap.add_argument("--real-parallel", type=int, default=2)
    ap.add_argument("--corpus", default="",
                    help="corpus sizes K to run paced at --corpus-n "
                         "workers (e.g. 1,1000,10000)")
    ap.add_argument("--corpus-n", type=int, default=64)
    ap.add_argument("--perf", default="",
                    help="N values to profile with perf record (e.g. 256)")
    ap.add_argument("--perf-out", help="directory for perf report texts")
    ap.add_argument("--json")
    ap.add_argument("--out")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="coord_scale-")
    # A copy: another agent may rebuild build/ during the sweep.
    cgofuzz = os.path.join(work, "cgofuzz")
    shutil.copy2(a.cgofuzz, cgofuzz)
    with open(cgofuzz, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    results, real = [], []
    try:
        standin = build_standin(a.cgofuzz, work)
        say("# Coordinator scaling: `cgofuzz fuzz -parallel N` on stand-in "
            "workers")
        say()
        say("%s, %d cores, load average at start %s; commit %s, cgofuzz "
            "sha256 %s; %d s measured per N (progress lines after the "
            "first)." % (datetime.date.today(), os.cpu_count(),
                         read("/proc/loadavg").split()[0], commit, digest,
                         a.seconds))
        by_pace = {}
        for pace in a.paces.split(","):
            by_pace[pace] = sweep(a, cgofuzz, standin, work, pace, results)
        for pace, rows in by_pace.items():
            say()
            say("## %s: %s" % (pace, {
                "once": "every call answered at once",
                "paced": "every call answered after its Timeout (10 ms), "
                         "slept"}[pace]))
            scale_table(rows, pace)
            ok = [r for r in rows if "error" not in r]
            sat = [r for r in ok if r["coord_cpu_pct"] >= 90]
            say()
            say("Coordinator at >= 90%% of one core from N = %s." % (
                sat[0]["n"] if sat else "none of the N run"))
            if pace == "paced":
                short = [r for r in ok
                         if r["calls_per_s"] < 0.9 * 100 * r["n"] * 0.97]
                say("Calls/s below 90%% of what the workers offer (N x ~97/s) "
                    "from N = %s." % (short[0]["n"] if short else "none"))
            f = fit(ok)
            if f:
                say("Fit of the coordinator's CPU (cores) = f + C (a + b N), "
                    "C calls/s: f = %.4f, a = %.2f us, b = %.4f us per "
                    "worker." % f)
                for r_ in (100, 50, 10):
                    say("- workers of %d calls/s each saturate one "
                        "coordinator at W = %.0f" % (
                            r_, saturation_w(f[0], f[1], f[2], r_)))
        if a.corpus:
            env = dict(os.environ)
            env["STANDIN_DELAY"] = "timeout"
            rows = []
            for k in [int(x) for x in a.corpus.split(",")]:
                env["STANDIN_SEEDS"] = str(k)
                r = run_one(cgofuzz, standin, "FuzzEmpty", a.corpus_n,
                            a.seconds, env, work, "corpus%d" % k,
                            warm=3 + k // 2000)
                r["pace"], r["corpus"] = "paced-corpus", k
                results.append(r)
                rows.append(r)
                print("  corpus %d: %s" % (k, "error" in r and r["error"] or
                                           "%.0f calls/s, %.2f us/call" % (
                                               r["calls_per_s"],
                                               r["coord_us_per_call"])),
                      file=sys.stderr, flush=True)
            say()
            say("## paced, -parallel %d, corpus of K entries (K seeds)" %
                a.corpus_n)
            say()
            say("| K | calls/s | coord CPU % | coord us/call (user) | "
                "coord VmHWM MB |")
            say("|---|---|---|---|---|")
            for r in rows:
                if "error" in r:
                    say("| %d | %s ||||" % (r["corpus"], r["error"]))
                    continue
                say("| %d | %.0f | %.1f | %.2f (%.2f) | %.1f |" % (
                    r["corpus"], r["calls_per_s"], r["coord_cpu_pct"],
                    r["coord_us_per_call"], r["coord_user_us_per_call"],
                    r["vmhwm_kb"] / 1024))
        if a.real:
            cal = [r["syscw_per_call"] for r in results
                   if "error" not in r and r["pace"] == "once"]
            spc = sorted(cal)[len(cal) // 2] if cal else 1.0
            real = real_rates(a, cgofuzz, work, spc)
            say()
            say("## Real targets, -parallel %d: calls per worker" %
                a.real_parallel)
            say()
            say("Calls = coordinator write()s / %.3f (the stand-in's write()s "
                "per call, median of the once runs)." % spc)
            say()
            say("| target | execs/s | est. calls/s | calls/s per worker | "
                "coord CPU % | coord us/call |")
            say("|---|---|---|---|---|---|")
            for r in real:
                if "error" in r:
                    say("| %s | %s |||||" % (r["label"], r["error"]))
                    continue
                say("| %s | %.0f | %.0f | %.1f | %.2f | %.1f |" % (
                    r["label"], r["execs_per_s"], r["est_calls_per_s"],
                    r["est_calls_per_s"] / a.real_parallel,
                    r["coord_cpu_pct"], r["est_coord_us_per_call"] or 0))
        say()
        say("Commands: `%s` (stand-in: `cgofuzz cc -O2 %s`; paced: "
            "STANDIN_DELAY=timeout in the environment)." % (
                " ".join(os.path.basename(x) if i == 0 else x for i, x in
                         enumerate(results[0]["argv"])).replace(work, "W")
                if results else "",
                os.path.relpath(STANDIN, ROOT)))
    finally:
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"date": str(datetime.date.today()),
                           "commit": commit, "cgofuzz_sha256": digest,
                           "cores": os.cpu_count(), "seconds": a.seconds,
                           "runs": results, "real": real}, f, indent=1)
        if a.out:
            with open(a.out, "w") as f:
                f.write("\n".join(LINES) + "\n")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

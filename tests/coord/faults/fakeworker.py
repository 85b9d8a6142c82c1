#!/usr/bin/env python3
"""A stand-in for a Go test binary that injects worker-protocol faults.

Run as the binary given to `cgofuzz fuzz`. Everything but worker mode is the
real test binary (FAULT_REAL): -test.list, discovery (where the real binary
starts us as its worker with CGOFUZZ_DISCOVER_OUT set: we become cgofuzz's
fake worker, FAULT_CGOFUZZ, as the real argv[0] would have been). In worker
mode (-test.fuzzworker) FAULT_MODE selects the fault; the proxy modes run
the real worker behind a pair of pipes and alter its traffic:
  noping    exit at once, before answering the ping
  close     close fds 3 and 4 at once, then stay alive (sleep 60 s)
  truncate  the first fuzz response is cut in half (newline kept)
  unasked   before the first fuzz response, send a response to a Minimize
            call nobody made
  oversize  the first fuzz response carries a 64 MB unknown member
  shmlen    on a failure response, shm value_len is set to 2^62
  shmdata   on a failure response, the input in shm is overwritten
  closein   before the first non-warm-up fuzz response is forwarded, the
            call pipe (fd 3) is closed: the coordinator's next call cannot
            be written (EPIPE); then the worker exits with status 3
  half      the first fuzz response (warm-up included) is cut in half, with
            no newline, and then nothing more is sent (the worker lives on)
  garbage   the first response (to the ping) is replaced by a line that is
            not JSON; then the worker lives on, silent
"""
import json, mmap, os, struct, subprocess, sys, time

real = os.environ["FAULT_REAL"]
args = sys.argv[1:]
if "-test.fuzzworker" not in args:
    os.execv(real, [sys.argv[0]] + args)
if os.environ.get("CGOFUZZ_DISCOVER_OUT"):
    os.execv(os.environ["FAULT_CGOFUZZ"], [os.environ["FAULT_CGOFUZZ"]] + args)
mode = os.environ.get("FAULT_MODE", "")
if mode == "noping":
    os._exit(0)
if mode == "close":
    os.close(3)
    os.close(4)
    time.sleep(60)
    os._exit(0)

# Proxy: coordinator --fd3--> us --pin--> worker --pout--> us --fd4--> coord.
pin_r, pin_w = os.pipe()
pout_r, pout_w = os.pipe()
coord_in, coord_out = os.dup(3), os.dup(4)
os.dup2(pin_r, 3)
os.dup2(pout_w, 4)
child = subprocess.Popen([real] + args, pass_fds=(3, 4, 5),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.dup2(coord_in, 3)
os.dup2(coord_out, 4)
for fd in (pin_r, pout_w, coord_in, coord_out):
    os.close(fd)
mem = mmap.mmap(5, 0)
cin = os.fdopen(3, "rb", buffering=0)
wout = os.fdopen(pout_r, "rb")
injected = False


def readline(f):
    line = b""
    while not line.endswith(b"\n"):
        c = f.read(1) if f is cin else f.readline()
        if not c:
            return line
        line += c
    return line


while True:
    call = readline(cin)
    if not call:
        break
    os.write(pin_w, call)
    resp = readline(wout)
    if not resp:
        break
    try:
        fz = json.loads(call).get("Fuzz")
        failed = bool(json.loads(resp).get("Err"))
    except ValueError:
        fz, failed = None, False
    is_fuzz = fz is not None
    if mode == "garbage" and not injected:
        os.write(4, b"hello, this is not JSON\n")
        time.sleep(120)
        os._exit(0)
    if mode == "half" and is_fuzz and not injected:
        os.write(4, resp[:len(resp) // 2])
        time.sleep(120)
        os._exit(0)
    if is_fuzz and not injected and not fz.get("Warmup"):
        if mode == "truncate":
            resp = resp[:len(resp) // 2] + b"\n"
            injected = True
        elif mode == "unasked":
            os.write(4, b'{"WroteToMem":true,"Err":""}\n')
            injected = True
        elif mode == "oversize":
            obj = json.loads(resp)
            obj["Padding"] = "x" * (64 << 20)
            resp = json.dumps(obj).encode() + b"\n"
            injected = True
        elif mode == "closein":
            cin.close()  # the only read end of the coordinator's call pipe
            os.write(4, resp)
            time.sleep(0.5)  # the next call meets a closed pipe, not EOF
            child.kill()
            os._exit(3)
    if is_fuzz and failed:
        if mode == "shmlen":
            mem[8:16] = struct.pack("<q", 1 << 62)
        elif mode == "shmdata":
            n = struct.unpack("<q", mem[8:16])[0]
            if 0 < n < len(mem) - 40:
                mem[40:40 + n] = b"Q" * n
    try:
        os.write(4, resp)
    except BrokenPipeError:
        break
os.close(pin_w)
try:
    child.wait(timeout=20)
except subprocess.TimeoutExpired:
    child.kill()
sys.exit(child.returncode if child.returncode and child.returncode > 0 else 0)

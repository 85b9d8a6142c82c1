"""cf_engine.py: runs one step of ClusterFuzz's libFuzzer engine (the PyPI
package clusterfuzz==2.6.0) on a fuzz target and prints what came of it as
JSON. It runs under the python of the venv scripts/install-deps.sh makes
(the package and its google-cloud-* dependencies live there, not in the
python that runs the suites); tests/lf/clusterfuzz/test_clusterfuzz_engine.py
and bench/cf/cf_bench.py call it.

    <venv>/bin/python cf_engine.py '{"op": "fuzz", ...}'    (or the JSON on stdin)

The job (a JSON object):
  op          fuzz | reproduce | minimize_corpus | minimize_testcase | cleanse
  target      the fuzz target (an absolute path)
  mode        "clusterfuzz" (default): the engine as a ClusterFuzz bot runs
              it, ASAN_OPTIONS as the bot sets them, new units merged back
              into corpus_dir;
              "clusterfuzzlite": as ClusterFuzzLite's fuzz_target.py runs
              it: interactive, no merge back, no dictionary analysis, and
              -len_control=0 -seed=1337 appended to the fuzzing arguments
  workdir     the engine's scratch space (FUZZ_INPUTS_DISK: it makes
              temp-<pid>/{new,merge-corpus,...} there)
  max_time    seconds (the engine's own budget)
  arguments   extra target arguments (reproduce, minimize_*, cleanse; for
              fuzz they are appended to the prepared ones)
  fuzz:              corpus_dir, reproducers_dir; merge_back and
                     analyze_dictionary (booleans) override the mode's
  reproduce:         input_path
  minimize_corpus:   input_dirs, output_dir, reproducers_dir
  minimize_testcase, cleanse: input_path, output_path, and
              reproduce_output (true: then reproduce output_path, as
              ClusterFuzz checks a minimized testcase)
  sanitizer_options  a dict merged into ASAN_OPTIONS after the bot's
              defaults are set

The result (one JSON object on stdout; the engine's own logging goes to
stderr):
  op, mode, do_strategies (False: fuzz.get_engine turns strategies off)
  command       the target's command line the engine ran (the last one, for
                steps that run several)
  runs          every process the engine ran: command, extra_env, timeout,
                return_code, timed_out, seconds, output_tail
  return_code   reproduce, minimize_testcase, cleanse
  crashes       fuzz: input_path, exists, size, head (the first bytes as
                latin-1 text), reproduce_args
  stats         fuzz, minimize_corpus
  arguments     fuzz: options.arguments
  time_executed, timed_out
  output_tail   the target's output (its last 20000 characters)
  analysis      fuzz, reproduce: crash_type, crash_state, crash_address as
                ClusterFuzz's stack analyzer reads the output
  reproduce_output  command, return_code, output_tail, analysis
  output_file   minimize_testcase, cleanse: its size, or null
  files         for each directory of the job: name -> size, after the step
  env           the sanitizer options and the variables the engine reads
  error         an exception the engine raised (TimeoutError, MergeError,
                ...) as "Type: message", and traceback
"""
import json
import os
import sys
import traceback

TAIL = 20000
RUN_TAIL = 3000

# What ClusterFuzzLite appends to the arguments of a code-change fuzzing run
# (infra/cifuzz/fuzz_target.py: LIBFUZZER_OPTIONS_CODE_CHANGE).
CFL_FUZZ_ARGUMENTS = ["-len_control=0", "-seed=1337"]


def listing(d):
    out = {}
    if d and os.path.isdir(d):
        for root, _, names in os.walk(d):
            for n in names:
                p = os.path.join(root, n)
                out[os.path.relpath(p, d)] = os.path.getsize(p)
    return out


def tail(s):
    s = s or ""
    if isinstance(s, bytes):
        s = s.decode(errors="replace")
    return s[-TAIL:]


def crash_info(c):
    info = {"input_path": c.input_path, "exists": os.path.isfile(c.input_path),
            "size": None, "head": None, "reproduce_args": list(c.reproduce_args)}
    if info["exists"]:
        with open(c.input_path, "rb") as f:
            data = f.read()
        info["size"] = len(data)
        info["head"] = data[:64].decode("latin-1")
    return info


def record_runs(out):
    """Records every process the engine runs (out["runs"]: command, extra
    environment, time-out, return code, seconds, output tail): fuzz runs
    the target several times (fuzzing, the two merge steps, dictionary
    analysis), and each is a command a libFuzzer-compatible CLI must take."""
    import time

    from clusterfuzz._internal.system import new_process
    runs = out.setdefault("runs", [])
    orig = new_process.ProcessRunner.run_and_wait

    def run_and_wait(self, additional_args=None, timeout=None, **kw):
        t0 = time.monotonic()
        r = orig(self, additional_args, timeout, **kw)
        output = r.output
        if isinstance(output, bytes):
            output = output.decode(errors="replace")
        runs.append({"command": [str(a) for a in (r.command or [])],
                     "extra_env": kw.get("extra_env") or {},
                     "timeout": timeout, "return_code": r.return_code,
                     "timed_out": r.timed_out,
                     "seconds": round(time.monotonic() - t0, 3),
                     "output_tail": (output or "")[-RUN_TAIL:]})
        return r
    new_process.ProcessRunner.run_and_wait = run_and_wait


def analyze(text, target):
    """What ClusterFuzz's stack analyzer makes of a crash output (the crash
    type and state it would file a bug under); unsymbolized, as the engine's
    ASAN_OPTIONS leave it (symbolize=0)."""
    from clusterfuzz import stacktraces
    info = stacktraces.StackParser(symbolized=False, detect_ooms_and_hangs=True,
                                   fuzz_target=os.path.basename(target)
                                   ).parse(text or "")
    return {"crash_type": info.crash_type, "crash_state": info.crash_state,
            "crash_address": info.crash_address}


def run(job, out):
    op = job["op"]
    mode = job.get("mode", "clusterfuzz")
    target = os.path.abspath(job["target"])
    workdir = job.get("workdir")
    if workdir:
        os.makedirs(workdir, exist_ok=True)
        os.environ["FUZZ_INPUTS_DISK"] = workdir
    # clusterfuzz reads JOB_NAME when imported; the Environment below sets
    # the one a libFuzzer ASan job has (libfuzzer_asan_job).
    os.environ.setdefault("JOB_NAME", "libfuzzer_asan_job")

    import clusterfuzz.environment
    from clusterfuzz import fuzz
    from clusterfuzz._internal.system import environment as cfenv
    record_runs(out)

    # ClusterFuzzLite runs the fuzzing and pruning steps interactive (the
    # target's output streamed, unbuffered) and reproduces non-interactive.
    interactive = mode == "clusterfuzzlite" and op in ("fuzz", "minimize_corpus")
    with clusterfuzz.environment.Environment("libFuzzer", "address", target,
                                             interactive=interactive) as env:
        # The sanitizer options a bot sets (symbolize, handle_abort, ...);
        # the engine then adds exitcode=77 to them before each run.
        cfenv.reset_current_memory_tool_options()
        if job.get("sanitizer_options"):
            # e.g. minimization's symbolize=1, dedup_token_length=3
            # (ClusterFuzz's minimize task sets these).
            var = cfenv.get_current_memory_tool_var()
            opts = cfenv.get_memory_tool_options(var, {})
            opts.update(job["sanitizer_options"])
            cfenv.set_memory_tool_options(var, opts)
        engine = fuzz.get_engine("libFuzzer")  # do_strategies = False
        out["do_strategies"] = engine.do_strategies
        args = list(job.get("arguments") or [])
        max_time = job.get("max_time", 60)
        result = None
        try:
            if op == "fuzz":
                options = engine.prepare(job["corpus_dir"], target,
                                         env.build_dir)
                if mode == "clusterfuzzlite":
                    options.merge_back_new_testcases = False
                    options.analyze_dictionary = False
                    options.arguments.extend(CFL_FUZZ_ARGUMENTS)
                for key, attr in (("merge_back", "merge_back_new_testcases"),
                                  ("analyze_dictionary", "analyze_dictionary")):
                    if key in job:  # overrides the mode's choice
                        setattr(options, attr, bool(job[key]))
                options.arguments.extend(args)
                out["arguments"] = list(options.arguments)
                out["strategies"] = options.strategies
                result = engine.fuzz(target, options, job["reproducers_dir"],
                                     max_time)
                out["crashes"] = [crash_info(c) for c in result.crashes]
            elif op == "reproduce":
                result = engine.reproduce(target, job["input_path"], args,
                                          max_time)
            elif op == "minimize_corpus":
                result = engine.minimize_corpus(
                    target, args, job["input_dirs"], job["output_dir"],
                    job.get("reproducers_dir"), max_time)
            elif op == "minimize_testcase":
                result = engine.minimize_testcase(
                    target, args, job["input_path"], job["output_path"],
                    max_time)
            elif op == "cleanse":
                result = engine.cleanse(target, args, job["input_path"],
                                        job["output_path"], max_time)
            else:
                raise ValueError("unknown op %r" % op)
            if op in ("minimize_testcase", "cleanse") and \
                    job.get("reproduce_output") and \
                    os.path.isfile(job["output_path"]):
                # As ClusterFuzz does after minimizing: run the result.
                r = engine.reproduce(target, job["output_path"], args, 30)
                out["reproduce_output"] = {
                    "command": [str(a) for a in r.command],
                    "return_code": r.return_code,
                    "output_tail": tail(r.output),
                    "analysis": analyze(r.output, target)}
        except Exception as e:  # TimeoutError, MergeError, ...
            out["error"] = "%s: %s" % (type(e).__name__, e)
            out["traceback"] = traceback.format_exc()
        out["env"] = {k: os.environ.get(k) for k in
                      ("ASAN_OPTIONS", "UBSAN_OPTIONS", "JOB_NAME",
                       "BUILD_DIR", "CF_INTERACTIVE")}
    if result is not None:
        out["command"] = [str(a) for a in (result.command or [])]
        out["time_executed"] = result.time_executed
        if hasattr(result, "stats"):  # FuzzResult
            out["stats"] = result.stats
            out["timed_out"] = result.timed_out
            out["output_tail"] = tail(result.logs)
            text = result.logs
        else:  # ReproduceResult
            out["return_code"] = result.return_code
            out["output_tail"] = tail(result.output)
            text = result.output
        if op in ("fuzz", "reproduce"):
            out["analysis"] = analyze(text, target)
    for key in ("corpus_dir", "reproducers_dir", "output_dir"):
        if job.get(key):
            out.setdefault("files", {})[key] = listing(job[key])
    for i, d in enumerate(job.get("input_dirs") or []):
        out.setdefault("files", {})["input_dirs[%d]" % i] = listing(d)
    if job.get("output_path"):
        p = job["output_path"]
        out["output_file"] = os.path.getsize(p) if os.path.isfile(p) else None


def main():
    text = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else sys.stdin.read()
    job = json.loads(text)
    # stdout carries the result only: everything else (clusterfuzz's logging,
    # anything printed) goes to stderr.
    result_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out = {"op": job.get("op"), "mode": job.get("mode", "clusterfuzz")}
    try:
        run(job, out)
    except Exception as e:
        out["error"] = "%s: %s" % (type(e).__name__, e)
        out["traceback"] = traceback.format_exc()
    with os.fdopen(result_fd, "w") as f:
        json.dump(out, f, default=str)
        f.write("\n")


if __name__ == "__main__":
    main()

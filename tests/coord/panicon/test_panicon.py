"""-panic-on: a call of a named Go function is a failure (issue 38;
gobin_patch.c's traps, coord_fast.c, cmd_exec.c).

gopkg's Parse logs an unknown version through an interface
(rep.Error, a *log.Logger's Error) and goes on, and counts a '#' with
(*Logger).Warn, which the compiler inlines: no input fails it as it is.
Under -panic-on the fuzzing workers run a copy of the test binary whose
(*Logger).Error faults at its entry (a Go panic) and whose inlined Warn
ends in SIGTRAP (a worker death), so reaching either call is a failure
the run reports, names and writes to testdata; `go test -run`
re-runs it through `-exec=cgofuzz` with the same list, and passes
without it. Each case has its own copy of the package, a pinned
GODEBUG=fuzzseed and a count of execs.
"""
import os
import re

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = "-fuzztime=200000x"


@pytest.fixture
def pkg(tool, tmp_path):
    d = testlib.copy_module(os.path.join(HERE, "gopkg"),
                            os.path.join(str(tmp_path), "pkg"), "panicon")
    mod = re.search(r"^module (\S+)", testlib.read(os.path.join(d, "go.mod")),
                    re.M).group(1)
    binary = testlib.build_go_test(tool("go"), d, os.path.join(d, "p.test"))
    return d, mod, binary


def fuzz(cgofuzz, pkgdir, binary, extra):
    return testlib.cgofuzz_in(cgofuzz, binary, "FuzzParse", pkgdir,
                              [BUDGET] + extra, seed=1)


def test_call_is_a_failure_named_and_rerun(cgofuzz, tool, pkg):
    d, mod, binary = pkg
    name = mod + "/log.(*Logger).Error"
    r = fuzz(cgofuzz, d, binary, ["-panic-on=" + name])
    assert r.rc == 1, r
    assert "panic-on-call: %s (cgofuzz -panic-on" % name in r.stdout, r
    path = testlib.failing_input(r.stdout, "FuzzParse")
    assert path, r
    value = testlib.go_bytes(testlib.read(os.path.join(d, path)))
    assert value.startswith(b"V9"), value  # the one way to the call
    # The re-run line says how: the trap is cgofuzz's, under -exec.
    base = os.path.basename(path)
    line = ("'CGOFUZZ_FLAGS=-panic-on=%s' go test -run=FuzzParse/%s "
            "-exec=cgofuzz" % (name, base))
    assert line in r.stdout, r
    env = {"CGOFUZZ_FLAGS": "-panic-on=" + name}
    rr = run([tool("go"), "test", "-run=FuzzParse/" + base,
              "-exec=" + cgofuzz, "."], d, env)
    assert rr.rc == 1, rr
    assert "invalid memory address or nil pointer dereference" in rr.stdout
    assert "cgofuzz: -panic-on: a call of %s panics" % name in rr.stdout, rr
    assert re.search(r"addr=0x400 pc=0x[0-9a-f]+\]", rr.stdout), rr
    plain = run([tool("go"), "test", "-run=FuzzParse/" + base, "."], d,
                {"CGOFUZZ_FLAGS": None})
    assert plain.rc == 0, plain  # not a failure of the code as it is


def test_same_run_without_panic_on_passes(cgofuzz, pkg):
    d, _, binary = pkg
    r = fuzz(cgofuzz, d, binary, [])
    assert r.rc == 0, r
    assert not os.path.isdir(os.path.join(d, "testdata")), r


def test_another_function_of_the_list_is_the_one_named(cgofuzz, pkg):
    """Info is called on every input of three bytes: with both in the
    list, the first failure is Info's, named as Info, not Error."""
    d, mod, binary = pkg
    info = mod + "/log.(*Logger).Info"
    r = fuzz(cgofuzz, d, binary,
             ["-panic-on=%s,%s" % (mod + "/log.(*Logger).Error", info)])
    assert r.rc == 1, r
    assert "panic-on-call: %s " % info in r.stdout, r
    assert "panic-on-call: %s " % (mod + "/log.(*Logger).Error") \
        not in r.stdout, r


def test_inlined_call_is_a_failure_named_and_rerun(cgofuzz, tool, pkg):
    """(*Logger).Warn is inlined into Parse and has no body of its own:
    the INT3 at the inlined call's start ends the worker with SIGTRAP, a
    death the run records and names."""
    d, mod, binary = pkg
    warn = mod + "/log.(*Logger).Warn"
    r = fuzz(cgofuzz, d, binary, ["-panic-on=" + warn, "-v"])
    assert r.rc == 1, r
    assert ("a call of %s panics in the workers' copy (not compiled on its "
            "own, 1 inlined call)" % warn) in r.stderr, r
    assert "panic-on-call: %s (cgofuzz -panic-on" % warn in r.stdout, r
    assert "SIGTRAP: trace trap" in r.stdout, r
    path = testlib.failing_input(r.stdout, "FuzzParse")
    value = testlib.go_bytes(testlib.read(os.path.join(d, path)))
    assert len(value) > 3 and value[3:4] == b"#", value
    base = os.path.basename(path)
    rr = run([tool("go"), "test", "-run=FuzzParse/" + base,
              "-exec=" + cgofuzz, "."], d, {"CGOFUZZ_FLAGS": "-panic-on=" + warn})
    assert rr.rc == 1 and "SIGTRAP: trace trap" in rr.stdout, rr
    plain = run([tool("go"), "test", "-run=FuzzParse/" + base, "."], d,
                {"CGOFUZZ_FLAGS": None})
    assert plain.rc == 0, plain


def test_under_go_test_fuzz_exec(cgofuzz, tool, pkg):
    d, mod, _ = pkg
    name = mod + "/log.(*Logger).Error"
    env = testlib.fuzz_env(1, CGOFUZZ_FLAGS="-panic-on=" + name, GOFLAGS=None)
    r = run([tool("go"), "test", "-exec=" + cgofuzz, "-run=^$",
             "-fuzz=^FuzzParse$", BUDGET, "-parallel=1", "."], d, env)
    assert r.rc == 1, r
    assert "panic-on-call: %s" % name in r.stdout, r
    assert testlib.failing_input(r.stdout, "FuzzParse"), r


def test_unknown_function_refused(cgofuzz, pkg):
    d, mod, binary = pkg
    r = fuzz(cgofuzz, d, binary, ["-panic-on=" + mod + "/log.(*Logger).Debug"])
    assert r.rc == 1, r
    assert ("-panic-on: no function %s/log.(*Logger).Debug in the binary"
            % mod) in r.stdout + r.stderr, r
    assert "execs:" not in r.stderr, r  # refused before any fuzzing

#!/usr/bin/env python3
"""End-to-end tests of the cgofuzz command-line tool.

The golden files in testdata/cli were produced by the real Go
internal/fuzz code (marshal(unmarshal(file)) for fmt, and a mutator
restored to a fixed PCG state for mutate); the differential suite in
tests/diff re-derives such results from GOROOT on every run.

With --valgrind, every invocation runs under valgrind and any leak or
invalid access fails the test.
"""
import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "testdata", "cli")
CGOFUZZ = None
VALGRIND = None

STATE = "0x853c49e6748fea9b"
INC = "0xda3e39cb94b95bdb"


def run(*args, check_rc=None):
    cmd = [CGOFUZZ, *args]
    if VALGRIND:
        cmd = [VALGRIND, "-q", "--leak-check=full", "--show-leak-kinds=all",
               "--errors-for-leak-kinds=all", "--error-exitcode=99", *cmd]
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    if VALGRIND and p.returncode == 99:
        raise AssertionError("valgrind reported errors for %s:\n%s" %
                             (args, p.stderr.decode(errors="replace")))
    if check_rc is not None and p.returncode != check_rc:
        raise AssertionError("%s: exit %d, want %d\nstdout:%s\nstderr:%s" % (
            args, p.returncode, check_rc, p.stdout, p.stderr))
    return p


def data(name):
    return os.path.join(DATA, name)


def read(name):
    with open(data(name), "rb") as f:
        return f.read()


class CorpusFmt(unittest.TestCase):
    def test_canonical_form_matches_go(self):
        p = run("corpus", "fmt", data("messy.txt"), check_rc=0)
        self.assertEqual(p.stdout, read("messy.golden"))

    def test_canonical_file_is_fixed_point(self):
        p = run("corpus", "fmt", data("messy.golden"), check_rc=0)
        self.assertEqual(p.stdout, read("messy.golden"))

    def test_write_rewrites_in_place_and_keeps_mode(self):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "seed")
            shutil.copy(data("messy.txt"), f)
            os.chmod(f, 0o600)
            p = run("corpus", "fmt", "-w", f, check_rc=0)
            self.assertEqual(p.stdout, b"")
            with open(f, "rb") as fh:
                self.assertEqual(fh.read(), read("messy.golden"))
            self.assertEqual(stat.S_IMODE(os.stat(f).st_mode), 0o600)
            self.assertEqual(sorted(os.listdir(d)), ["seed"])  # no temp left

    def test_write_leaves_canonical_file_untouched(self):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "seed")
            shutil.copy(data("messy.golden"), f)
            os.utime(f, (1000000000, 1000000000))
            run("corpus", "fmt", "-w", f, check_rc=0)
            self.assertEqual(os.stat(f).st_mtime, 1000000000)

    def test_rejected_file_names_file_line_and_reason(self):
        p = run("corpus", "fmt", data("bad-range.txt"), check_rc=2)
        err = p.stderr.decode()
        self.assertIn(data("bad-range.txt") + ":3:", err)
        self.assertIn("out of range", err)
        self.assertEqual(p.stdout, b"")

    def test_unknown_version(self):
        p = run("corpus", "fmt", data("bad-version.txt"), check_rc=2)
        self.assertIn(data("bad-version.txt"), p.stderr.decode())
        self.assertIn("version", p.stderr.decode())

    def test_bad_file_does_not_stop_the_others(self):
        p = run("corpus", "fmt", data("bad-range.txt"), data("messy.txt"),
                check_rc=2)
        self.assertEqual(p.stdout, read("messy.golden"))

    def test_write_refuses_to_touch_bad_file(self):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "seed")
            shutil.copy(data("bad-range.txt"), f)
            run("corpus", "fmt", "-w", f, check_rc=2)
            with open(f, "rb") as fh:
                self.assertEqual(fh.read(), read("bad-range.txt"))

    def test_missing_file(self):
        p = run("corpus", "fmt", "/nonexistent/seed", check_rc=2)
        self.assertIn("/nonexistent/seed", p.stderr.decode())
        self.assertIn("No such file", p.stderr.decode())

    def test_directory_argument(self):
        p = run("corpus", "fmt", DATA, check_rc=2)
        self.assertIn("directory", p.stderr.decode())

    def test_header_only_file(self):
        with tempfile.TemporaryDirectory() as d:
            f = os.path.join(d, "seed")
            with open(f, "wb") as fh:
                fh.write(b"go test fuzz v1\n")
            p = run("corpus", "fmt", f, check_rc=2)
            self.assertIn("no values", p.stderr.decode())

    def test_empty_and_binary_files(self):
        with tempfile.TemporaryDirectory() as d:
            for name, content in [("empty", b""), ("bin", bytes(range(256))),
                                  ("nul", b"go test fuzz v1\nint(\x001)\n")]:
                f = os.path.join(d, name)
                with open(f, "wb") as fh:
                    fh.write(content)
                p = run("corpus", "fmt", f, check_rc=2)
                self.assertIn(f, p.stderr.decode())


class Mutate(unittest.TestCase):
    def test_replay_matches_go(self):
        for n in (1, 3, 5, 17, 40):
            with self.subTest(n=n):
                p = run("mutate", "-rand-state", STATE, "-rand-inc", INC,
                        "-n", str(n), data("multi.txt"), check_rc=0)
                self.assertEqual(p.stdout, read("multi.mutate-%d.golden" % n))

    def test_flag_forms(self):
        a = run("mutate", "-rand-state=" + STATE, "--rand-inc", INC, "-n=3",
                data("multi.txt"), check_rc=0)
        self.assertEqual(a.stdout, read("multi.mutate-3.golden"))
        dec = run("mutate", "-rand-state", str(int(STATE, 16)), "-rand-inc",
                  str(int(INC, 16)), "-n", "3", data("multi.txt"), check_rc=0)
        self.assertEqual(dec.stdout, a.stdout)

    def test_zero_mutations_is_fmt(self):
        p = run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "0",
                data("messy.txt"), check_rc=0)
        self.assertEqual(p.stdout, read("messy.golden"))

    def test_capacity_too_small_is_reported(self):
        # 4 values: each may hold cap/4-100 bytes; with cap 400 that is 0,
        # and Go's mutator panics on the 12-byte value.
        p = run("mutate", "-rand-state", STATE, "-rand-inc", INC, "-n", "40",
                "-cap", "400", data("multi.txt"))
        if p.returncode != 0:
            self.assertEqual(p.returncode, 1)
            self.assertIn("cannot mutate", p.stderr.decode())

    def test_missing_flags_and_bad_values(self):
        run("mutate", data("multi.txt"), check_rc=2)
        p = run("mutate", "-rand-state", "x1", "-rand-inc", "1", "-n", "1",
                data("multi.txt"), check_rc=2)
        self.assertIn("invalid value", p.stderr.decode())
        run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
            check_rc=2)
        run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
            data("multi.txt"), data("multi.txt"), check_rc=2)
        run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
            data("bad-range.txt"), check_rc=2)


class Usage(unittest.TestCase):
    def test_usage_errors_exit_2(self):
        run(check_rc=2)
        p = run("frobnicate", check_rc=2)
        self.assertIn("unknown command", p.stderr.decode())
        p = run("corpus", "fmt", "-x", data("messy.txt"), check_rc=2)
        self.assertIn("not defined: -x", p.stderr.decode())
        run("corpus", check_rc=2)
        run("corpus", "fmt", check_rc=2)

    def test_help_and_version(self):
        self.assertIn(b"corpus fmt", run("help", check_rc=0).stdout)
        self.assertTrue(run("version", check_rc=0).stdout.startswith(b"cgofuzz "))


def main():
    global CGOFUZZ, VALGRIND
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgofuzz", required=True)
    ap.add_argument("--valgrind")
    args, rest = ap.parse_known_args()
    CGOFUZZ = os.path.abspath(args.cgofuzz)
    VALGRIND = args.valgrind
    prog = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=1)
    res = prog.result
    if res.testsRun == 0:
        print("no test ran")
        sys.exit(1)
    failed = len(res.failures) + len(res.errors)
    print("%d passed, %d failed" % (res.testsRun - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

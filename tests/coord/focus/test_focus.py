"""-focus=REV: the inputs that reach Go code changed since a git
revision weigh more (issue 38; cli/focus.c, gobin_focus.c, the scheduler's
focus factor in coord_sched.c, unit-tested in test_sched.cc).

Each case makes a git repository of its own from gopkg, commits it, and
then changes Check the way a pull request would (a bug behind a 4-byte
magic) in the working tree. The run reads which counters of the test
binary lie on the changed lines from the binary's own line table, says
how many, counts them 8 times in the schedule's rarity, and says how many
of them the run hit. Pinned GODEBUG=fuzzseed, counted execs.
"""
import os
import re
import shutil

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = "-fuzztime=20000x"
CHANGED = '''package focus

// Check is the code the change rewrites: a bug behind a magic.
func Check(b []byte) bool {
	if len(b) >= 4 && b[0] == 'F' && b[1] == 'O' && b[2] == 'C' && b[3] == 'S' {
		panic("focus: the changed code's bug")
	}
	return len(b) > 0
}
'''


def git(d, *args):
    r = run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t",
             "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]
            + list(args), d)
    assert r.rc == 0, r
    return r


@pytest.fixture
def repo(tool, tmp_path):
    """gopkg committed as the base, with Check changed in the working tree
    (change=True) or not; the test binary built from the working tree."""
    tool("git")

    def make(change=True):
        d = os.path.join(str(tmp_path), "repo")
        shutil.copytree(os.path.join(HERE, "gopkg"), d)
        git(d, "init", "-q")
        git(d, "add", "-A")
        git(d, "commit", "-q", "-m", "base")
        if change:
            testlib.write(os.path.join(d, "check.go"), CHANGED)
        binary = testlib.build_go_test(tool("go"), d, os.path.join(d, "p.test"))
        return d, binary
    return make


def fuzz(cgofuzz, d, binary, rev):
    return testlib.cgofuzz_in(cgofuzz, binary, "FuzzRecord", d,
                              [BUDGET, "-v", "-focus=" + rev], seed=1)


def test_changed_code_counted_weighed_and_reached(cgofuzz, repo):
    d, binary = repo()
    r = fuzz(cgofuzz, d, binary, "HEAD")
    m = re.search(r"-focus=HEAD: (\d+) of the (\d+) Go counters of \S+ are on "
                  r"lines changed since it; the schedule counts them 8 "
                  r"times", r.stderr)
    assert m, r
    n, total = int(m.group(1)), int(m.group(2))
    # Check's changed body: the magic's four compares and the panic are
    # blocks of their own; the rest of the binary (Score, testing, the
    # runtime's instrumented packages) is not.
    assert 4 <= n < 40 and total > 1000, (n, total)
    m = re.search(r"-focus=HEAD: (\d+) of the (\d+) counters of code changed "
                  r"since it hit", r.stderr)
    assert m and int(m.group(2)) == n and int(m.group(1)) >= 1, r


def test_nothing_changed_is_said_and_weighs_as_without(cgofuzz, repo):
    d, binary = repo(change=False)
    r = fuzz(cgofuzz, d, binary, "HEAD")
    assert re.search(r"-focus=HEAD: 0 of the \d+ Go counters of \S+ are on "
                     r"lines changed since it \(none", r.stderr), r
    assert r.rc == 0, r


def test_unknown_revision_is_the_targets_error(cgofuzz, repo):
    d, binary = repo()
    r = fuzz(cgofuzz, d, binary, "no-such-revision")
    assert r.rc not in (0, None), r
    assert "-focus=no-such-revision: git diff" in r.out, r
    assert "execs:" not in r.stderr, r

#!/usr/bin/env python3
"""The README's complete gofuzz example, built and run as written.

Extracts the C, Go and test blocks of the README section "Go code calling
C: the `gofuzz` package" into a scratch module (replace directive to this
checkout), then runs go vet, go test (regression) and a counted fuzzing
run of each fuzz test, with C coverage when clang is there. Exits 1 with
the failing step's output if any step fails.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
COVER_MARK = "// cover.go: C coverage for Go's fuzzer, only with -tags gofuzz_cover\n"


def main():
    readme = open(os.path.join(ROOT, "README.md")).read()
    sec = readme[readme.index("A complete example"):
                 readme.index("Without the tag (or with gcc)")]
    blocks = re.findall(r"```(\w+)\n(.*?)```", sec, re.S)
    kinds = [b[0] for b in blocks]
    if kinds[:3] != ["c", "go", "go"] or COVER_MARK not in blocks[1][1]:
        print("README example: unexpected blocks %s" % kinds)
        return 1
    pkg, cover = blocks[1][1].split(COVER_MARK)
    go = shutil.which("go") or "/usr/local/go/bin/go"
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("parse.c", blocks[0][1]), ("mypkg.go", pkg),
                           ("cover.go", cover),
                           ("mypkg_test.go", blocks[2][1])):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        with open(os.path.join(d, "go.mod"), "w") as f:
            f.write("module example.com/mypkg\n\ngo 1.22\n\n"
                    "require github.com/cgofuzz/cgofuzz v0.0.0\n\n"
                    "replace github.com/cgofuzz/cgofuzz => %s\n" % ROOT)
        env = dict(os.environ,
                   CGO_CFLAGS="-O2 -g -I" + os.path.join(ROOT, "include"))
        tags = []
        if shutil.which("clang"):
            env.update(CC="clang",
                       CGO_CFLAGS_ALLOW="-fsanitize-coverage=.*")
            tags = ["-tags=gofuzz_cover"]
        steps = [[go, "vet"] + tags + ["."], [go, "test"] + tags + ["."]]
        for t in ("FuzzDigits", "FuzzDigitsC", "FuzzDigitsCLoop"):
            steps.append([go, "test"] + tags + ["-run=^$", "-fuzz=^%s$" % t,
                                                "-fuzztime=2000x", "."])
        for cmd in steps:
            p = subprocess.run(cmd, cwd=d, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=300)
            if p.returncode != 0:
                print("README example: %s failed:\n%s" %
                      (" ".join(cmd[1:]), p.stdout))
                return 1
            print("ok: README example: " + " ".join(cmd[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

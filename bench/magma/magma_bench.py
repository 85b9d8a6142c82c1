#!/usr/bin/env python3
"""Magma: cgofuzz against libFuzzer on Magma's real bugs (issue 26).

Magma (HexHive/magma) forward-ports real, once-reported bugs into pinned
versions of real libraries and marks each with a canary,
MAGMA_LOG("PNG001", condition): every time the program passes the bug's
location the bug's "reached" counter goes up, and its "triggered" counter
too when the condition that makes the bug happen holds. The counters live
in a small shared file (2048 bytes, named by $MAGMA_STORAGE) that every
process of the campaign maps, so a bug counts as triggered even when it
does not crash (the build has no sanitizer, as in Magma).

This script, for each target (--targets, default libpng,lua,libxml2,sqlite3):

  1. fetches Magma (pinned commit) and the target's repository with its
     history, and exports the commit Magma pins (sqlite3: the git mirror's
     commit of Magma's Fossil check-in 8c432642572c8c4b);
  2. applies Magma's setup patches and all its bug patches for the target,
     as magma/apply_patches.sh does (%MAGMA_BUG% replaced by the patch's
     name, patch -p1);
  3. builds the target's libFuzzer harness twice with the same flags,
     Magma's: CFLAGS="-include canary.h -DMAGMA_ENABLE_CANARIES -g -O0
     -fsanitize=fuzzer-no-link", LIBS="-l:magma.o -lrt", harness linked
     with $LIB_FUZZING_ENGINE=-fsanitize=fuzzer; once with CC=clang
     CXX=clang++ (libFuzzer) and once with CC="cgofuzz cc" CXX="cgofuzz
     c++" (which drops -fsanitize=fuzzer* and links cgofuzz's engine). Each
     engine's build compiles Magma's canary runtime (canary.c + storage.c,
     `ld -r` into magma.o) with its own compiler, as magma/build.sh does.
     One addition (--no-reset leaves it out): canary.c stops counting in a
     process after the first trigger, which under AFL's fork-per-input is
     per input but in an in-process engine would silence every canary for
     the rest of the campaign; so the harness's entry point is compiled as
     magma_fuzz_target and bench/magma/magma_reset.c (canary.c included
     unchanged) provides an LLVMFuzzerTestOneInput that clears the flag
     before each input, in both engines' builds;
  4. prunes the seed corpus (Magma's targets/<t>/corpus/<program>) of seeds
     that trigger a canary, crash or run over --seed-timeout (Magma's
     run.sh does this with runonce.sh), using the libFuzzer build, so both
     engines start from the same seeds;
  5. runs campaigns: each harness x engine x --runs, one worker each,
     --jobs (2) campaigns at a time, for --cap seconds (600) of wall time:
       HARNESS -close_fd_mask=1 -timeout=T -rss_limit_mb=M
               -artifact_prefix=DIR/ -max_total_time=LEFT CORPUS SEEDS
     the same command for both engines. Neither is given -fork/-jobs. When
     the engine stops early (a crash, timeout or OOM: cgofuzz has no
     -ignore_crashes, and libFuzzer without -fork stops too) it is started
     again on its corpus for the time left, as Magma's libFuzzer
     configuration (-fork=1 -ignore_crashes=1 ...) keeps fuzzing after
     crashes. The canary file is read every --poll seconds (1); for each bug
     the first time reached > 0 and triggered > 0 (seconds since the
     campaign began) is kept;
  6. reports per target/bug/engine: runs reached, runs triggered, median
     time to reach and to trigger (a run that missed counts as the cap),
     and issue 26's criteria with PASS/FAIL:
       a. cgofuzz triggers every bug libFuzzer triggers, in at least as
          many runs;
       b. over the bugs both trigger, the median of (cgofuzz's median TTT /
          libFuzzer's median TTT) is <= 0.5 (the ratio of the two engines'
          medians over those bugs is printed too);
       c. the bugs reached but never triggered, per engine (a list).

Harnesses (one per target): libpng_read_fuzzer (libpng's
contrib/oss-fuzz), libxml2_xml_read_memory_fuzzer (Magma's
targets/libxml2/src), sqlite3_fuzz (sqlite's test/ossfuzz.c), and for lua,
whose Magma program is the `lua` interpreter (a file argument, no
LLVMFuzzerTestOneInput), bench/magma/lua/fuzz_lua.c, which runs the input
as a Lua chunk, seeds from Magma's corpus/lua. Magma's xmllint (libxml2's
second program) is not a libFuzzer harness and is not run.

usage:
  bench/magma/magma_bench.py                  # 4 targets x 2 engines x 3 runs x 10 min, 2 at a time: ~2 h
  bench/magma/magma_bench.py --quick          # libpng and lua, 1 run, 60 s each: ~10 min with builds
  bench/magma/magma_bench.py --targets libpng,lua --build-only
  bench/magma/magma_bench.py --runs 10 --cap 3600 --out results.md
  bench/magma/magma_bench.py --report-only bench/.cache/magma/runs/<stamp>   # redo the report
  bench/magma/magma_bench.py --runs 1 ...; bench/magma/magma_bench.py --report-only RUNDIR1 RUNDIR2
                                        # a run added later to earlier ones

Needs: git, patch, make, clang/clang++ with libFuzzer (Debian clang-14 and
libclang-rt-14-dev; scripts/install-deps.sh), autoconf, automake, libtool
(libpng and libxml2 regenerate their build system), tclsh (sqlite3),
zlib and liblzma headers, and a built build/bin/cgofuzz (--cgofuzz PATH).
Repositories come from local mirrors when present (--mirrors, default
/work/.mirror/<owner>+<name>/repo), else from GitHub (network). Everything
fetched, built and run goes to bench/.cache/magma/ (--cache); a rerun
skips what is already there (--rebuild to redo the builds). The report goes
to bench/results/magma/<date>-magma[-quick].md and raw results to a .json next to
it; campaign directories (logs, corpora, crash files, canary timelines)
stay in bench/.cache/magma/runs/<stamp>/.
"""
import argparse
import hashlib
import concurrent.futures
import datetime
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import BENCH, ROOT, note  # noqa: E402
HERE = os.path.join(BENCH, "magma")
MIRRORS = "/work/.mirror"

MAGMA_REPO = "HexHive/magma"
MAGMA_COMMIT = "75d1ae7b180443a778b8830c79176ca5f93642ac"

# target -> where to get it, Magma's pin, and the harness this script runs.
TARGETS = {
    "libpng": dict(
        repos=["glennrp/libpng"],
        commit="a37d4836519517bdce6cb9d956092321eca3e73b",
        harness="libpng_read_fuzzer", corpus="libpng_read_fuzzer"),
    "lua": dict(
        repos=["lua/lua"],
        commit="dbdc74dc5502c2e05e1c1e2ac894943f418c8431",
        harness="fuzz_lua", corpus="lua"),
    "libxml2": dict(
        repos=["GNOME/libxml2"],
        commit="ec6e3efb06d7b15cf5a2328fabd3845acea4c815",
        harness="libxml2_xml_read_memory_fuzzer",
        corpus="libxml2_xml_read_memory_fuzzer"),
    "sqlite3": dict(
        # Magma downloads sqlite.org's tarball of Fossil check-in
        # 8c432642572c8c4b; this is the same check-in in sqlite's git
        # mirror ("FossilOrigin-Name: 8c432642572c8c4b7251f4...").
        repos=["sqlite/sqlite", "GerHobbelt/sqlite"],
        commit="9d41caf361ea37e7bb91c3e0635bd9dca9f06040",
        fossil="8c432642572c8c4b7251f413def0725b3b8e9e7fe10230aa0aabe86b58e5902d",
        harness="sqlite3_fuzz", corpus="sqlite3_fuzz"),
}
DEFAULT_TARGETS = ["libpng", "lua", "libxml2", "sqlite3"]
ENGINES = ["cgofuzz", "libfuzzer"]

# Magma's docker/Dockerfile (canaries on, no fixes, no ISAN) plus
# fuzzers/libfuzzer/instrument.sh's -fsanitize=fuzzer-no-link.
MAGMA_CFLAGS = "-g -O0 -DMAGMA_ENABLE_CANARIES -fsanitize=fuzzer-no-link"
LIB_FUZZING_ENGINE = "-fsanitize=fuzzer"
# On the harness's compile line only: its entry point becomes
# magma_fuzz_target, called by bench/magma/magma_reset.c's.
RESET_FLAGS = "-DLLVMFuzzerTestOneInput=magma_fuzz_target"

# magma/src/storage.h: struct { bool consumed; canary_t producer[31];
# canary_t consumer[31]; } with canary_t = { char name[16]; u64 reached,
# triggered; }, in a 2048-byte file.
STORAGE_SIZE = 2048
PRODUCER_OFF = 8
CANARY = struct.Struct("<16sQQ")
BUFFERLEN = 31
BUG_NAME = re.compile(r"^[A-Z]{3}\d{3}$")


class Fail(Exception):
    pass


def run(argv, cwd=None, env=None, logf=None, check=True):
    """Runs argv (a list) or a shell string; output to logf or returned."""
    shell = isinstance(argv, str)
    with open(logf, "a") if logf else open(os.devnull, "w") as lf:
        if logf:
            lf.write("\n$ %s\n" % (argv if shell else shlex.join(argv)))
            lf.flush()
            r = subprocess.run(argv, cwd=cwd, env=env, shell=shell,
                               stdout=lf, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL)
        else:
            r = subprocess.run(argv, cwd=cwd, env=env, shell=shell,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               errors="replace", stdin=subprocess.DEVNULL)
    if check and r.returncode != 0:
        tail = ""
        if logf:
            with open(logf, errors="replace") as f:
                tail = "".join(f.readlines()[-25:])
        else:
            tail = r.stdout[-3000:]
        raise Fail("command failed (exit %d): %s\n%s" % (
            r.returncode, argv if shell else shlex.join(argv), tail))
    return r


# ---------------------------------------------------------------- fetch --

def git_source(args, repo):
    """A local mirror of owner/name if there is one, else its GitHub URL."""
    local = os.path.join(args.mirrors, repo.replace("/", "+"), "repo")
    if os.path.isdir(local):
        return local
    return "https://github.com/%s.git" % repo


def has_commit(gitdir, commit):
    r = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "-e",
                        commit + "^{commit}"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return r.returncode == 0


def fetch_repo(args, name, repos, commit):
    """A bare clone (full history) under cache/git holding commit."""
    gitdir = os.path.join(args.cache, "git", name + ".git")
    if os.path.isdir(gitdir) and has_commit(gitdir, commit):
        return gitdir
    errors = []
    for repo in repos:
        src = git_source(args, repo)
        shutil.rmtree(gitdir, ignore_errors=True)
        os.makedirs(os.path.dirname(gitdir), exist_ok=True)
        note("fetching %s from %s" % (name, src))
        r = run(["git", "clone", "--bare", "-q", src, gitdir], check=False)
        if r.returncode != 0:
            errors.append("%s: %s" % (src, r.stdout.strip()[-300:]))
            continue
        if has_commit(gitdir, commit):
            return gitdir
        errors.append("%s: has no commit %s" % (src, commit))
    raise Fail("cannot fetch %s at %s:\n  %s" % (name, commit,
                                                 "\n  ".join(errors)))


def missing_blobs(gitdir, commit):
    """Paths of commit whose blobs the clone lacks (a mirror may leave out
    its largest files)."""
    ls = run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z",
              commit]).stdout.split("\0")
    ents = [e.split("\t", 1) for e in ls if "\t" in e]
    ents = [(meta.split()[2], path) for meta, path in ents
            if meta.split()[1] == "blob"]
    r = subprocess.run(["git", "--git-dir", gitdir, "cat-file",
                        "--batch-check"], input="".join(
                            oid + "\n" for oid, _ in ents), text=True,
                       stdout=subprocess.PIPE)
    return [path for (oid, path), line in zip(ents, r.stdout.splitlines())
            if line.endswith(" missing")]


def export(gitdir, commit, dest):
    """git archive commit into dest; blobs missing from the clone are left
    out (and named in dest/.magma-missing)."""
    missing = []
    for attempt in (0, 1):
        tmp = dest + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        spec = ["--", "."] + [":(exclude,literal)" + m for m in missing] \
            if missing else []
        p1 = subprocess.Popen(["git", "--git-dir", gitdir, "archive",
                               commit] + spec, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        r = subprocess.run(["tar", "-x", "-C", tmp], stdin=p1.stdout,
                           stderr=subprocess.DEVNULL)
        p1.stdout.close()
        if p1.wait() == 0 and r.returncode == 0:
            break
        missing = missing_blobs(gitdir, commit)
        if attempt or not missing:
            raise Fail("git archive %s %s failed" % (gitdir, commit))
        note("%s: %d file(s) missing from the clone, left out: %s" % (
            commit[:12], len(missing), ", ".join(missing[:10])))
    if missing:
        with open(os.path.join(tmp, ".magma-missing"), "w") as f:
            f.write("\n".join(missing) + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)


def magma_dir(args):
    d = os.path.join(args.cache, "magma")
    stamp = os.path.join(d, ".commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == MAGMA_COMMIT:
        return d
    gitdir = fetch_repo(args, "magma", [MAGMA_REPO], MAGMA_COMMIT)
    export(gitdir, MAGMA_COMMIT, d)
    with open(stamp, "w") as f:
        f.write(MAGMA_COMMIT + "\n")
    return d


def patch_list(magma, target):
    """Magma's setup patches, then its bug patches, by name."""
    out = []
    for kind in ("setup", "bugs"):
        d = os.path.join(magma, "targets", target, "patches", kind)
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in sorted(os.listdir(d))
                    if f.endswith(".patch")]
    return out


def prepare_source(args, magma, target):
    """cache/src/<target>: the pinned commit with Magma's patches applied."""
    t = TARGETS[target]
    dest = os.path.join(args.cache, "src", target)
    stamp = os.path.join(dest, ".magma-prepared")
    patches = patch_list(magma, target)
    want = "%s %s\n%s\n" % (t["commit"], MAGMA_COMMIT, "\n".join(
        os.path.basename(p) for p in patches))
    if os.path.exists(stamp) and open(stamp).read() == want:
        return dest
    gitdir = fetch_repo(args, target, t["repos"], t["commit"])
    if t.get("fossil"):
        msg = run(["git", "--git-dir", gitdir, "show", "-s", "--format=%B",
                   t["commit"]]).stdout
        if t["fossil"] not in msg:
            raise Fail("%s: commit %s is not Fossil check-in %s" % (
                target, t["commit"], t["fossil"]))
    export(gitdir, t["commit"], dest)
    plog = os.path.join(args.cache, "logs", target + "-patch.log")
    os.makedirs(os.path.dirname(plog), exist_ok=True)
    open(plog, "w").close()
    for p in patches:
        name = os.path.basename(p)[:-len(".patch")]
        text = open(p, errors="surrogateescape").read().replace(
            "%MAGMA_BUG%", name)
        with open(plog, "a") as lf:
            lf.write("Applying %s\n" % p)
            lf.flush()
            r = subprocess.run(["patch", "-p1", "-d", dest], input=text,
                               text=True, errors="surrogateescape",
                               stdout=lf, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise Fail("%s: patch %s does not apply (see %s)" % (
                target, name, plog))
    with open(stamp, "w") as f:
        f.write(want)
    note("%s: %s + %d Magma patches" % (target, t["commit"][:12],
                                       len(patches)))
    return dest


# ---------------------------------------------------------------- build --

def engine_env(args, engine, magma, out):
    if engine == "libfuzzer":
        cc, cxx = [args.clang], [args.clangxx]
    else:
        cc, cxx = [args.cgofuzz, "cc"], [args.cgofuzz, "c++"]
    cflags = "-include %s %s" % (os.path.join(magma, "magma", "src",
                                               "canary.h"), MAGMA_CFLAGS)
    env = dict(os.environ)
    env.update(CC=shlex.join(cc), CXX=shlex.join(cxx), CFLAGS=cflags,
               CXXFLAGS=cflags, LDFLAGS="-L%s -g -fsanitize=fuzzer-no-link"
               % out, LIBS="-l:magma.o -lrt",
               LIB_FUZZING_ENGINE=LIB_FUZZING_ENGINE, OUT=out,
               HARNESS_FLAGS="" if args.no_reset else RESET_FLAGS,
               MAGMA=os.path.join(magma, "magma"),
               TARGET=os.path.join(magma, "targets"))
    if engine == "libfuzzer":
        env.pop("CGOFUZZ_CLANG", None)
    return env


def build_magma_runtime(env, magma, out, blog, reset):
    """magma/build.sh: canary.c + storage.c -> $OUT/magma.o; with reset,
    bench/magma/magma_reset.c (canary.c + a per-input reset) for canary.c."""
    src = os.path.join(magma, "magma", "src")
    storage = "-DMAGMA_STORAGE=\"%s\"" % "/tmp/magma-canaries.raw"
    canary = os.path.join(HERE, "magma_reset.c") if reset else \
        os.path.join(src, "canary.c")
    for f, path in (("canary", canary),
                    ("storage", os.path.join(src, "storage.c"))):
        run("%s %s '%s' -c %s -fPIC -I %s -o %s/%s.o" % (
            env["CC"], env["CFLAGS"], storage, path, src, out, f),
            env=env, logf=blog)
    run(["ld", "-r", out + "/canary.o", out + "/storage.o", "-o",
         out + "/magma.o"], logf=blog)
    os.remove(out + "/canary.o")
    os.remove(out + "/storage.o")


def build_target(env, target, magma, work, out, blog, jobs):
    """The target's Magma build.sh, minus what the harness does not need,
    up to the harness's link (link_harness)."""
    mk = "make -j%d" % jobs
    if target == "libpng":
        run("autoreconf -f -i", cwd=work, env=env, logf=blog)
        run("./configure --with-libpng-prefix=MAGMA_ --disable-shared",
            cwd=work, env=env, logf=blog)
        run(mk + " libpng16.la", cwd=work, env=env, logf=blog)
    elif target == "lua":
        run(mk + " liblua.a", cwd=work, env=lua_env(env), logf=blog)
    elif target == "libxml2":
        run("./autogen.sh --with-http=no --with-python=no --with-lzma=yes "
            "--with-threads=no --disable-shared", cwd=work, env=env,
            logf=blog)
        run(mk + " libxml2.la", cwd=work, env=env, logf=blog)
    elif target == "sqlite3":
        bdir = os.path.join(work, "magma-work")
        os.makedirs(bdir, exist_ok=True)
        run("../configure --disable-shared --enable-rtree", cwd=bdir,
            env=sqlite_env(env), logf=blog)
        run(mk + " libsqlite3.la", cwd=bdir, env=sqlite_env(env), logf=blog)
    else:
        raise Fail("no build recipe for " + target)


def lua_env(env):
    env = dict(env)
    env["CFLAGS"] += " -include %s" % os.path.join(
        HERE, "lua", "fuzz_lua_sandbox.h")
    return env


def sqlite_env(env):
    env = dict(env)
    env["CFLAGS"] += (
        " -DSQLITE_MAX_LENGTH=128000000 -DSQLITE_MAX_SQL_LENGTH=128000000"
        " -DSQLITE_MAX_MEMORY=25000000"
        " -DSQLITE_PRINTF_PRECISION_LIMIT=1048576 -DSQLITE_DEBUG=1"
        " -DSQLITE_MAX_PAGE_COUNT=16384")
    return env


def link_harness(env, target, work, blog):
    """Compiles the harness and links it with the target's library, the
    canary runtime and the engine: the one step that depends on the
    engine's own code, redone alone when only that changed."""
    h = TARGETS[target]["harness"]
    if target == "libpng":
        run('$CXX $CXXFLAGS $HARNESS_FLAGS -std=c++11 -I. contrib/oss-fuzz/'
            'libpng_read_fuzzer.cc -o "$OUT/%s" $LDFLAGS .libs/libpng16.a '
            '$LIBS $LIB_FUZZING_ENGINE -lz' % h, cwd=work, env=env,
            logf=blog)
    elif target == "lua":
        run('$CC $CFLAGS $HARNESS_FLAGS -I. %s -o "$OUT/%s" $LDFLAGS liblua.a $LIBS '
            '$LIB_FUZZING_ENGINE -lm -ldl' % (
                os.path.join(HERE, "lua", "fuzz_lua.c"), h),
            cwd=work, env=lua_env(env), logf=blog)
    elif target == "libxml2":
        run('$CXX $CXXFLAGS $HARNESS_FLAGS -std=c++11 -Iinclude/ -I"$TARGET/libxml2/src/" '
            '"$TARGET/libxml2/src/%s.cc" -o "$OUT/%s" .libs/libxml2.a '
            '$LDFLAGS $LIBS $LIB_FUZZING_ENGINE -lz -llzma' % (h, h),
            cwd=work, env=env, logf=blog)
    elif target == "sqlite3":
        run('$CC $CFLAGS $HARNESS_FLAGS -I. ../test/ossfuzz.c ./sqlite3.o -o "$OUT/%s" '
            '$LDFLAGS $LIBS $LIB_FUZZING_ENGINE -pthread -ldl -lm' % h,
            cwd=os.path.join(work, "magma-work"), env=sqlite_env(env),
            logf=blog)
    else:
        raise Fail("no build recipe for " + target)


_DIGESTS = {}


def engine_digest(args, engine):
    """engine_id, computed once per engine and binary: build() asks for
    every target, and the run's meta once more."""
    k = (engine, args.cgofuzz, args.clang)
    if k not in _DIGESTS:
        _DIGESTS[k] = engine_id(args, engine)
    return _DIGESTS[k]


def engine_id(args, engine):
    """What identifies the engine linked into a harness: libFuzzer comes
    with clang (its version is part of the key); cgofuzz's is the runtime
    libraries `cgofuzz cc` links, found as it finds them (CGOFUZZ_LIBDIR,
    else beside the binary's install or build tree). Without this a rebuilt
    engine would leave every harness linked with the old one."""
    if engine == "libfuzzer":
        return subprocess.run([args.clang, "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    bindir = os.path.dirname(os.path.realpath(args.cgofuzz))
    dirs = [os.environ.get("CGOFUZZ_LIBDIR")] if os.environ.get(
        "CGOFUZZ_LIBDIR") else [os.path.join(bindir, "..", "lib", "cgofuzz"),
                                os.path.join(bindir, "..", "lib"),
                                os.path.join(bindir, "..")]
    for d in dirs:
        if os.path.exists(os.path.join(d, "libcgofuzz.a")):
            h = hashlib.sha256()
            for name in ("libcgofuzz.a", "libcgofuzz_main.a",
                         "libcgofuzz_interceptors.a"):
                f = os.path.join(d, name)
                if os.path.exists(f):
                    h.update(open(f, "rb").read())
            return "cgofuzz runtime " + h.hexdigest()[:16]
    raise Fail("cannot find libcgofuzz.a beside %s (set CGOFUZZ_LIBDIR)" %
               args.cgofuzz)


def build(args, magma, target, engine):
    """cache/out/<engine>/<target>/<harness>; skipped when up to date,
    only relinked when only the engine changed."""
    src = prepare_source(args, magma, target)
    out = os.path.join(args.cache, "out", engine, target)
    binary = os.path.join(out, TARGETS[target]["harness"])
    stamp = binary + ".built"
    key = "%s\n%s\n%s reset=%s\n" % (
        open(os.path.join(src, ".magma-prepared")).read(), MAGMA_CFLAGS,
        engine, not args.no_reset)
    full = key + engine_digest(args, engine) + "\n"
    old = open(stamp).read() if os.path.exists(stamp) else ""
    work = os.path.join(args.cache, "build", engine, target)
    blog = os.path.join(args.cache, "logs", "%s-%s-build.log" % (
        target, engine))
    env = engine_env(args, engine, magma, out)
    if not args.rebuild and old == full and os.path.exists(binary):
        return binary, None
    t0 = time.time()
    if not args.rebuild and old.startswith(key) and os.path.isdir(work):
        note("relinking %s with %s (the engine changed; log: %s)" % (
            target, engine, blog))
        with open(blog, "a") as f:
            f.write("\n# relink: %s" % full.splitlines()[-1])
        build_magma_runtime(env, magma, out, blog, not args.no_reset)
        link_harness(env, target, work, blog)
    else:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(src, work, symlinks=True)
        os.makedirs(out)
        open(blog, "w").close()
        note("building %s with %s (log: %s)" % (target, engine, blog))
        build_magma_runtime(env, magma, out, blog, not args.no_reset)
        build_target(env, target, magma, work, out, blog, args.make_jobs)
        link_harness(env, target, work, blog)
    if not os.path.exists(binary):
        raise Fail("%s: no %s after the build" % (target, binary))
    with open(stamp, "w") as f:
        f.write(full)
    secs = time.time() - t0
    note("built %s (%s) in %.0f s" % (target, engine, secs))
    return binary, secs


# ------------------------------------------------------------- canaries --

def new_storage(path):
    with open(path, "wb") as f:
        f.write(b"\0" * STORAGE_SIZE)


def read_storage(path):
    """{bug: (reached, triggered)} from the producer buffer."""
    try:
        with open(path, "rb") as f:
            data = f.read(STORAGE_SIZE)
    except OSError:
        return {}
    out = {}
    for i in range(BUFFERLEN):
        off = PRODUCER_OFF + i * CANARY.size
        if off + CANARY.size > len(data):
            break
        name, reached, trig = CANARY.unpack_from(data, off)
        name = name.split(b"\0", 1)[0].decode("ascii", "replace")
        if not name:
            break
        if BUG_NAME.match(name):
            out[name] = (reached, trig)
    return out


def magma_bugs(magma, target):
    d = os.path.join(magma, "targets", target, "patches", "bugs")
    return sorted(f[:-6] for f in os.listdir(d) if f.endswith(".patch"))


# ---------------------------------------------------------------- seeds --

def prune_seeds(args, magma, target, binary):
    """Magma's run.sh: drop seeds that trigger a canary or fail."""
    t = TARGETS[target]
    src = os.path.join(magma, "targets", target, "corpus", t["corpus"])
    dest = os.path.join(args.cache, "seeds", target)
    # Kept beside the seeds, not among them: both engines load every file
    # of a corpus directory (libFuzzer dot files too).
    stamp = dest + ".json"
    key = "%s %s %s" % (MAGMA_COMMIT, args.seed_timeout,
                        os.path.getmtime(binary))
    if os.path.exists(stamp) and os.path.isdir(dest):
        meta = json.load(open(stamp))
        if meta.get("key") == key:
            return dest, meta["dropped"]
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    storage = os.path.join(args.cache, "seeds", target + ".canaries")
    dropped = {}
    for name in sorted(os.listdir(src)):
        new_storage(storage)
        env = dict(os.environ, MAGMA_STORAGE=storage)
        try:
            r = subprocess.run([binary, os.path.join(src, name)], env=env,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL,
                               timeout=args.seed_timeout)
            why = "exit %d" % r.returncode if r.returncode else None
        except subprocess.TimeoutExpired:
            why = "timeout"
        trig = [b for b, (_, tr) in read_storage(storage).items() if tr]
        if trig:
            why = "triggers " + ",".join(sorted(trig))
        if why:
            dropped[name] = why
        else:
            shutil.copy(os.path.join(src, name), os.path.join(dest, name))
    os.remove(storage)
    with open(stamp, "w") as f:
        json.dump(dict(key=key, dropped=dropped), f, indent=1)
    kept = len(os.listdir(dest))
    note("%s: %d seeds kept, %d dropped%s" % (
        target, kept, len(dropped), "".join(
            "\n  %s: %s" % kv for kv in sorted(dropped.items()))))
    if kept == 0:
        raise Fail("%s: no seeds left after pruning" % target)
    return dest, dropped


# ------------------------------------------------------------- campaign --

EXEC_LINE = re.compile(r"^#(\d+)\s+(?:NEW|pulse|REDUCE|DONE|INITED|RELOAD)",
                       re.M)


def campaign(args, target, engine, binary, seeds, rundir, idx):
    """One campaign; returns its record (first reach/trigger times...)."""
    d = os.path.join(rundir, "%s-%s-%d" % (target, engine, idx))
    shutil.rmtree(d, ignore_errors=True)
    corpus, arts = os.path.join(d, "corpus"), os.path.join(d, "artifacts")
    os.makedirs(corpus)
    os.makedirs(arts)
    storage = os.path.join(d, "canaries.raw")
    new_storage(storage)
    env = dict(os.environ, MAGMA_STORAGE=storage)
    logf = os.path.join(d, "log.txt")
    first_r, first_t, last = {}, {}, {}
    timeline = open(os.path.join(d, "timeline.csv"), "w")
    timeline.write("seconds,bug,reached,triggered\n")
    stop = threading.Event()
    t0 = time.time()

    def poll():
        now = time.time() - t0
        cur = read_storage(storage)
        for bug, (r, tr) in cur.items():
            if r and bug not in first_r:
                first_r[bug] = now
            if tr and bug not in first_t:
                first_t[bug] = now
            if last.get(bug) != (r, tr):
                timeline.write("%.1f,%s,%d,%d\n" % (now, bug, r, tr))
                last[bug] = (r, tr)
        timeline.flush()

    def poller():
        while not stop.wait(args.poll):
            poll()

    th = threading.Thread(target=poller, daemon=True)
    th.start()
    segments, execs, short = [], 0, 0
    while True:
        left = args.cap - (time.time() - t0)
        if left < 2:
            break
        argv = [binary, "-close_fd_mask=1", "-timeout=%d" % args.timeout,
                "-rss_limit_mb=%d" % args.rss_limit_mb,
                "-print_final_stats=1", "-artifact_prefix=" + arts + "/",
                "-max_total_time=%d" % int(left), corpus, seeds]
        s0 = time.time()
        with open(logf, "a") as lf:
            lf.write("\n$ %s\n" % shlex.join(argv))
            lf.flush()
            pos = lf.tell()
            p = subprocess.Popen(argv, cwd=d, env=env, stdout=lf,
                                 stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL,
                                 start_new_session=True)
            try:
                rc = p.wait(timeout=left + args.grace)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                rc = p.wait()
                lf.write("\n[magma_bench] killed after the cap\n")
        dur = time.time() - s0
        with open(logf, errors="replace") as lf:
            lf.seek(pos)
            text = lf.read()
        m = EXEC_LINE.findall(text)
        n = int(m[-1]) if m else 0
        execs += n
        segments.append(dict(rc=rc, seconds=round(dur, 1), execs=n))
        if rc == 0:
            break
        short = short + 1 if dur < 3 else 0
        if short >= 5:
            note("%s %s #%d: 5 starts in a row ended at once (exit %d); "
                "giving up, see %s" % (target, engine, idx, rc, logf))
            break
    wall = time.time() - t0
    stop.set()
    th.join()
    poll()
    timeline.close()
    # A bug first seen at the final read after the cap still counts only
    # if seen within the cap.
    first_r = {b: t for b, t in first_r.items() if t <= args.cap + args.poll}
    first_t = {b: t for b, t in first_t.items() if t <= args.cap + args.poll}
    counts = read_storage(storage)
    rec = dict(target=target, engine=engine, run=idx, dir=d,
               wall=round(wall, 1), execs=execs, segments=segments,
               crashes=len([f for f in os.listdir(arts)]),
               reached={b: round(t, 1) for b, t in first_r.items()},
               triggered={b: round(t, 1) for b, t in first_t.items()},
               counts={b: list(v) for b, v in counts.items()})
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(rec, f, indent=1)
    note("%s %s #%d: %.0f s, %d execs, %d restarts, reached %s, triggered "
        "%s" % (target, engine, idx, wall, execs, len(segments) - 1,
                ",".join(sorted(first_r)) or "-",
                ",".join("%s@%.0fs" % kv for kv in sorted(first_t.items()))
                or "-"))
    return rec


# --------------------------------------------------------------- report --

def fmt_t(t):
    return "-" if t is None else ("%.0f" % t if t >= 10 else "%.1f" % t)


def load_runs(rundirs):
    """The campaigns of one or more run directories, as one set: the
    first's meta, with the runs counted from the campaigns and every run
    directory and engine build listed. Directories whose caps, polls or
    limits differ cannot be one set."""
    meta, recs = None, []
    builds = {}
    for rd in rundirs:
        f = os.path.join(rd, "meta.json")
        if not os.path.exists(f):
            raise Fail("%s: no meta.json (not a run directory of this "
                       "script)" % rd)
        m = json.load(open(f))
        if meta is None:
            meta = dict(m, rundirs=[])
        for k in ("cap", "poll", "timeout", "rss_limit_mb", "seed_timeout"):
            if m.get(k) != meta.get(k):
                raise Fail("%s: its %s is %s, the first's %s: not one set" %
                           (rd, k, m.get(k), meta.get(k)))
        meta["rundirs"].append(m["rundir"])
        for e, ident in m.get("engine_ids", {e: "not recorded" for e in
                                              m["engines"]}).items():
            builds.setdefault(e, []).append("%s (%s)" % (
                ident, os.path.basename(m["rundir"])))
        for t in m["targets"]:
            if t not in meta["targets"]:
                meta["targets"].append(t)
                meta["bugs"][t] = m["bugs"][t]
                meta["dropped"][t] = m["dropped"].get(t, {})
        for d in sorted(os.listdir(rd)):
            f = os.path.join(rd, d, "result.json")
            if os.path.exists(f):
                recs.append(json.load(open(f)))
    per = {}
    for r in recs:
        per[(r["target"], r["engine"])] = per.get(
            (r["target"], r["engine"]), 0) + 1
    meta["runs"] = max(per.values()) if per else 0
    meta["builds"] = builds
    return meta, recs


def report(args, recs, meta):
    cap = meta["cap"]
    floor = meta["poll"]
    lines = []
    w = lines.append
    w("# Magma: cgofuzz vs libFuzzer (issue 26)")
    w("")
    w("%s; cap %d s per campaign, %d run(s) per engine, %d campaign(s) at "
      "a time, one worker each; canary file read every %.1f s." % (
          meta["date"], cap, meta["runs"], meta["jobs"], meta["poll"]))
    w("Magma %s; flags `%s`; harness link `%s`; run as `HARNESS "
      "-close_fd_mask=1 -timeout=%d -rss_limit_mb=%d -max_total_time=LEFT "
      "CORPUS SEEDS`, restarted after a crash/timeout/OOM for the time "
      "left." % (MAGMA_COMMIT[:12], MAGMA_CFLAGS, LIB_FUZZING_ENGINE,
                 meta["timeout"], meta["rss_limit_mb"]))
    w("")
    by = {}
    for r in recs:
        by.setdefault((r["target"], r["engine"]), []).append(r)
    targets = [t for t in meta["targets"]
               if any((t, e) in by for e in meta["engines"])]
    engines = meta["engines"]
    w("## Campaigns")
    w("")
    w("| target | engine | runs | execs (median) | restarts (total) | "
      "crash files (total) |")
    w("|---|---|---|---|---|---|")
    for t in targets:
        for e in engines:
            rs = by.get((t, e), [])
            if not rs:
                continue
            w("| %s | %s | %d | %d | %d | %d |" % (
                t, e, len(rs), statistics.median(r["execs"] for r in rs),
                sum(len(r["segments"]) - 1 for r in rs),
                sum(r["crashes"] for r in rs)))
    w("")
    w("## Bugs")
    w("")
    w("Per bug: runs that reached / triggered it, and the median time (s) "
      "to reach / trigger it over the runs (a run that missed counts as "
      "the cap, %d s). Bugs no run reached are left out." % cap)
    w("")
    hdr = "| target | bug |"
    sep = "|---|---|"
    for e in engines:
        hdr += " %s reached | %s triggered | %s t-reach | %s t-trigger |" % (
            e, e, e, e)
        sep += "---|---|---|---|"
    w(hdr)
    w(sep)
    stats = {}
    for t in targets:
        bugs = sorted(set(b for e in engines for r in by.get((t, e), [])
                          for b in r["reached"]) |
                      set(b for e in engines for r in by.get((t, e), [])
                          for b in r["triggered"]))
        for b in bugs:
            row = "| %s | %s |" % (t, b)
            for e in engines:
                rs = by.get((t, e), [])
                nr = sum(1 for r in rs if b in r["reached"])
                nt = sum(1 for r in rs if b in r["triggered"])
                mr = statistics.median(r["reached"].get(b, cap) for r in rs) \
                    if rs else None
                mt = statistics.median(r["triggered"].get(b, cap)
                                       for r in rs) if rs else None
                stats[(t, b, e)] = dict(runs=len(rs), reached=nr,
                                        triggered=nt, t_reach=mr,
                                        t_trigger=mt)
                row += " %d/%d | %d/%d | %s | %s |" % (
                    nr, len(rs), nt, len(rs), fmt_t(mr if nr else None),
                    fmt_t(mt if nt else None))
            w(row)
    w("")
    verdicts = []
    if set(engines) >= {"cgofuzz", "libfuzzer"}:
        w("## Issue 26 criteria")
        w("")
        missing, ratios, both = [], [], []
        for (t, b, e), s in sorted(stats.items()):
            if e != "libfuzzer" or not s["triggered"]:
                continue
            c = stats.get((t, b, "cgofuzz"))
            if not c or c["triggered"] < s["triggered"]:
                missing.append("%s/%s (cgofuzz %d, libFuzzer %d runs)" % (
                    t, b, c["triggered"] if c else 0, s["triggered"]))
            if c and c["triggered"]:
                ct = max(c["t_trigger"], floor)
                lt = max(s["t_trigger"], floor)
                ratios.append(ct / lt)
                both.append((t, b, c["t_trigger"], s["t_trigger"]))
        ok_a = not missing
        verdicts.append(("a", ok_a))
        w("- a. cgofuzz triggers every bug libFuzzer triggers, in at least "
          "as many runs: **%s**%s" % (
              "PASS" if ok_a else "FAIL",
              "" if ok_a else " (short: " + "; ".join(missing) + ")"))
        if ratios:
            med = statistics.median(ratios)
            cg_med = statistics.median(x[2] for x in both)
            lf_med = statistics.median(x[3] for x in both)
            ok_b = med <= 0.5
            verdicts.append(("b", ok_b))
            w("- b. median over the %d bug(s) both trigger of cgofuzz's / "
              "libFuzzer's median time to trigger: %.2f (<= 0.5): **%s**; "
              "the medians over those bugs: cgofuzz %s s, libFuzzer %s s "
              "(%.2f); times below the poll interval count as %.1f s. "
              "Bugs: %s" % (
                  len(ratios), med, "PASS" if ok_b else "FAIL",
                  fmt_t(cg_med), fmt_t(lf_med),
                  max(cg_med, floor) / max(lf_med, floor), floor,
                  ", ".join("%s/%s %s vs %s" % (t, b, fmt_t(c), fmt_t(l))
                            for t, b, c, l in both)))
        else:
            verdicts.append(("b", None))
            w("- b. no bug triggered by both engines: no time ratio "
              "(**n/a**)")
    w("- c. bugs reached but never triggered:")
    for e in engines:
        lst = ["%s/%s" % (t, b) for (t, b, e2), s in sorted(stats.items())
               if e2 == e and s["reached"] and not s["triggered"]]
        w("  - %s: %s" % (e, ", ".join(lst) or "none"))
    w("")
    w("Magma bugs of these targets never reached by any run: " + (", ".join(
        "%s/%s" % (t, b) for t in targets for b in meta["bugs"].get(t, [])
        if not any(stats.get((t, b, e), {}).get("reached")
                   for e in engines)) or "none") + ".")
    w("")
    if meta.get("dropped"):
        w("Seeds dropped (Magma's pruning: they trigger a canary, fail or "
          "run over %.1f s): %s." % (meta["seed_timeout"], "; ".join(
              "%s: %s" % (t, ", ".join("%s (%s)" % kv for kv in
                                       sorted(d.items())))
              for t, d in sorted(meta["dropped"].items()) if d) or "none"))
        w("")
    if meta.get("build_seconds"):
        w("Build times (s): " + ", ".join(
            "%s %s %.0f" % (t, e, s) for (t, e, s) in meta["build_seconds"]))
        w("")
    for e, bs in sorted(meta.get("builds", {}).items()):
        w("Engine %s: %s." % (e, "; ".join(bs)))
    if not meta.get("builds") and meta.get("engine_ids"):
        w("Engines: %s." % "; ".join(
            "%s %s" % kv for kv in sorted(meta["engine_ids"].items())))
    w("")
    w("Campaign directories: %s." % ", ".join(
        "`%s`" % os.path.relpath(d, ROOT)
        for d in meta.get("rundirs", [meta["rundir"]])))
    return "\n".join(lines) + "\n", verdicts


# ----------------------------------------------------------------- main --

def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (head -80 bench/magma/magma_bench.py) "
               "and bench/magma/README.md.")
    ap.add_argument("--targets", help="comma-separated, default "
                    + ",".join(DEFAULT_TARGETS))
    ap.add_argument("--engines", default="cgofuzz,libfuzzer")
    ap.add_argument("--runs", type=int, help="campaigns per target and "
                    "engine (default 3)")
    ap.add_argument("--cap", type=int, help="seconds per campaign "
                    "(default 600)")
    ap.add_argument("--quick", action="store_true", help="libpng and lua, "
                    "1 run, 60 s: a 10-minute taste with the builds")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--jobs", type=int, default=2,
                    help="campaigns at a time (default 2)")
    ap.add_argument("--make-jobs", type=int, default=1,
                    help="make -jN for the builds (default 1)")
    ap.add_argument("--poll", type=float, default=1.0,
                    help="seconds between reads of the canary file")
    ap.add_argument("--timeout", type=int, default=10,
                    help="-timeout= per input (default 10)")
    ap.add_argument("--rss-limit-mb", type=int, default=2048,
                    help="-rss_limit_mb= (default 2048)")
    ap.add_argument("--seed-timeout", type=float, default=1.0,
                    help="seeds running longer are dropped (default 1 s)")
    ap.add_argument("--grace", type=int, default=60,
                    help="kill a campaign this long after the cap")
    ap.add_argument("--out", help="report file (default bench/results/magma/"
                    "<date>-magma[-quick].md)")
    ap.add_argument("--cache", default=os.path.join(BENCH, ".cache",
                                                    "magma"))
    ap.add_argument("--mirrors", default=MIRRORS,
                    help="directory of local git mirrors <owner>+<name>/repo")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--clang", default=shutil.which("clang-14") or
                    shutil.which("clang") or "clang")
    ap.add_argument("--clangxx", default=shutil.which("clang++-14") or
                    shutil.which("clang++") or "clang++")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--no-reset", action="store_true",
                    help="Magma's canary.c as is: a process stops counting "
                    "after its first trigger (see bench/magma/README.md)")
    ap.add_argument("--report-only", metavar="RUNDIR", nargs="+",
                    help="rebuild the report from run directories (several: "
                    "their runs together, e.g. a third run made another "
                    "day; caps, polls and limits must agree)")
    args = ap.parse_args()

    if args.quick:
        args.targets = args.targets or "libpng,lua"
        args.runs = args.runs or 1
        args.cap = args.cap or 60
    args.targets = (args.targets or ",".join(DEFAULT_TARGETS)).split(",")
    args.runs = args.runs or 3
    args.cap = args.cap or 600
    engines = [e for e in args.engines.split(",") if e]
    for t in args.targets:
        if t not in TARGETS:
            ap.error("unknown target %s (known: %s)" % (t, ", ".join(TARGETS)))
    for e in engines:
        if e not in ENGINES:
            ap.error("unknown engine %s" % e)
    args.cache = os.path.abspath(args.cache)
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    date = datetime.date.today().isoformat()
    out = args.out or os.path.join(BENCH, "results", "magma", "%s-magma%s.md" % (
        date, "-quick" if args.quick else ""))

    if args.report_only:
        try:
            meta, recs = load_runs(args.report_only)
        except Fail as ex:
            note("FAILED: %s" % ex)
            return 1
        text, _ = report(args, recs, meta)
        sys.stdout.write(text)
        return 0

    if "cgofuzz" in engines and not os.access(args.cgofuzz, os.X_OK):
        ap.error("no cgofuzz at %s (build it, or --cgofuzz PATH)" %
                 args.cgofuzz)
    os.makedirs(args.cache, exist_ok=True)
    try:
        magma = magma_dir(args)
        binaries, build_secs, failed = {}, [], []
        for t in args.targets:
            for e in engines:
                try:
                    b, secs = build(args, magma, t, e)
                    binaries[(t, e)] = b
                    if secs is not None:
                        build_secs.append((t, e, secs))
                except Fail as ex:
                    failed.append((t, e, str(ex)))
                    note("FAILED: %s %s: %s" % (t, e, ex))
        for t, e, s in build_secs:
            note("build %s %s: %.0f s" % (t, e, s))
        if args.build_only:
            for (t, e), b in sorted(binaries.items()):
                print("%s %s: %s" % (t, e, os.path.relpath(b, ROOT)))
            return 1 if failed else 0
        seeds, dropped = {}, {}
        for t in args.targets:
            if (t, "libfuzzer") in binaries or (t, "cgofuzz") in binaries:
                b = binaries.get((t, "libfuzzer")) or binaries[(t, "cgofuzz")]
                seeds[t], dropped[t] = prune_seeds(args, magma, t, b)
    except Fail as ex:
        note("FAILED: %s" % ex)
        return 1

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    rundir = os.path.join(args.cache, "runs", stamp)
    os.makedirs(rundir)
    meta = dict(date=date, cap=args.cap, runs=args.runs, jobs=args.jobs,
                engine_ids={e: engine_digest(args, e) for e in engines},
                poll=args.poll, timeout=args.timeout,
                rss_limit_mb=args.rss_limit_mb,
                seed_timeout=args.seed_timeout, targets=args.targets,
                engines=engines, rundir=rundir, dropped=dropped,
                build_seconds=build_secs,
                bugs={t: magma_bugs(magma, t) for t in args.targets},
                failed_builds=failed)
    with open(os.path.join(rundir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    # Engines alternate run by run, so both see the same machine load.
    jobs = [(t, e, i) for i in range(args.runs) for t in args.targets
            for e in engines if (t, e) in binaries]
    note("%d campaigns of %d s, %d at a time: about %.0f min" % (
        len(jobs), args.cap, args.jobs,
        len(jobs) * args.cap / max(1, args.jobs) / 60))
    recs = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(campaign, args, t, e, binaries[(t, e)], seeds[t],
                          rundir, i) for t, e, i in jobs]
        for f in futs:
            recs.append(f.result())
    text, verdicts = report(args, recs, meta)
    if failed:
        text += "\nBuilds that failed: " + "; ".join(
            "%s %s: %s" % (t, e, s.splitlines()[0]) for t, e, s in failed) \
            + "\n"
    sys.stdout.write(text)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump(dict(meta=meta, campaigns=recs), f, indent=1)
    note("report: %s" % out)
    return 0 if all(v is not False for _, v in verdicts) and not failed \
        else 1


if __name__ == "__main__":
    sys.exit(main())

"""The layer check (tools/check_layers.py) holds on the real tree and its
objects, and fails, naming the violation, on planted ones: a lower layer
including a higher layer's header, a layer including another's private
*_internal.h, a lower layer's object calling a higher layer's function,
two files of a layer calling each other (through a third, too), a
Linux-only call outside the OS layer (csrc/base/os_linux.c), and a file
renamed into place or a temporary made outside the atomic writer
(csrc/base/file.c), a file or a global of a one-prefix layer named
otherwise, and the engine (coord) naming a feedback strategy.
"""
import os
import shutil
import subprocess
import sys

import pytest


def run_check(root, objects=None):
    cmd = [sys.executable, os.path.join(root, "tools", "check_layers.py"),
           "--root", root]
    if objects:
        cmd += ["--objects", objects]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def tree(source_dir, tmp_path):
    """A copy of the sources the check reads (csrc/, include/, tools/)."""
    for d in ("csrc", "include", "tools"):
        shutil.copytree(os.path.join(source_dir, d), tmp_path / d)
    return str(tmp_path)


def test_real_tree_and_objects(source_dir, build_dir):
    objects = os.path.join(build_dir, "layer_objects.txt")
    assert os.path.isfile(objects), "the build writes layer_objects.txt"
    r = run_check(source_dir, objects)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "respect csrc/layers.txt" in r.stdout


def plant(path, line):
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(line + "\n" + text)


def test_core_including_a_coordinator_header_fails(tree):
    plant(os.path.join(tree, "csrc", "core", "pcg.c"), '#include "coord.h"')
    r = run_check(tree)
    assert r.returncode == 1, r.stdout
    assert ('csrc/core/pcg.c:1: core includes "coord.h" of layer coord, '
            'which it may not use') in r.stdout


def test_private_header_of_another_layer_fails(tree):
    plant(os.path.join(tree, "csrc", "runtime", "dict.c"),
          '#include "codec_internal.h"')
    r = run_check(tree)
    assert r.returncode == 1, r.stdout
    assert 'runtime includes "codec_internal.h", private to layer core' \
        in r.stdout


@pytest.mark.parametrize("line,what", [
    ('static const char *p = "/proc/self/maps";', "/proc/"),
    ("#include <sys/prctl.h>", "<sys/prctl.h>"),
    ("int f(void) { return close_range(3, ~0U, 0); }", "close_range"),
])
def test_linux_call_outside_the_os_layer_fails(tree, line, what):
    """Each planted one-system interface is named with its file and line;
    the same words in a comment are not a use."""
    plant(os.path.join(tree, "csrc", "coord", "coord_fmt.c"),
          "/* /proc/self/exe, prctl, close_range */\n" + line)
    r = run_check(tree)
    assert r.returncode == 1, r.stdout
    assert ("csrc/coord/coord_fmt.c:2: %s is one operating system's" % what)\
        in r.stdout, r.stdout
    assert r.stdout.count("one operating system's") == 1, r.stdout


@pytest.mark.parametrize("path,line,what", [
    ("coord/coord_corpus.c", "int f(const char *a) { return rename(a, a); }",
     "rename("),
    ("lf/lf_corpus.c", "int f(char *t) { return mkstemp(t); }", "mkstemp("),
    ("base/dir.c", "int f(const char *a) { return renameat(0, a, 0, a); }",
     "renameat("),
])
def test_atomic_write_by_hand_fails(tree, path, line, what):
    """A rename or a mkstemp anywhere but csrc/base/file.c (base's other
    files included) is a file written by hand; named with its file and
    line, and the same words in a comment are not a use."""
    plant(os.path.join(tree, "csrc", path),
          "/* rename(tmp, path) after mkstemp(tmp) */\n" + line)
    r = run_check(tree)
    assert r.returncode == 1, r.stdout
    assert ("csrc/%s:2: %s writes a file by hand: use csrc/base/file.h"
            % (path, what)) in r.stdout, r.stdout
    assert r.stdout.count("by hand") == 1, r.stdout


def write_listing(tree, tmp_path, objs):
    """layer_objects.txt naming objs ({layer: [objects]}) and every other
    layer of the table with no objects, as the build lists them."""
    listing = tmp_path / "layer_objects.txt"
    table = os.path.join(str(tree), "csrc", "layers.txt")
    names = [l.split()[0] for l in open(table)
             if l.strip() and not l.startswith("#")]
    with open(listing, "w") as f:
        for layer in names:
            f.write("%s %s\n" % (layer, " ".join(objs.get(layer, []))))
    return str(listing)


def compile_c(tool, tmp_path, name, src):
    c = tmp_path / (name + ".c")
    c.write_text(src + "\n")
    o = tmp_path / (name + ".c.o")
    subprocess.run([tool("cc"), "-c", str(c), "-o", str(o)], check=True)
    return str(o)


def test_files_of_a_layer_calling_each_other_fail(tree, tool, tmp_path):
    """a -> b -> c -> a is one loop, named with its three files and the
    symbols of each edge; d, which only calls into it, is not in it."""
    objs = [compile_c(tool, tmp_path, n, src) for n, src in (
        ("core_a", "int cgofuzz_b(void);\n"
                   "int cgofuzz_a(void) { return cgofuzz_b(); }"),
        ("core_b", "int cgofuzz_c(void);\n"
                   "int cgofuzz_b(void) { return cgofuzz_c(); }"),
        ("core_c", "int cgofuzz_a(void);\n"
                   "int cgofuzz_c(void) { return cgofuzz_a() + 1; }"),
        ("core_d", "int cgofuzz_a(void);\n"
                   "int cgofuzz_d(void) { return cgofuzz_a(); }"))]
    r = run_check(tree, write_listing(tree, tmp_path, {"core": objs}))
    assert r.returncode == 1, r.stdout
    assert ("layer violation: core: core_a, core_b, core_c call each other "
            "in a loop (core_a uses cgofuzz_b of core_b; core_b uses "
            "cgofuzz_c of core_c; core_c uses cgofuzz_a of core_a)") \
        in r.stdout, r.stdout
    assert "core_d" not in r.stdout
    # Without the edge that closes it, the same files pass.
    objs[2] = compile_c(tool, tmp_path, "core_c",
                        "int cgofuzz_c(void) { return 1; }")
    r = run_check(tree, write_listing(tree, tmp_path, {"core": objs}))
    assert r.returncode == 0, r.stdout


def test_runtime_calling_the_coordinator_fails(tree, tool, tmp_path):
    """Siblings may not call each other: runtime and coord both sit on core."""
    cc = tool("cc")
    objs = {}
    for layer, src in (("coord", "int cgofuzz_coord_thing(void) { return 1; }"),
                       ("runtime", "int cgofuzz_coord_thing(void);\n"
                                   "int cgofuzz_rt(void) { return cgofuzz_coord_thing(); }")):
        c = tmp_path / (layer + ".c")
        c.write_text(src + "\n")
        o = tmp_path / (layer + ".o")
        subprocess.run([cc, "-c", str(c), "-o", str(o)], check=True)
        objs[layer] = str(o)
    listing = tmp_path / "layer_objects.txt"
    with open(listing, "w") as f:
        # Every layer of the table (csrc/layers.txt), as the build lists them.
        table = os.path.join(str(tree), "csrc", "layers.txt")
        names = [l.split()[0] for l in open(table)
                 if l.strip() and not l.startswith("#")]
        for layer in names:
            f.write("%s %s\n" % (layer, objs.get(layer, "")))
    r = run_check(tree, str(listing))
    assert r.returncode == 1, r.stdout
    assert ("runtime calls cgofuzz_coord_thing, defined in layer coord, "
            "which it may not use") in r.stdout


def test_file_without_its_layers_prefix_fails(tree):
    """A file of a layer with one module prefix (csrc/feedback: fb_) named
    otherwise is named, with the prefix it should have."""
    with open(os.path.join(tree, "csrc", "feedback", "dict.c"), "w") as f:
        f.write("int cgofuzz_fb_x(void) { return 0; }\n")
    r = run_check(tree)
    assert r.returncode == 1, r.stdout
    assert ("csrc/feedback/dict.c: a file of layer feedback is named fb_*"
            in r.stdout), r.stdout


def test_engine_naming_a_strategy_fails(tree, tool, tmp_path):
    """The engine (coord) includes no header of feedback and calls none of
    its functions: the strategies sit above it and are registered by its
    callers."""
    plant(os.path.join(tree, "csrc", "coord", "coord_loop.c"),
          '#include "fb.h"')
    objs = {"coord": [compile_c(tool, tmp_path, "coord_x",
                                "void *cgofuzz_fb_new(void);\n"
                                "void *cgofuzz_coord_x(void) "
                                "{ return cgofuzz_fb_new(); }")],
            "feedback": [compile_c(tool, tmp_path, "fb_x",
                                   "void *cgofuzz_fb_new(void) "
                                   "{ return 0; }")]}
    r = run_check(tree, write_listing(tree, tmp_path, objs))
    assert r.returncode == 1, r.stdout
    assert ('coord includes "fb.h" of layer feedback, which it may not use'
            in r.stdout), r.stdout
    assert ("coord calls cgofuzz_fb_new, defined in layer feedback, which "
            "it may not use") in r.stdout, r.stdout


def test_symbol_without_its_layers_prefix_fails(tree, tool, tmp_path):
    """A global the Go-binary layer defines is named cgofuzz_gobin_*."""
    objs = {"gobin": [compile_c(tool, tmp_path, "gobin_obj",
                                "int cgofuzz_obj_open(void) { return 0; }")]}
    r = run_check(tree, write_listing(tree, tmp_path, objs))
    assert r.returncode == 1, r.stdout
    assert ("gobin defines cgofuzz_obj_open in gobin_obj.c.o: layer gobin's "
            "names start with cgofuzz_gobin_") in r.stdout, r.stdout


def test_two_layers_sharing_a_name_word_fail(tree, tool, tmp_path):
    """One meaning per name: the runtime's worker server is cgofuzz_worker_*
    and the coordinator's end of the same pipe cgofuzz_coord_worker_*; a
    second layer defining a cgofuzz_worker_* name is named with both."""
    objs = {"runtime": [compile_c(tool, tmp_path, "worker",
                                  "int cgofuzz_worker_recv(void) "
                                  "{ return 0; }")],
            "coord": [compile_c(tool, tmp_path, "coord_worker",
                                "int cgofuzz_coord_worker_recv(void) "
                                "{ return 0; }")]}
    r = run_check(tree, write_listing(tree, tmp_path, objs))
    assert r.returncode == 0, r.stdout
    objs["core"] = [compile_c(tool, tmp_path, "shm",
                              "int cgofuzz_worker_ctl(void) { return 0; }")]
    r = run_check(tree, write_listing(tree, tmp_path, objs))
    assert r.returncode == 1, r.stdout
    assert ("the name word 'worker' is defined by layers core, runtime: "
            "cgofuzz_worker_ctl in core; cgofuzz_worker_recv in runtime"
            in r.stdout), r.stdout
    # The coordinator's end named as the runtime's is both a shared word and
    # a name outside coord's prefix.
    objs = {"runtime": objs["runtime"],
            "coord": [compile_c(tool, tmp_path, "coord_worker",
                                "int cgofuzz_worker_send(void) "
                                "{ return 0; }")]}
    r = run_check(tree, write_listing(tree, tmp_path, objs))
    assert r.returncode == 1, r.stdout
    assert "the name word 'worker' is defined by layers coord, runtime" \
        in r.stdout, r.stdout
    assert ("coord defines cgofuzz_worker_send in coord_worker.c.o: layer "
            "coord's names start with cgofuzz_coord_") in r.stdout, r.stdout

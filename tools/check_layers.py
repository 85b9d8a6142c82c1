#!/usr/bin/env python3
"""check_layers.py: proves that cgofuzz's C layers respect csrc/layers.txt.

usage: check_layers.py [--root DIR] [--objects FILE]

The table names each layer (a folder of csrc/) and the layers it may use.
Two checks, each naming every violation it finds:

  includes  every #include "..." of every .c and .h file of a layer must
            resolve to a header of that layer or of a layer it may use; a
            header named *_internal.h is private to its own layer.
            include/cgofuzz/ holds the users' API; PUBLIC_HEADERS says which
            layer each of its headers belongs to.
  symbols   (with --objects, the build's layer_objects.txt: "LAYER OBJ...")
            every symbol a layer's objects use and some layer defines must
            be defined by that layer or by a layer it may use (`nm`).
  loops     (with --objects) within a layer, no files that call each other
            in a loop: the graph "an object uses a symbol another object of
            the layer defines" has no cycle, each cycle named with the
            symbols of its edges. A loop between two files means neither is
            one concern: the shared part belongs in a file both call.
  os        calls and paths that exist on one operating system only
            (/proc, prctl, close_range, on_exit, memfd, <linux/...>;
            Darwin's _NSGetExecutablePath, proc_pidinfo, <mach-o/...>)
            appear only in the OS layer's files, csrc/base/os_linux.c and
            csrc/base/os_darwin.c (comments aside): issue 25.
  prefixes  the files of a layer with one module prefix (FILE_PREFIXES:
            coord_, gobin_, fb_, lf_) are named by it, and (with --objects)
            the global symbols the gobin, feedback, coord, lf and cli layers
            define carry theirs (SYMBOL_PREFIXES: cgofuzz_gobin_,
            cgofuzz_fb_, cgofuzz_coord_, cgofuzz_lf_, cli_), so a name says
            its layer (issue 37).
  words     (with --objects) one meaning per name: the word after cgofuzz_
            of every global symbol (its module: worker, cov, coord, ...) is
            defined in one layer only, so the two ends of a protocol never
            share a name; libFuzzer's and the sanitizers' hooks aside.
  files     no file is renamed into place and no temporary file made by
            name (rename, renameat, mkstemp) but in csrc/base/file.c, the
            one atomic writer (issue 37), and os_darwin.c's unlinked
            anonymous file (comments aside).

Exit status 0 when all hold, 1 on a violation, 2 on a usage error.
"""
import argparse
import functools
import os
import re
import subprocess
import sys

# The headers of include/cgofuzz/ (what users include) and their layers.
PUBLIC_HEADERS = {"cgofuzz/value.h": "core", "cgofuzz/target.h": "runtime"}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_table(path):
    """{layer: set of layers it may use, itself included}, in table order."""
    table = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            layer, deps = words[0], words[1:]
            for d in deps:
                if d not in table:
                    sys.exit("%s:%d: %s uses %s, which is not a layer above "
                             "this line" % (path, n, layer, d))
            table[layer] = set(deps) | {layer}
    return table


def header_layer(root, table, including, name):
    """The layer of the header `name` included from file `including`, and
    its path; (None, None) when it is not one of cgofuzz's headers."""
    here = os.path.join(os.path.dirname(including), name)
    if os.path.isfile(here):
        return os.path.basename(os.path.dirname(here)), here
    if name in PUBLIC_HEADERS:
        return PUBLIC_HEADERS[name], os.path.join(root, "include", name)
    for layer in table:
        p = os.path.join(root, "csrc", layer, name)
        if os.path.isfile(p):
            return layer, p
    return None, None


def check_includes(root, table):
    errors = []
    files = []
    for layer in table:
        d = os.path.join(root, "csrc", layer)
        if not os.path.isdir(d):
            errors.append("csrc/%s: the layer's folder is missing" % layer)
            continue
        files += [(layer, os.path.join(d, f)) for f in sorted(os.listdir(d))
                  if f.endswith((".c", ".h"))]
    for name, layer in PUBLIC_HEADERS.items():
        files.append((layer, os.path.join(root, "include", name)))
    for layer, path in files:
        with open(path, errors="replace") as f:
            text = f.read()
        for m in INCLUDE_RE.finditer(text):
            name = m.group(1)
            hl, hpath = header_layer(root, table, path, name)
            line = text.count("\n", 0, m.start()) + 1
            where = "%s:%d" % (os.path.relpath(path, root), line)
            if hl is None:
                errors.append('%s: #include "%s" is no header of cgofuzz'
                              % (where, name))
            elif hl not in table[layer]:
                errors.append('%s: %s includes "%s" of layer %s, which it '
                              'may not use' % (where, layer, name, hl))
            elif hl != layer and name.endswith("_internal.h"):
                errors.append('%s: %s includes "%s", private to layer %s'
                              % (where, layer, name, hl))
    return errors, len(files)


# One operating system's interfaces, outside comments.
OS_ONLY_RE = re.compile(
    r"/proc/|\bprctl\b|\bclose_range\b|\bon_exit\s*\(|\bmemfd_create\b|"
    r"PR_SET_PDEATHSIG|<linux/|<sys/prctl\.h>|_NSGetExecutablePath|"
    r"\bproc_pidinfo\b|<mach-o/|<libproc\.h>|<mach/")
OS_FILES = ("csrc/base/os_linux.c", "csrc/base/os_darwin.c")
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def confined(root, table, pattern, allowed, why):
    """Every match of pattern in a layer's .c and .h files outside the
    files allowed (comments aside), each as a message ending in why."""
    errors = []
    for layer in table:
        d = os.path.join(root, "csrc", layer)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            rel = "csrc/%s/%s" % (layer, f)
            if not f.endswith((".c", ".h")) or rel in allowed:
                continue
            with open(os.path.join(d, f), errors="replace") as fh:
                text = fh.read()
            # Comments blanked, newlines kept, so line numbers hold.
            code = COMMENT_RE.sub(
                lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
            for m in pattern.finditer(code):
                line = code.count("\n", 0, m.start()) + 1
                errors.append("%s:%d: %s %s" % (rel, line, m.group(0), why))
    return errors


def check_os(root, table):
    return confined(root, table, OS_ONLY_RE, OS_FILES,
                    "is one operating system's: it belongs in the OS layer "
                    "(csrc/base/os.h)")


# Renaming into place and temporaries by name: the atomic writer's tools.
FILE_ONLY_RE = re.compile(r"\b(?:rename|renameat2?|mkstemps?)\s*\(")
FILE_FILES = ("csrc/base/file.c", "csrc/base/os_darwin.c")


def check_files(root, table):
    return confined(root, table, FILE_ONLY_RE, FILE_FILES,
                    "writes a file by hand: use csrc/base/file.h "
                    "(cgofuzz_file_write_atomic)")


# The layers whose files all carry one module prefix ("coord.h",
# "coord_loop.c"), and those whose global symbols do too.
FILE_PREFIXES = {"gobin": "gobin", "coord": "coord", "feedback": "fb",
                 "lf": "lf"}
SYMBOL_PREFIXES = {"gobin": "cgofuzz_gobin_", "feedback": "cgofuzz_fb_",
                   "coord": "cgofuzz_coord_", "lf": "cgofuzz_lf_",
                   "cli": "cli_"}
# Symbols a layer defines outside its prefix: the program's entry point.
PREFIX_EXEMPT = {"main"}

# The symbols whose names a protocol or a compiler fixes (libFuzzer's and the
# sanitizers' hooks), exempt from the one-layer-per-word rule.
FOREIGN_RE = re.compile(r"^(__sanitizer_|__asan_|__lsan_|__ubsan_|"
                        r"LLVMFuzzer)")


def check_file_prefixes(root, table):
    errors = []
    for layer, prefix in sorted(FILE_PREFIXES.items()):
        d = os.path.join(root, "csrc", layer)
        if layer not in table or not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            stem = f.rsplit(".", 1)[0]
            if f.endswith((".c", ".h")) and stem != prefix and \
                    not stem.startswith(prefix + "_"):
                errors.append("csrc/%s/%s: a file of layer %s is named "
                              "%s_*" % (layer, f, layer, prefix))
    return errors


def check_symbol_prefixes(objects_file):
    errors = []
    with open(objects_file) as f:
        listing = [line.split() for line in f if line.strip()]
    for words in listing:
        layer, objs = words[0], words[1:]
        prefix = SYMBOL_PREFIXES.get(layer)
        if not prefix or not objs:
            continue
        for obj, (defined, _) in sorted(nm_objects(tuple(objs)).items()):
            for sym in sorted(defined):
                if not sym.startswith(prefix) and sym not in PREFIX_EXEMPT:
                    errors.append("%s defines %s in %s: layer %s's names "
                                  "start with %s" % (layer, sym,
                                                     os.path.basename(obj),
                                                     layer, prefix))
    return errors


def name_word(sym):
    """The module word of a global name: "worker" of cgofuzz_worker_recv and
    of cgofuzz_worker, "coord" of cgofuzz_coord_sched_pick, "cli" of
    cli_cmd_fuzz; None for names a protocol fixes."""
    if FOREIGN_RE.match(sym) or sym in PREFIX_EXEMPT:
        return None
    rest = sym[len("cgofuzz_"):] if sym.startswith("cgofuzz_") else sym
    return rest.split("_", 1)[0] or rest


def check_name_words(objects_file):
    """One meaning per name: the word after cgofuzz_ (the module a name
    belongs to) is defined by one layer only, so the runtime's end of a
    protocol and the coordinator's never share a name (cgofuzz_worker_* is
    the worker server in the target, cgofuzz_coord_worker_* its other end)."""
    with open(objects_file) as f:
        listing = [line.split() for line in f if line.strip()]
    users = {}
    for words in listing:
        layer, objs = words[0], words[1:]
        if not objs:
            continue
        for obj, (defined, _) in sorted(nm_objects(tuple(objs)).items()):
            for sym in defined:
                w = name_word(sym)
                if w is not None:
                    users.setdefault(w, {}).setdefault(layer, []).append(sym)
    errors = []
    for w, by_layer in sorted(users.items()):
        if len(by_layer) > 1:
            errors.append("the name word %r is defined by layers %s: %s" % (
                w, ", ".join(sorted(by_layer)),
                "; ".join("%s in %s" % (sorted(v)[0], k)
                          for k, v in sorted(by_layer.items()))))
    return errors


@functools.lru_cache(maxsize=None)
def nm_objects(objects):
    """{object: (defined, undefined)} global symbol sets of the object files
    (a tuple), from one `nm -g -A`; the layer check and the loop check of a
    layer ask for the same objects, and nm runs once."""
    missing = [o for o in objects if not os.path.isfile(o)]
    if missing:
        sys.exit("check_layers: %s not built (build first)" % missing[0])
    r = subprocess.run(["nm", "-g", "-A"] + list(objects),
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("check_layers: nm failed: %s" % r.stderr.strip())
    out = {o: (set(), set()) for o in objects}
    for line in r.stdout.splitlines():
        obj, _, rest = line.partition(":")
        parts = rest.split()
        if obj not in out:
            continue
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            out[obj][1].add(parts[1])
        elif len(parts) == 3:
            out[obj][0].add(parts[2])
    return out


def nm(objects):
    """(defined, undefined) global symbol sets of the object files."""
    defined, undefined = set(), set()
    for d, u in nm_objects(tuple(objects)).values():
        defined |= d
        undefined |= u
    return defined, undefined


def file_loops(layer, objects):
    """The cycles among one layer's objects, each as a message naming its
    files and the symbols each uses of the next (Tarjan's strongly
    connected components over the use graph)."""
    syms = nm_objects(tuple(objects))
    name = {o: re.sub(r"\.(c|cc)\.o$|\.o$", "", os.path.basename(o))
            for o in objects}
    owner = {}
    for o, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, o)
    uses = {o: {} for o in objects}  # o -> {other: [symbols]}
    for o, (defined, undefined) in syms.items():
        for s in sorted(undefined - defined):
            t = owner.get(s)
            if t is not None and t != o:
                uses[o].setdefault(t, []).append(s)
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):  # recursion depth is at most the layer's object count
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(uses[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp, key=lambda x: name[x]))

    for v in sorted(objects):
        if v not in index:
            visit(v)
    errors = []
    for comp in comps:
        members = set(comp)
        edges = ["%s uses %s of %s" % (name[a], ", ".join(uses[a][b][:4]) +
                                       (" ..." if len(uses[a][b]) > 4 else ""),
                                       name[b])
                 for a in comp for b in sorted(uses[a], key=lambda x: name[x])
                 if b in members]
        errors.append("%s: %s call each other in a loop (%s)" % (
            layer, ", ".join(name[o] for o in comp), "; ".join(edges)))
    return errors


def check_loops(objects_file):
    errors = []
    with open(objects_file) as f:
        for line in f:
            words = line.split()
            if len(words) > 2:
                errors += file_loops(words[0], words[1:])
    return errors


def check_symbols(table, objects_file):
    layers = {}
    with open(objects_file) as f:
        for line in f:
            words = line.split()
            if words:
                layers[words[0]] = words[1:]
    errors = []
    if set(layers) != set(table):
        errors.append("%s lists layers %s, the table %s" % (
            objects_file, sorted(layers), sorted(table)))
        return errors, 0
    syms = {layer: nm(objs) for layer, objs in layers.items() if objs}
    owner = {}
    for layer, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, layer)
    count = 0
    for layer, (defined, undefined) in syms.items():
        for s in sorted(undefined - defined):
            o = owner.get(s)
            if o is None:
                continue  # libc, the sanitizers, the user's target
            count += 1
            if o not in table[layer]:
                errors.append("%s calls %s, defined in layer %s, which it "
                              "may not use" % (layer, s, o))
    return errors, count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the repository (default: ..)")
    ap.add_argument("--objects", help="the build's layer_objects.txt")
    a = ap.parse_args()
    table = read_table(os.path.join(a.root, "csrc", "layers.txt"))
    errors, nfiles = check_includes(a.root, table)
    errors += check_os(a.root, table)
    errors += check_files(a.root, table)
    errors += check_file_prefixes(a.root, table)
    summary = ("%d layers, includes of %d files, OS calls only in %s, "
               "renames and temporaries only in %s, file prefixes of %s"
               % (len(table), nfiles, " and ".join(OS_FILES),
                  " and ".join(FILE_FILES), ", ".join(sorted(FILE_PREFIXES))))
    if a.objects:
        e, nsyms = check_symbols(table, a.objects)
        errors += e
        if not e:
            errors += check_loops(a.objects)
        errors += check_symbol_prefixes(a.objects)
        errors += check_name_words(a.objects)
        summary += (", %d cross-object symbol uses, call loops between a "
                    "layer's files, symbol prefixes of %s, one layer per "
                    "name word" % (nsyms, ", ".join(sorted(SYMBOL_PREFIXES))))
    for e in errors:
        print("layer violation: " + e)
    if errors:
        print("FAIL: %d layer violation(s) (%s)" % (len(errors), summary))
        return 1
    print("ok: %s respect csrc/layers.txt" % summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())

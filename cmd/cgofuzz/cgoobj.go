package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cgofuzz/cgofuzz"
)

// The objects `cgofuzz cgo-cc` links into every cgo test binary it builds
// (csrc/cli/cmd_cgocc.c): the counters' init callback and the comparison
// hooks (csrc/runtime/cgo/cgo_hooks.c), the C frames of a crash report
// (csrc/runtime/cgo/cgo_stack.c), the cgo loop and its mutations
// (csrc/runtime/cgo/cgo_loop.c, cgo_mutate.c), and the libc interceptors
// (csrc/runtime/intercept/interceptors.c). A CMake install ships them as
// archives; this program compiles them from its embedded sources, once, into
// <user cache>/cgofuzz/cgo-<hash of the sources>/, and names that directory
// in $CGOFUZZ_CGO_OBJDIR for the C side. The flags are CMakeLists.txt's for
// the two archives: never instrumented or sanitized, position-independent.
const objDirEnv = "CGOFUZZ_CGO_OBJDIR"

var cgoObjects = []struct {
	src, obj string
	flags    []string
}{
	{"csrc/runtime/cgo/cgo_hooks.c", "cgofuzz_cgo.o",
		[]string{"-fno-builtin", "-fno-sanitize=all", "-fno-stack-protector"}},
	{"csrc/runtime/cgo/cgo_stack.c", "cgofuzz_cgo_stack.o",
		[]string{"-fno-builtin", "-fno-sanitize=all", "-fno-stack-protector"}},
	{"csrc/runtime/cgo/cgo_loop.c", "cgofuzz_cgo_loop.o",
		[]string{"-fno-builtin", "-fno-sanitize=all", "-fno-stack-protector",
			"-fno-omit-frame-pointer"}},
	{"csrc/runtime/cgo/cgo_mutate.c", "cgofuzz_cgo_mutate.o",
		[]string{"-fno-builtin", "-fno-sanitize=all", "-fno-stack-protector",
			"-fno-omit-frame-pointer"}},
	{"csrc/runtime/intercept/interceptors.c", "cgofuzz_interceptors.o",
		[]string{"-D_GNU_SOURCE", "-fno-builtin", "-fno-sanitize=all"}},
}

// cgoCompiler tells whether args run this program as a cgo compiler: by
// name (cgofuzz-cgo-cc, cgofuzz-cgo-c++) or by command (cgo-cc, cgo-c++).
func cgoCompiler(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch filepath.Base(args[0]) {
	case "cgofuzz-cgo-cc", "cgofuzz-cgo-c++":
		return true
	}
	return len(args) > 1 && (args[1] == "cgo-cc" || args[1] == "cgo-c++")
}

// prepareCgoObjects makes sure the objects exist when this program runs as
// a cgo compiler, and sets $CGOFUZZ_CGO_OBJDIR. A failure is said in one
// line on stderr; the C side then says what the link misses.
func prepareCgoObjects(args []string, stderr io.Writer) {
	if !cgoCompiler(args) || os.Getenv(objDirEnv) != "" {
		return
	}
	dir, err := cgoObjectDir()
	if err == nil {
		err = os.Setenv(objDirEnv, dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cgofuzz cgo-cc: cannot compile the runtime objects it links: %v\n", err)
	}
}

// cgoObjectDir returns the directory holding the objects, compiling them
// first when it does not exist yet. Concurrent compilers (go build runs
// several) each build in a directory of their own and rename it into
// place; the first rename wins.
func cgoObjectDir() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(cgofuzz.CgoRuntime, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := cgofuzz.CgoRuntime.ReadFile(p)
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	for _, o := range cgoObjects {
		fmt.Fprintf(h, "%s %s\n", o.obj, strings.Join(o.flags, " "))
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	root := filepath.Join(cache, "cgofuzz")
	dir := filepath.Join(root, "cgo-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, cgoObjects[len(cgoObjects)-1].obj)); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := compileCgoObjects(tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			return "", err
		}
	}
	return dir, nil
}

// compileCgoObjects writes the embedded sources into dir and compiles them
// there with $CGOFUZZ_CLANG (else clang), the compiler cgo-cc runs.
func compileCgoObjects(dir string) error {
	err := fs.WalkDir(cgofuzz.CgoRuntime, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := cgofuzz.CgoRuntime.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, "src", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return err
	}
	cc := os.Getenv("CGOFUZZ_CLANG")
	if cc == "" {
		cc = "clang"
	}
	for _, o := range cgoObjects {
		args := append([]string{"-c", "-O2", "-fPIC",
			"-I" + filepath.Join(dir, "src", "csrc", "core"),
			"-I" + filepath.Join(dir, "src", "csrc", "base")}, o.flags...)
		args = append(args, filepath.Join(dir, "src", filepath.FromSlash(o.src)),
			"-o", filepath.Join(dir, o.obj))
		cmd := exec.Command(cc, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, out)
		}
	}
	return os.RemoveAll(filepath.Join(dir, "src"))
}

// test_dedup.cc: cgofuzz_coord_fail_site, the key by which -fuzzcontinue tells
// failures apart. The messages are what go1.26.8 workers put in a fuzz
// reply's Err (captured from `go test -fuzz` runs of a small package:
// the "--- FAIL" block Go prints, without the coordinator's indentation),
// plus the messages of a dead worker and of cgofuzz's C targets.
#include <gtest/gtest.h>

#include <string>

extern "C" {
#include "coord_internal.h"
}

namespace {

std::string Site(const std::string &msg) {
  cgofuzz_buf key{};
  EXPECT_EQ(cgofuzz_coord_fail_site(msg.data(), msg.size(), &key), 0);
  std::string s(reinterpret_cast<const char *>(key.data), key.len);
  cgofuzz_buf_free(&key);
  return s;
}

// A panic recovered by testing.tRunner: the stack comes from
// runtime/debug.Stack, indented by the test log. Field was inlined, so its
// file line has no "+0x" offset. goroutine and addresses vary per run.
std::string IndexPanic(const std::string &input_len, const std::string &gid) {
  return "--- FAIL: FuzzIndex (0.00s)\n"
         "    testing.go:1927: panic: runtime error: index out of range [2] "
         "with length " +
         input_len +
         "\n"
         "        goroutine " +
         gid +
         " [running]:\n"
         "        runtime/debug.Stack()\n"
         "        \t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n"
         "        testing.tRunner.func1()\n"
         "        \t/usr/local/go/src/testing/testing.go:1927 +0x1d0\n"
         "        panic({0x5fc4a0?, 0x1bd86528e330?})\n"
         "        \t/usr/local/go/src/runtime/panic.go:860 +0x13a\n"
         "        example.com/gofail.Field(...)\n"
         "        \t/home/dev/gofail/parse.go:7\n"
         "        example.com/gofail.FuzzIndex.func1(0x0?, {0x1bd8653042be?, "
         "0x0?})\n"
         "        \t/home/dev/gofail/parse_test.go:12 +0x51\n"
         "        reflect.Value.call({0x5d06e0?, 0x622188?, 0x13?}, "
         "{0x61080b, 0x4}, {0x1bd865315380, 0x2, 0x2?})\n"
         "        \t/usr/local/go/src/reflect/value.go:586 +0xf0c\n"
         "        reflect.Value.Call({0x5d06e0?, 0x622188?, 0x50a2c0?}, "
         "{0x1bd865315380?, 0x60f620?, 0x1bd86539d860?})\n"
         "        \t/usr/local/go/src/reflect/value.go:369 +0xb9\n"
         "        testing.(*F).Fuzz.func1.1(0x1bd86528c248?)\n"
         "        \t/usr/local/go/src/testing/fuzz.go:341 +0x365\n"
         "        testing.tRunner(0x1bd86528c248, 0x1bd86536a7e0)\n"
         "        \t/usr/local/go/src/testing/testing.go:2036 +0xea\n"
         "        created by testing.(*F).Fuzz.func1 in goroutine 18\n"
         "        \t/usr/local/go/src/testing/fuzz.go:328 +0x668\n"
         "        \n";
}

TEST(FailSite, GoPanicIsTheFirstUserFrame) {
  // runtime/debug, testing and panic frames are skipped; the inlined
  // frame of the user's package is the site.
  EXPECT_EQ(Site(IndexPanic("1", "49")), "/home/dev/gofail/parse.go:7");
  // Another input hitting the same line (other length in the message,
  // other goroutine) is the same failure.
  EXPECT_EQ(Site(IndexPanic("2", "7")), Site(IndexPanic("1", "49")));
}

TEST(FailSite, NilMapPanicInAHelper) {
  // A panic raised by the runtime itself (mapassign is not even in the
  // stack: the panic frame comes first) lands on the user's helper.
  const std::string msg =
      "--- FAIL: FuzzNilMap (0.00s)\n"
      "    testing.go:1927: panic: assignment to entry in nil map\n"
      "        goroutine 16 [running]:\n"
      "        runtime/debug.Stack()\n"
      "        \t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n"
      "        testing.tRunner.func1()\n"
      "        \t/usr/local/go/src/testing/testing.go:1927 +0x1d0\n"
      "        panic({0x5d8480?, 0x7b0380?})\n"
      "        \t/usr/local/go/src/runtime/panic.go:860 +0x13a\n"
      "        example.com/gofail.Store(...)\n"
      "        \t/home/dev/gofail/parse.go:10\n"
      "        example.com/gofail.FuzzNilMap.func1(0x0?, {0x2023a81fc2ce?, "
      "0x0?})\n"
      "        \t/home/dev/gofail/parse_test.go:43 +0x2e\n"
      "        testing.tRunner(0x2023a8201688, 0x2023a82a0510)\n"
      "        \t/usr/local/go/src/testing/testing.go:2036 +0xea\n";
  EXPECT_EQ(Site(msg), "/home/dev/gofail/parse.go:10");
  // Distinct from the index panic in the same file.
  EXPECT_NE(Site(msg), Site(IndexPanic("1", "49")));
}

TEST(FailSite, UnrecoveredPanicAndMethodFrames) {
  // The layout of a panic that reached the top of a goroutine (not
  // indented by the test log), through runtime.gopanic frames, a method
  // with a pointer receiver and internal/ packages.
  const std::string msg =
      "panic: runtime error: invalid memory address or nil pointer "
      "dereference [recovered]\n"
      "\tpanic: runtime error: invalid memory address or nil pointer "
      "dereference\n"
      "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4f1a2b]"
      "\n\n"
      "goroutine 7 [running]:\n"
      "testing.tRunner.func1.2({0x5a1b60, 0xc0000b8030})\n"
      "\t/usr/local/go/src/testing/testing.go:1872 +0x237\n"
      "panic({0x5a1b60?, 0xc0000b8030?})\n"
      "\t/usr/local/go/src/runtime/panic.go:860 +0x13a\n"
      "internal/fuzz.(*worker).coordinate(...)\n"
      "\t/usr/local/go/src/internal/fuzz/worker.go:101\n"
      "example.com/app/codec.(*Decoder).next(0x0, 0x3)\n"
      "\t/src/app/codec/decode.go:88 +0x1b\n"
      "example.com/app/codec.FuzzDecode.func1(0xc0000a2000?, {0xc0, 0x3, "
      "0x3})\n"
      "\t/src/app/codec/decode_test.go:20 +0x45\n";
  EXPECT_EQ(Site(msg), "/src/app/codec/decode.go:88");
}

TEST(FailSite, TErrorLineIsTheSite) {
  // t.Errorf: the message quotes the input, the "file.go:N" prefix does
  // not.
  auto msg = [](const std::string &input) {
    return "--- FAIL: FuzzError (0.00s)\n"
           "    parse_test.go:21: bad input \"" +
           input + "\": too long\n";
  };
  EXPECT_EQ(Site(msg("00")), "parse_test.go:21");
  EXPECT_EQ(Site(msg("zzzz")), Site(msg("00")));
  // t.Fatalf through a t.Helper reports the caller's line.
  EXPECT_EQ(Site("--- FAIL: FuzzHelper (0.00s)\n"
                 "    parse_test.go:35: check failed for \"00\"\n"),
            "parse_test.go:35");
  // Several t.Error lines: the first one is the site.
  EXPECT_EQ(Site("--- FAIL: FuzzMany (0.00s)\n"
                 "    a_test.go:5: first\n"
                 "    a_test.go:9: second\n"),
            "a_test.go:5");
  // A tab inside a message does not make the line a stack frame.
  EXPECT_EQ(Site("--- FAIL: FuzzTab (0.00s)\n"
                 "    a_test.go:5: got\t1\n"
                 "    b_test.go:9: want\t2\n"),
            "a_test.go:5");
  // CRLF line ends (a worker on a pipe that translates them).
  EXPECT_EQ(Site("--- FAIL: FuzzError (0.00s)\r\n"
                 "    parse_test.go:21: bad\r\n"),
            "parse_test.go:21");
}

TEST(FailSite, TestingLinesAreNotSites) {
  // "testing.go:1927: panic: ..." is where testing reports every panic;
  // with no user frame left, the key falls back to the first line, the
  // panic message (better than merging every panic into one).
  const std::string msg =
      "--- FAIL: FuzzX (0.00s)\n"
      "    testing.go:1927: panic: boom\n"
      "        goroutine 5 [running]:\n"
      "        runtime/debug.Stack()\n"
      "        \t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\n"
      "        testing.tRunner.func1()\n"
      "        \t/usr/local/go/src/testing/testing.go:1927 +0x1d0\n";
  EXPECT_EQ(Site(msg), "testing.go:1927: panic: boom");
}

TEST(FailSite, DeadWorkerIsItsFirstLine) {
  // A worker that died: Go's coordinator message, one per exit status or
  // signal.
  EXPECT_EQ(
      Site("fuzzing process hung or terminated unexpectedly: exit status 3"),
      "fuzzing process hung or terminated unexpectedly: exit status 3");
  EXPECT_NE(
      Site("fuzzing process hung or terminated unexpectedly: exit status 2"),
      Site("fuzzing process hung or terminated unexpectedly: exit status 3"));
  EXPECT_EQ(Site("fuzzing process hung or terminated unexpectedly: signal: "
                 "segmentation fault\nmore text\n"),
            "fuzzing process hung or terminated unexpectedly: signal: "
            "segmentation fault");
  // Leading blank lines and trailing spaces are not part of the key.
  EXPECT_EQ(Site("\n\n  exit status 3  \n"), "exit status 3");
}

TEST(FailSite, CTargetErrorLines) {
  // A C target's worker (registry.c) formats cgofuzz_errorf/fatalf as
  // "file.c:N: message" under Go's "--- FAIL" line.
  auto msg = [](const std::string &n) {
    return "--- FAIL: FuzzPlanted (0.00s)\n"
           "    planted.c:31: found bug with n=" +
           n + "\n";
  };
  EXPECT_EQ(Site(msg("5")), "planted.c:31");
  EXPECT_EQ(Site(msg("77")), Site(msg("5")));
  EXPECT_EQ(Site("--- FAIL: FuzzX (0.01s)\n    codec.cc:7: x\n"), "codec.cc:7");
}

TEST(FailSite, DegenerateMessages) {
  EXPECT_EQ(Site(""), "");
  // Only the FAIL line: the whole message.
  EXPECT_EQ(Site("--- FAIL: FuzzX (0.00s)\n"), "--- FAIL: FuzzX (0.00s)\n");
  // Not a location: no line number, or not a source file.
  EXPECT_EQ(Site("--- FAIL: F (0.00s)\n    parse.go: oops\n"),
            "parse.go: oops");
  EXPECT_EQ(Site("--- FAIL: F (0.00s)\n    http://host:80/x failed\n"),
            "http://host:80/x failed");
  // No NUL needed: only len bytes are read.
  std::string big = "parse_test.go:21: x";
  EXPECT_EQ(Site(big.substr(0, 15)), "parse_test.go:2");
  // The key buffer is reset, not appended to.
  cgofuzz_buf key{};
  std::string a = "a_test.go:1: x", b = "b_test.go:2: y";
  ASSERT_EQ(cgofuzz_coord_fail_site(a.data(), a.size(), &key), 0);
  ASSERT_EQ(cgofuzz_coord_fail_site(b.data(), b.size(), &key), 0);
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(key.data), key.len),
            "b_test.go:2");
  cgofuzz_buf_free(&key);
}

// A dead C worker's message quotes the sanitizer's report: the site is the
// first frame outside the sanitizer and the allocator, without the column;
// addresses and pids vary per run.
std::string AsanDeath(const std::string &pid, const std::string &addr,
                      const std::string &func, const std::string &line) {
  return "fuzzing process crashed: sanitizer report\n"
         "fuzzing process hung or terminated unexpectedly: exit status 1\n"
         "its stderr ended with this report:\n"
         "  ==" +
         pid +
         "==ERROR: AddressSanitizer: heap-buffer-overflow on "
         "address " +
         addr +
         "\n"
         "  READ of size 1 at " +
         addr +
         " thread T0\n"
         "      #0 " +
         addr + " in " + func + " /src/harness.c:" + line +
         ":10\n"
         "      #1 0x55aa in LLVMFuzzerTestOneInput /src/harness.c:95:5\n"
         "  allocated by thread T0 here:\n"
         "      #0 0x55bb in __interceptor_malloc (/out/h+0xa64de)\n"
         "      #1 0x55cc in " +
         func + " /src/harness.c:45:13\n";
}

TEST(FailSite, SanitizerReportIsTheFirstUserFrames) {
  // Up to three frames of the first stack; the allocation's stack is not
  // the site.
  EXPECT_EQ(Site(AsanDeath("12", "0x6020001", "second_bug", "47")),
            "second_bug /src/harness.c:47 < LLVMFuzzerTestOneInput "
            "/src/harness.c:95");
  EXPECT_EQ(Site(AsanDeath("12", "0x6020001", "second_bug", "47")),
            Site(AsanDeath("99", "0x6077777", "second_bug", "47")));
  EXPECT_NE(Site(AsanDeath("12", "0x6020001", "second_bug", "47")),
            Site(AsanDeath("12", "0x6020001", "LLVMFuzzerTestOneInput", "95")));
  // A leak: the allocator's frames are skipped.
  EXPECT_EQ(
      Site("fuzzing process found a memory leak\n"
           "  ==7==ERROR: LeakSanitizer: detected memory leaks\n"
           "  Direct leak of 32 byte(s) in 1 object(s) allocated "
           "from:\n"
           "      #0 0x5558 in __interceptor_malloc (/out/h+0xa64de)\n"
           "      #1 0x5559 in LLVMFuzzerTestOneInput /src/leak.c:7:12\n"),
      "LLVMFuzzerTestOneInput /src/leak.c:7");
  // A user function whose name starts like the allocator's is the site.
  EXPECT_EQ(Site("fuzzing process crashed: sanitizer report\n"
                 "      #0 0x5558 in __interceptor_free (/out/h+0x1)\n"
                 "      #1 0x5559 in freelist_pop /src/pool.c:31:3\n"),
            "freelist_pop /src/pool.c:31");
  // Two bugs behind one inlined helper (libwebp 1.0.0 under cgo: webp:386
  // reads a chunk header past the input through GetLE32, oss-fuzz:9100 the
  // VP8X canvas size through GetLE24): the same first frame, two sites.
  std::string h = "fuzzing process crashed: sanitizer report\n"
                  "  ==9==ERROR: AddressSanitizer: heap-buffer-overflow\n"
                  "      #0 0x99929e in GetLE16 /w/utils/utils.h:51:33\n";
  std::string tail = "      #3 0x86aeac in WebPMuxCreate /w/webp/mux.h:134:10\n"
                     "      #4 0x86aeac in webpSetEXIF /w/webp.c:331:17\n";
  std::string b386 =
      h + "      #1 0x99929e in GetLE32 /w/utils/utils.h:59:20\n" +
      "      #2 0x99929e in ChunkVerifyAndAssign /w/mux/muxread.c:61:16\n" +
      tail;
  std::string b9100 =
      h + "      #1 0x9992f0 in GetLE24 /w/utils/utils.h:55:20\n" +
      "      #2 0x9992f0 in WebPMuxCreateInternal /w/mux/muxread.c:256:34\n" +
      tail;
  EXPECT_EQ(Site(b386), "GetLE16 /w/utils/utils.h:51 < GetLE32 "
                        "/w/utils/utils.h:59 < ChunkVerifyAndAssign "
                        "/w/mux/muxread.c:61");
  EXPECT_NE(Site(b386), Site(b9100));
  // Not symbolized (symbolize=0): the module and offset.
  EXPECT_EQ(Site("fuzzing process crashed: sanitizer report\n"
                 "  ==7==ERROR: AddressSanitizer: SEGV on unknown address\n"
                 "      #0 0x5629ffaba607  (/out/h+0xe1437)\n"),
            "(/out/h+0xe1437)");
}

// A signal in a cgo package's C code, reported by Go with the C frames
// cgo-cc's runtime adds (go1.26.8, the coordinator's quoting indentation):
// libc's frames are skipped, the binary's first C function is the site,
// whatever the Go frames (the same for every C crash behind one Go call).
std::string CgoSignal(const std::string &sig, const std::string &cfunc,
                      const std::string &pc) {
  return "fuzzing process hung or terminated unexpectedly: exit status 2\n"
         "its stderr ended with this report (the goroutine running the fuzz "
         "function shown):\n"
         "  " +
         sig +
         "\n"
         "  goroutine 172 gp=0x2444decf01e0 m=3 mp=0x2444decaf008 "
         "[syscall]:\n"
         "  libc.so.6+0x16d868\n"
         "  \tpc=0x7f012aaab868\n"
         "  abort (libc.so.6)\n"
         "  \tpc=0x7f012aa0a4f2\n"
         "  " +
         cfunc +
         "\n"
         "  \tpc=" +
         pc +
         "\n"
         "  _cgo_def882c7990e_Cfunc_records\n"
         "  \tpc=0x5fe998\n"
         "  runtime.cgocall(0x5fe970, 0x2444decbd7a0)\n"
         "  \t/usr/local/go/src/runtime/cgocall.go:167 +0x4b "
         "fp=0x2444decbd778 sp=0x2444decbd740 pc=0x4866cb\n"
         "  example.com/cgopkg._Cfunc_records(0x2444dec83b18, 0x4)\n"
         "  \t_cgo_gotypes.go:54 +0x65 fp=0x2444decbd7a0 sp=0x2444decbd778 "
         "pc=0x5ecc25\n"
         "  example.com/cgopkg.Records({0x2444dec83b18, 0x4, 0x0?})\n"
         "  \t/tmp/cs/magic.go:132 +0xa5 fp=0x2444decbd7c8 "
         "sp=0x2444decbd7a0 pc=0x5edaa5\n";
}

TEST(FailSite, CgoSignalIsTheFirstCFunctionOfTheBinary) {
  EXPECT_EQ(Site(CgoSignal("SIGSEGV: segmentation violation", "copy_name",
                           "0x5fea3b")),
            "copy_name");
  EXPECT_EQ(Site(CgoSignal("SIGABRT: abort", "ChunkSetNth", "0x5fea3b")),
            Site(CgoSignal("SIGABRT: abort", "ChunkSetNth", "0x5fe000")));
  EXPECT_NE(Site(CgoSignal("SIGABRT: abort", "ChunkSetNth", "0x5fea3b")),
            Site(CgoSignal("SIGABRT: abort", "ChunkDiskSize", "0x5fea3b")));
  // Without C frames (a binary not linked by cgo-cc), the Go frames.
  EXPECT_EQ(Site("  SIGSEGV: segmentation violation\n"
                 "  goroutine 8 [syscall]:\n"
                 "  runtime.cgocall(0x5fe970, 0x2444decbd7a0)\n"
                 "  \t/usr/local/go/src/runtime/cgocall.go:167 +0x4b\n"
                 "  example.com/cgopkg._Cfunc_records(0x2444dec83b18, 0x4)\n"
                 "  \t_cgo_gotypes.go:54 +0x65\n"),
            "_cgo_gotypes.go:54");
}

} // namespace

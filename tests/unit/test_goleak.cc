// test_goleak.cc: reading Go's SIGQUIT goroutine dump (fb_goleak.c):
// goroutines counted by the function that created them, the runtime's own
// and the creatorless left out, in both forms of the "created by" line
// (with " in goroutine N" from Go 1.21), each creator's first stack kept
// without the crash dump's gp=/m= and fp=/sp=/pc= fields.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "fb.h"
}

namespace {

const cgofuzz_fb_goleak_gor *Find(const cgofuzz_fb_goleak_set &s,
                                  const char *creator) {
  for (size_t i = 0; i < s.n; i++)
    if (strcmp(s.g[i].creator, creator) == 0)
      return &s.g[i];
  return nullptr;
}

int Parse(const std::string &dump, cgofuzz_fb_goleak_set *s) {
  return cgofuzz_fb_goleak_parse(reinterpret_cast<const uint8_t *>(dump.data()),
                                 dump.size(), s);
}

const char kDump[] =
    "SIGQUIT: quit\n"
    "PC=0x40abee m=0 sigcode=0\n"
    "\n"
    "goroutine 0 gp=0x802fa0 m=0 mp=0x803fa0 [idle]:\n"
    "runtime.mcall()\n"
    "\t/go/src/runtime/asm_amd64.s:496 +0x55 fp=0x7ff sp=0x7fe pc=0x48c075\n"
    "\n"
    "goroutine 1 gp=0xc0000021e0 m=nil [chan receive]:\n"
    "main.main()\n"
    "\t_testmain.go:48 +0x9b fp=0xc3 sp=0xc2 pc=0x5e7d3b\n"
    "\n"
    "goroutine 2 gp=0xc000002780 m=nil [force gc (idle)]:\n"
    "runtime.forcegchelper()\n"
    "\t/go/src/runtime/proc.go:375 +0xb3 fp=0xc4 sp=0xc5 pc=0x4511d3\n"
    "created by runtime.init.7 in goroutine 1\n"
    "\t/go/src/runtime/proc.go:363 +0x1a\n"
    "\n"
    "goroutine 7 gp=0xc000003860 m=nil [chan receive]:\n"
    "example.com/p.reader(0xc00001c0c0)\n"
    "\t/src/p/p.go:30 +0x25 fp=0xc6 sp=0xc7 pc=0x5e1c45\n"
    "created by example.com/p.Open in goroutine 6\n"
    "\t/src/p/p.go:12 +0x85\n"
    "\n"
    "goroutine 9 gp=0xc000003c20 m=nil [chan receive]:\n"
    "example.com/p.reader(0xc00001c180)\n"
    "\t/src/p/p.go:30 +0x25 fp=0xc8 sp=0xc9 pc=0x5e1c45\n"
    "created by example.com/p.Open in goroutine 8\n"
    "\t/src/p/p.go:12 +0x85\n"
    "\n"
    "goroutine 10 gp=0xc000d56000 m=nil [GC worker (idle)]:\n"
    "runtime.gcBgMarkWorker(0x0?)\n"
    "\t/go/src/runtime/mgc.go:1423 +0xe9 fp=0xca sp=0xcb pc=0x41f7a9\n"
    "created by runtime.gcBgMarkStartWorkers in goroutine 6\n"
    "\t/go/src/runtime/mgc.go:1339 +0x105\n"
    "\n"
    "goroutine 11 gp=0xc000d56001 m=nil [select]:\n"
    "os/signal.loop()\n"
    "\t/go/src/os/signal/signal_unix.go:23 +0x13 fp=0xcc sp=0xcd pc=0x1\n"
    "created by os/signal.Notify.func1.1 in goroutine 1\n"
    "\t/go/src/os/signal/signal.go:151 +0x1f\n"
    "\n"
    "rax    0xfffffffffffffffc\n";

TEST(GoLeak, DumpCountedByCreatorWithoutTheRuntimesOwn) {
  cgofuzz_fb_goleak_set s = {};
  ASSERT_EQ(Parse(kDump, &s), 0);
  EXPECT_EQ(s.n, 2u); // p.Open's and os/signal's; no runtime.*, no main
  const cgofuzz_fb_goleak_gor *open = Find(s, "example.com/p.Open");
  ASSERT_NE(open, nullptr);
  EXPECT_EQ(open->n, 2u);
  const cgofuzz_fb_goleak_gor *sig = Find(s, "os/signal.Notify.func1.1");
  ASSERT_NE(sig, nullptr);
  EXPECT_EQ(sig->n, 1u);
  EXPECT_EQ(Find(s, "runtime.gcBgMarkStartWorkers"), nullptr);
  // The first of p.Open's, as a report shows it.
  EXPECT_STREQ(open->stack, "goroutine 7 [chan receive]:\n"
                            "example.com/p.reader(0xc00001c0c0)\n"
                            "\t/src/p/p.go:30 +0x25\n"
                            "created by example.com/p.Open in goroutine 6\n"
                            "\t/src/p/p.go:12 +0x85\n");
  cgofuzz_fb_goleak_set_free(&s);
}

TEST(GoLeak, OlderCreatedByLineAndDumpWithoutFinalNewline) {
  // Before Go 1.21 the line has no " in goroutine N"; a dump cut at its
  // end still counts its last goroutine.
  const std::string dump = "goroutine 18 [chan receive]:\n"
                           "example.com/p.reader(...)\n"
                           "\t/src/p/p.go:30 +0x25\n"
                           "created by example.com/p.Open\n"
                           "\t/src/p/p.go:12 +0x85";
  cgofuzz_fb_goleak_set s = {};
  ASSERT_EQ(Parse(dump, &s), 0);
  ASSERT_EQ(s.n, 1u);
  EXPECT_STREQ(s.g[0].creator, "example.com/p.Open");
  EXPECT_EQ(s.g[0].n, 1u);
  cgofuzz_fb_goleak_set_free(&s);
}

TEST(GoLeak, TextWithoutGoroutinesCountsNothing) {
  cgofuzz_fb_goleak_set s = {};
  ASSERT_EQ(Parse("PASS\ngoroutine leak? no\n\ncreated by nothing\n", &s), 0);
  EXPECT_EQ(s.n, 0u);
  ASSERT_EQ(Parse("", &s), 0);
  EXPECT_EQ(s.n, 0u);
  cgofuzz_fb_goleak_set_free(&s);
}

} // namespace

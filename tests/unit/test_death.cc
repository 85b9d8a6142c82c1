// test_death.cc: cgofuzz_coord_death_explain, the words for a worker's death
// (csrc/coord/coord_death.c). The tails are what go1.26.8 workers and
// cgofuzz's C workers write on stderr (shortened).
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <sys/wait.h>

extern "C" {
#include "coord_internal.h"
}

namespace {

struct Explained {
  int cls;
  bool record;
  std::string msg;
};

Explained Explain(int status, const std::string &tail, int stopped = 0,
                  int64_t oom = -1, bool reproduced = false) {
  cgofuzz_coord_death d{};
  d.status = status;
  d.stopped_for = stopped;
  d.timeout_ns = 2000000000;
  d.rss_mb = 412;
  d.rss_limit_mb = 300;
  d.oom_kills = oom;
  d.reproduced = reproduced;
  d.tail = reinterpret_cast<const uint8_t *>(tail.data());
  d.tail_len = tail.size();
  cgofuzz_buf b{};
  Explained e;
  e.cls = cgofuzz_coord_death_explain(&d, &b, &e.record);
  e.msg.assign(reinterpret_cast<const char *>(b.data), b.len);
  cgofuzz_buf_free(&b);
  return e;
}

const int kExit2 = 2 << 8;
const int kKilled = SIGKILL;

bool Has(const std::string &s, const std::string &sub) {
  return s.find(sub) != std::string::npos;
}

TEST(Death, GoPanicInAGoroutine) {
  auto e = Explain(kExit2, "noise\npanic: boom\n\ngoroutine 7 [running]:\n"
                           "pkg.f()\n\t/x/f.go:3 +0x1\n");
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_PANIC);
  EXPECT_TRUE(e.record);
  EXPECT_EQ(e.msg.rfind("fuzzing process crashed: Go panic", 0), 0u) << e.msg;
  EXPECT_TRUE(Has(e.msg, "fuzzing process hung or terminated unexpectedly: "
                         "exit status 2\n"));
  EXPECT_TRUE(Has(e.msg, "  panic: boom\n")) << e.msg;
  EXPECT_TRUE(Has(e.msg, "/x/f.go:3")) << e.msg;
  EXPECT_FALSE(Has(e.msg, "noise")) << e.msg;
  EXPECT_NE(e.msg.back(), '\n');
}

TEST(Death, GoFatalErrorAndOutOfMemory) {
  EXPECT_EQ(Explain(kExit2, "fatal error: concurrent map writes\n").cls,
            CGOFUZZ_COORD_DEATH_FATAL);
  auto e = Explain(kExit2, "fatal error: runtime: out of memory\n");
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_OOM);
  EXPECT_TRUE(Has(e.msg, "ulimit -v")) << e.msg;
}

TEST(Death, HangByOurWatchByGoTimerByCWatchdog) {
  auto e = Explain(kExit2, "SIGQUIT: quit\n", CGOFUZZ_COORD_DEATH_HANG);
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_HANG);
  EXPECT_EQ(e.msg.rfind("fuzzing process hung: no progress for 2s", 0), 0u);
  EXPECT_TRUE(Has(e.msg, "-timeout=7s")) << e.msg;
  auto g = Explain(kExit2, "panic: deadlocked!\n\ngoroutine 5 [running]:\n");
  EXPECT_EQ(g.cls, CGOFUZZ_COORD_DEATH_HANG);
  EXPECT_TRUE(Has(g.msg, "panic: deadlocked!")) << g.msg;
  EXPECT_EQ(
      Explain(kExit2, "cgofuzz: exec timed out (-test.fuzztimeout)\n").cls,
      CGOFUZZ_COORD_DEATH_HANG);
}

TEST(Death, TheFuzzFunctionsGoroutineIsQuoted) {
  std::string dump = "SIGQUIT: quit\nPC=0x1 m=0\n\n"
                     "goroutine 1 [chan receive]:\nmain.main()\n\n"
                     "goroutine 9 [sleep]:\ntime.Sleep(0x1)\n"
                     "pkg.FuzzX.func1()\n\t/x/x_test.go:9\n"
                     "reflect.Value.call()\ntesting.(*F).Fuzz.func1.1()\n";
  auto e = Explain(kExit2, dump, CGOFUZZ_COORD_DEATH_HANG);
  EXPECT_TRUE(Has(e.msg, "goroutine 9 [sleep]")) << e.msg;
  EXPECT_FALSE(Has(e.msg, "goroutine 1 [chan receive]")) << e.msg;
}

TEST(Death, MemoryLimit) {
  auto e = Explain(kKilled, "", CGOFUZZ_COORD_DEATH_OOM);
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_OOM);
  EXPECT_TRUE(e.record);
  EXPECT_TRUE(Has(e.msg, "resident set 412 MiB, above -fuzzrsslimitmb=300"));
}

TEST(Death, SanitizerReport) {
  auto e = Explain(1 << 8, "==12==ERROR: AddressSanitizer: heap-buffer-"
                           "overflow on address 0x1\nREAD of size 1\n");
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_SANITIZER);
  EXPECT_TRUE(Has(e.msg, "heap-buffer-overflow")) << e.msg;
  EXPECT_EQ(Explain(SIGABRT, "x.c:3:5: runtime error: signed integer "
                             "overflow\n")
                .cls,
            CGOFUZZ_COORD_DEATH_SANITIZER);
}

TEST(Death, LeakReport) {
  auto e = Explain(73 << 8, "==7==ERROR: LeakSanitizer: detected memory "
                            "leaks\n\nDirect leak of 32 byte(s) in 1 "
                            "object(s) allocated from:\n    #0 0x1 in "
                            "malloc\n");
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_LEAK);
  EXPECT_TRUE(e.record);
  EXPECT_TRUE(Has(e.msg, "memory leak")) << e.msg;
  EXPECT_TRUE(Has(e.msg, "Direct leak of 32 byte(s)")) << e.msg;
}

TEST(Death, SignalsAndExits) {
  auto s = Explain(SIGSEGV, "");
  EXPECT_EQ(s.cls, CGOFUZZ_COORD_DEATH_SIGNAL);
  EXPECT_TRUE(Has(s.msg, "killed by signal 11 (SIGSEGV) with no report"));
  auto x = Explain(3 << 8, "");
  EXPECT_EQ(x.cls, CGOFUZZ_COORD_DEATH_EXIT);
  EXPECT_TRUE(Has(x.msg, "exited with status 3"));
  EXPECT_TRUE(x.record);
}

TEST(Death, SigkillFromOutsideIsNotRecordedUnlessItComesAgain) {
  auto e = Explain(kKilled, "", 0, 0);
  EXPECT_EQ(e.cls, CGOFUZZ_COORD_DEATH_EXTERNAL);
  EXPECT_FALSE(e.record);
  EXPECT_TRUE(Has(e.msg, "no crash will be recorded: signal: killed"));
  EXPECT_TRUE(Has(e.msg, "not by the kernel's OOM killer"));
  auto r = Explain(kKilled, "", 0, 0, true);
  EXPECT_TRUE(r.record);
  // The OOM killer ran: out of memory, but the input is recorded only
  // when it dies again alone (the machine may have been short of memory
  // through other programs).
  auto o = Explain(kKilled, "", 0, 1);
  EXPECT_EQ(o.cls, CGOFUZZ_COORD_DEATH_OOM);
  EXPECT_FALSE(o.record);
  EXPECT_TRUE(Has(o.msg, "OOM killer"));
  EXPECT_TRUE(Has(o.msg, "no crash will be recorded: signal: killed"));
  auto q = Explain(kKilled, "", 0, 1, true);
  EXPECT_EQ(q.cls, CGOFUZZ_COORD_DEATH_OOM);
  EXPECT_TRUE(q.record);
  EXPECT_TRUE(Has(q.msg, "the input died again when run alone"));
  EXPECT_FALSE(Has(q.msg, "no crash will be recorded"));
}

TEST(Death, SignalInCGivesItsPc) {
  // go1.26.8, a NULL write in a cgo package's C.
  const std::string tail =
      "SIGSEGV: segmentation violation\n"
      "PC=0x5b93f9 m=0 sigcode=1 addr=0x0\n"
      "signal arrived during cgo execution\n\n"
      "goroutine 8 gp=0x1a277aef63c0 m=0 mp=0x7c52c0 [syscall]:\n"
      "runtime.cgocall(0x5b9360, 0x1a277aeb17a0)\n";
  const uint8_t *t = reinterpret_cast<const uint8_t *>(tail.data());
  uint64_t pc = 0;
  ASSERT_TRUE(cgofuzz_coord_death_cgo_pc(t, tail.size(), &pc));
  EXPECT_EQ(pc, 0x5b93f9u);
  // A signal in Go code (no cgo line), or no PC line before it: nothing.
  const std::string go = "SIGSEGV: segmentation violation\n"
                         "PC=0x5b93f9 m=0 sigcode=1 addr=0x0\n\n"
                         "goroutine 8 [running]:\n";
  EXPECT_FALSE(cgofuzz_coord_death_cgo_pc(
      reinterpret_cast<const uint8_t *>(go.data()), go.size(), &pc));
  const std::string nopc = "SIGSEGV: segmentation violation\n"
                           "signal arrived during cgo execution\n";
  EXPECT_FALSE(cgofuzz_coord_death_cgo_pc(
      reinterpret_cast<const uint8_t *>(nopc.data()), nopc.size(), &pc));
  EXPECT_FALSE(cgofuzz_coord_death_cgo_pc(nullptr, 0, &pc));
  // The named frame goes before the quoted report.
  cgofuzz_coord_death d{};
  d.status = 2 << 8;
  d.tail = t;
  d.tail_len = tail.size();
  d.c_frame = "C.count_tag (cgo's wrapper _cgo_1_Cfunc_count_tag+0x99)";
  cgofuzz_buf b{};
  bool record = false;
  cgofuzz_coord_death_explain(&d, &b, &record);
  std::string msg(reinterpret_cast<const char *>(b.data), b.len);
  cgofuzz_buf_free(&b);
  EXPECT_TRUE(record);
  EXPECT_NE(msg.find("the signal came in C code, in C.count_tag (cgo's "
                     "wrapper _cgo_1_Cfunc_count_tag+0x99)"),
            std::string::npos)
      << msg;
  EXPECT_LT(msg.find("the signal came in C code"),
            msg.find("its stderr ended with"))
      << msg;
}

TEST(Death, CFramesOfGosReportAreReadInOrder) {
  // go1.26.8, a write through NULL in libc's memcpy called from a cgo
  // package's C, the binary linked with cgo-cc's C traceback: the C frames
  // (one without a file, one with) come before the first Go frame, whose
  // "pc=" is not theirs.
  const std::string tail =
      "SIGSEGV: segmentation violation\n"
      "PC=0x7f012aaab868 m=3 sigcode=1 addr=0x1\n"
      "signal arrived during cgo execution\n\n"
      "goroutine 172 gp=0x2444decf01e0 m=3 mp=0x2444decaf008 [syscall]:\n"
      "libc.so.6+0x16d868\n"
      "\tpc=0x7f012aaab868\n"
      "copy_name\n"
      "\tmagic.go:9 pc=0x5fea3b\n"
      "_cgo_def882c7990e_Cfunc_copy_name\n"
      "\tpc=0x5fe998\n"
      "runtime.cgocall(0x5fe970, 0x2444decbd7a0)\n"
      "\t/usr/local/go/src/runtime/cgocall.go:167 +0x4b fp=0x2444decbd778 "
      "sp=0x2444decbd740 pc=0x4866cb\n"
      "non-Go function\n"
      "\tpc=0x1\n";
  const uint8_t *t = reinterpret_cast<const uint8_t *>(tail.data());
  uint64_t pcs[8] = {0};
  ASSERT_EQ(cgofuzz_coord_death_cgo_callers(t, tail.size(), pcs, 8), 3u);
  EXPECT_EQ(pcs[0], 0x7f012aaab868u);
  EXPECT_EQ(pcs[1], 0x5fea3bu);
  EXPECT_EQ(pcs[2], 0x5fe998u);
  EXPECT_EQ(cgofuzz_coord_death_cgo_callers(t, tail.size(), pcs, 2), 2u);
  // Without the C traceback (Go frames only), or without a signal in C:
  // none.
  const std::string go_only =
      "SIGSEGV: segmentation violation\n"
      "PC=0x5b93f9 m=0 sigcode=1 addr=0x0\n"
      "signal arrived during cgo execution\n\n"
      "goroutine 8 gp=0x1a277aef63c0 m=0 mp=0x7c52c0 [syscall]:\n"
      "runtime.cgocall(0x5b9360, 0x1a277aeb17a0)\n"
      "\t/usr/local/go/src/runtime/cgocall.go:167 +0x4b fp=0x1 sp=0x2 "
      "pc=0x4866cb\n";
  EXPECT_EQ(cgofuzz_coord_death_cgo_callers(
                reinterpret_cast<const uint8_t *>(go_only.data()),
                go_only.size(), pcs, 8),
            0u);
  const std::string panic = "panic: boom\n\ngoroutine 1 [running]:\n"
                            "main.f()\n\tpc=0x1234\n";
  EXPECT_EQ(cgofuzz_coord_death_cgo_callers(
                reinterpret_cast<const uint8_t *>(panic.data()), panic.size(),
                pcs, 8),
            0u);
  EXPECT_EQ(cgofuzz_coord_death_cgo_callers(nullptr, 0, pcs, 8), 0u);
}

TEST(Death, WhatCSaidBeforeGoSignalReportIsQuoted) {
  // go1.26.8 under a cgo package whose C assert failed: libc's message,
  // then Go's report of the SIGABRT (a line before them is not quoted).
  const std::string tail =
      "earlier output\n\n"
      "x.test: muxi.h:153: size_t ChunkDiskSize(const WebPChunk *): "
      "Assertion `data_size < MAX_CHUNK_PAYLOAD' failed.\n"
      "SIGABRT: abort\n"
      "PC=0x7fba35ae5eec m=0 sigcode=18446744073709551610\n"
      "signal arrived during cgo execution\n\n"
      "goroutine 20 gp=0x1 m=0 mp=0x2 [syscall]:\n"
      "runtime.cgocall(0x866450, 0x10c0000e9618)\n"
      "reflect.Value.call({0x9ec820?})\n"
      "testing.(*F).Fuzz.func1.1(0x10c008016dc8?)\n";
  auto e = Explain(2 << 8, tail);
  EXPECT_TRUE(e.record);
  size_t said = e.msg.find("  x.test: muxi.h:153: size_t ChunkDiskSize");
  EXPECT_NE(said, std::string::npos) << e.msg;
  EXPECT_LT(said, e.msg.find("  SIGABRT: abort")) << e.msg;
  EXPECT_EQ(e.msg.find("earlier output"), std::string::npos) << e.msg;
}

} // namespace

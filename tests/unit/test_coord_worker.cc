// Tests of the coordinator's end of a worker process, with /bin/sh scripts
// standing in for workers: fd layout, message exchange, death and hang
// detection, escalation when stopping, and descriptor hygiene.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "coord_worker.h"

namespace {

// How long a message that must come may take: a deadline, not a measure
// (the scripts' shells start slowly on a loaded machine and under qemu-user,
// where tests/cross runs these tests).
constexpr int kArrives = 30000;

struct Worker {
  cgofuzz_coord_worker w;
  cgofuzz_err err{};
  explicit Worker(size_t cap = 4096) {
    signal(SIGPIPE, SIG_IGN);
    EXPECT_EQ(cgofuzz_coord_worker_init(&w, cap, &err), 0) << err.msg;
  }
  ~Worker() { cgofuzz_coord_worker_free(&w); }
  int start(const std::string &script) {
    char *argv[] = {(char *)"sh", (char *)"-c", (char *)script.c_str(),
                    nullptr};
    return cgofuzz_coord_worker_start(&w, "/bin/sh", argv, nullptr, nullptr, -1,
                                      -1, &err);
  }
  int send(const std::string &s) {
    cgofuzz_buf b = {(uint8_t *)s.data(), s.size(), s.size(), false};
    return cgofuzz_coord_worker_send(&w, &b, &err);
  }
  // Returns the line, or "<timeout>" / "<eof>".
  std::string recv(int timeout_ms, size_t max_line = 1 << 20) {
    const uint8_t *line;
    size_t len;
    int r =
        cgofuzz_coord_worker_recv(&w, timeout_ms, max_line, &line, &len, &err);
    if (r == 0)
      return "<timeout>";
    if (r < 0)
      return "<eof>";
    return std::string((const char *)line, len);
  }
};

TEST(CoordWorker, ExchangesLinesOverFd3AndFd4) {
  Worker k;
  ASSERT_EQ(k.start("while read -r l <&3; do echo \"got $l\" >&4; done"), 0)
      << k.err.msg;
  ASSERT_EQ(k.send("one\ntwo\n"), 0);
  EXPECT_EQ(k.recv(kArrives), "got one");
  EXPECT_EQ(k.recv(kArrives), "got two");
  EXPECT_EQ(k.recv(50), "<timeout>");
  int st = cgofuzz_coord_worker_stop(&k.w, 2000);
  EXPECT_TRUE(WIFEXITED(st)) << st; // EOF on fd 3 ended the loop
  EXPECT_EQ(WEXITSTATUS(st), 0);
}

TEST(CoordWorker, Fd5IsTheSharedMemoryFile) {
  Worker k(1000);
  ASSERT_EQ(k.start("stat -L -c %s /proc/self/fd/5 >&4"), 0) << k.err.msg;
  EXPECT_EQ(k.recv(kArrives), std::to_string(1000 + CGOFUZZ_SHM_HEADER_SIZE));
}

TEST(CoordWorker, WorkerHoldsOnlyItsOwnDescriptors) {
  Worker a, b;
  ASSERT_EQ(a.start("sleep 5"), 0);
  // ls's own directory descriptor shows up too; everything else must be
  // stdio plus 3, 4 and 5.
  ASSERT_EQ(b.start("ls /proc/self/fd | sort -n | tr '\\n' ' ' >&4; echo >&4"),
            0);
  std::string fds = b.recv(kArrives);
  EXPECT_EQ(fds.rfind("0 1 2 3 4 5 ", 0), 0u) << fds;
  std::string rest = fds.substr(12);
  // At most the one descriptor ls opened for the directory listing.
  EXPECT_LE(std::count(rest.begin(), rest.end(), ' '), 1) << fds;
}

// A coordinator started with fds 3..5 closed (the usual case for a command
// run from a shell) must not let /dev/null or anything else land on the
// worker's 3/4/5 or turn its stderr into the shared memory.
TEST(CoordWorker, LowDescriptorsFreeInTheCoordinator) {
  int saved[3];
  for (int fd = 3; fd <= 5; fd++) {
    saved[fd - 3] = fcntl(fd, F_DUPFD_CLOEXEC, 100); // -1 if fd was closed
    close(fd);
  }
  {
    Worker k(1000);
    ASSERT_EQ(k.start("readlink /proc/self/fd/2 >&4; "
                      "stat -L -c %s /proc/self/fd/5 >&4"),
              0)
        << k.err.msg;
    EXPECT_EQ(k.recv(kArrives), "/dev/null");
    EXPECT_EQ(k.recv(kArrives), std::to_string(1000 + CGOFUZZ_SHM_HEADER_SIZE));
  }
  for (int fd = 3; fd <= 5; fd++) {
    if (saved[fd - 3] >= 0) {
      dup2(saved[fd - 3], fd);
      close(saved[fd - 3]);
    }
  }
}

TEST(CoordWorker, CrashIsSeenAsEofWithSignal) {
  Worker k;
  ASSERT_EQ(k.start("read -r l <&3; kill -SEGV $$"), 0);
  ASSERT_EQ(k.send("go\n"), 0);
  EXPECT_EQ(k.recv(kArrives), "<eof>");
  EXPECT_EQ(cgofuzz_coord_worker_reap(&k.w, 5000), 1);
  ASSERT_TRUE(WIFSIGNALED(k.w.wait_status));
  EXPECT_EQ(WTERMSIG(k.w.wait_status), SIGSEGV);
  char s[64];
  cgofuzz_coord_wait_status_string(k.w.wait_status, s, sizeof s);
  EXPECT_EQ(std::string(s).rfind("signal: segmentation fault", 0), 0u) << s;
  EXPECT_TRUE(cgofuzz_coord_is_crash_signal(SIGSEGV));
  EXPECT_FALSE(cgofuzz_coord_is_crash_signal(SIGKILL));
  EXPECT_FALSE(cgofuzz_coord_is_crash_signal(SIGINT));
}

TEST(CoordWorker, ExitStatusIsReportedLikeGo) {
  Worker k;
  ASSERT_EQ(k.start("exit 3"), 0);
  EXPECT_EQ(k.recv(kArrives), "<eof>");
  ASSERT_EQ(cgofuzz_coord_worker_reap(&k.w, 5000), 1);
  char s[64];
  cgofuzz_coord_wait_status_string(k.w.wait_status, s, sizeof s);
  EXPECT_STREQ(s, "exit status 3");
  // Sending to a dead worker fails cleanly instead of raising SIGPIPE.
  EXPECT_EQ(k.send("x\n"), -1);
}

TEST(CoordWorker, HungWorkerIsInterruptedThenKilled) {
  Worker k;
  ASSERT_EQ(k.start("exec sleep 30"), 0);
  EXPECT_EQ(k.recv(100), "<timeout>");
  int st = cgofuzz_coord_worker_stop(&k.w, 200);
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), SIGINT);

  ASSERT_EQ(k.start("trap '' INT; sleep 30 & wait; sleep 30"), 0);
  st = cgofuzz_coord_worker_stop(&k.w, 200);
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_EQ(WTERMSIG(st), SIGKILL);
}

TEST(CoordWorker, FloodWithoutNewlineIsAnError) {
  Worker k;
  ASSERT_EQ(k.start("head -c 200000 /dev/zero >&4; sleep 5"), 0);
  EXPECT_EQ(k.recv(kArrives, 1000), "<eof>");
  EXPECT_NE(std::string(k.err.msg).find("longer than 1000"), std::string::npos)
      << k.err.msg;
}

TEST(CoordWorker, MissingBinaryNamesThePath) {
  Worker k;
  char *argv[] = {(char *)"x", nullptr};
  EXPECT_EQ(cgofuzz_coord_worker_start(&k.w, "/nonexistent/worker", argv,
                                       nullptr, nullptr, -1, -1, &k.err),
            -1);
  EXPECT_NE(std::string(k.err.msg).find("/nonexistent/worker"),
            std::string::npos);
  EXPECT_NE(std::string(k.err.msg).find("No such file"), std::string::npos);
  EXPECT_EQ(k.w.pid, 0);
}

TEST(CoordWorker, RestartReusesSharedMemory) {
  Worker k;
  cgofuzz_shm_hdr(&k.w.mem)->count = 42;
  ASSERT_EQ(k.start("exit 0"), 0);
  cgofuzz_coord_worker_stop(&k.w, 1000);
  ASSERT_EQ(k.start("od -A n -t d8 -N 8 /proc/self/fd/5 | tr -d ' ' >&4"), 0);
  EXPECT_EQ(k.recv(kArrives), "42");
}

} // namespace

namespace {

std::string Tail(const cgofuzz_coord_worker &w) {
  return std::string(reinterpret_cast<const char *>(w.tail), w.tail_len);
}

// keep_stderr: a worker writing far more than a pipe holds on stderr
// before it answers is not blocked (recv drains it), only the last
// CGOFUZZ_COORD_WORKER_TAIL bytes are kept, and they outlive the process.
TEST(CoordWorker, StderrIsDrainedAndItsTailKept) {
  Worker k;
  k.w.keep_stderr = true;
  ASSERT_EQ(k.start("head -c 300000 /dev/zero | tr '\\0' x >&2; "
                    "echo; echo last words >&2; echo ready >&4; sleep 5"),
            0)
      << k.err.msg;
  EXPECT_EQ(k.recv(kArrives), "ready");
  cgofuzz_coord_worker_stop(&k.w, 100);
  std::string t = Tail(k.w);
  EXPECT_EQ(t.size(), CGOFUZZ_COORD_WORKER_TAIL);
  EXPECT_EQ(t.substr(t.size() - 11), "last words\n");
  EXPECT_EQ(t.find_first_not_of('x'), t.size() - 11) << t.substr(0, 40);
  // A new process starts a new tail.
  ASSERT_EQ(k.start("echo again >&2"), 0);
  EXPECT_EQ(cgofuzz_coord_worker_reap(&k.w, 5000), 1);
  cgofuzz_coord_worker_stop(&k.w, 100);
  EXPECT_EQ(Tail(k.w), "again\n");
}

// With a stderr_fd as well, everything captured is copied there too (a
// front end's stderr keeps showing sanitizer reports).
TEST(CoordWorker, StderrIsCopiedToStderrFd) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  Worker k;
  k.w.keep_stderr = true;
  char *argv[] = {(char *)"sh", (char *)"-c",
                  (char *)"echo report >&2; echo done >&4", nullptr};
  ASSERT_EQ(cgofuzz_coord_worker_start(&k.w, "/bin/sh", argv, nullptr, nullptr,
                                       -1, p[1], &k.err),
            0);
  EXPECT_EQ(k.recv(kArrives), "done");
  EXPECT_EQ(cgofuzz_coord_worker_reap(&k.w, 5000), 1);
  cgofuzz_coord_worker_stop(&k.w, 100);
  close(p[1]);
  char buf[64] = {0};
  EXPECT_EQ(read(p[0], buf, sizeof buf - 1), 7);
  EXPECT_STREQ(buf, "report\n");
  close(p[0]);
  EXPECT_EQ(Tail(k.w), "report\n");
}

} // namespace

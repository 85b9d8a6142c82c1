// Unit tests of the base layer's shared infrastructure: the process
// spawner, the newline-framed reader, the monotonic clock, buffers that
// ran out of memory, the waitset, directories, and whole-file reads and
// atomic writes.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "buf.h"
#include "clock.h"
#include "dir.h"
#include "file.h"
#include "hashset.h"
#include "lines.h"
#include "os.h"
#include "spawn.h"

namespace {

std::string str(const cgofuzz_buf &b) {
  return std::string(reinterpret_cast<const char *>(b.data), b.len);
}

// Every value once, across the table's growth; the low bit is not part of
// the value (0 marks an empty slot).
TEST(HashSet, AddsEachValueOnceAcrossGrowth) {
  cgofuzz_hashset s{};
  for (uint64_t i = 0; i < 5000; i++)
    EXPECT_EQ(cgofuzz_hashset_add(&s, i * 2654435761u * 2), 1) << i;
  EXPECT_EQ(s.n, 5000u);
  EXPECT_LE(2 * s.n, s.cap);
  for (uint64_t i = 0; i < 5000; i++)
    EXPECT_EQ(cgofuzz_hashset_add(&s, i * 2654435761u * 2), 0) << i;
  EXPECT_EQ(cgofuzz_hashset_add(&s, 1), 0); /* 0 | 1 was added first */
  cgofuzz_hashset_free(&s);
  EXPECT_EQ(s.slot, nullptr);
  EXPECT_EQ(cgofuzz_hashset_add(&s, 7), 1);
  cgofuzz_hashset_free(&s);
}

TEST(Spawn, RunCapturesStdoutAndStatus) {
  char *argv[] = {(char *)"sh", (char *)"-c",
                  (char *)"echo out; echo err >&2; exit 3", nullptr};
  cgofuzz_spawn s = {};
  s.path = "/bin/sh";
  s.argv = argv;
  cgofuzz_buf out = {};
  int st = cgofuzz_spawn_run(&s, &out, false, 10000);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 3);
  EXPECT_EQ(str(out), "out\n"); // stderr went to /dev/null
  cgofuzz_buf_free(&out);
}

TEST(Spawn, MergedStderrDirAndAddedEnv) {
  char *argv[] = {(char *)"sh", (char *)"-c",
                  (char *)"pwd; echo \"$CGOFUZZ_T\" >&2", nullptr};
  cgofuzz_spawn s = {};
  s.path = "/bin/sh";
  s.argv = argv;
  s.dir = "/";
  s.add_env = "CGOFUZZ_T=yes";
  cgofuzz_buf out = {};
  int st = cgofuzz_spawn_run(&s, &out, true, 10000);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 0);
  EXPECT_EQ(str(out), "/\nyes\n");
  EXPECT_EQ(getenv("CGOFUZZ_T"), nullptr); // only the child's environment
  cgofuzz_buf_free(&out);
}

TEST(Spawn, ExecFailureIsAnErrnoNotAnExitStatus) {
  char *argv[] = {(char *)"nope", nullptr};
  cgofuzz_spawn s = {};
  s.path = "/nonexistent/cgofuzz-nope";
  s.argv = argv;
  errno = 0;
  EXPECT_EQ(cgofuzz_spawn_start(&s), -1);
  EXPECT_EQ(errno, ENOENT);
  s.path = "/bin/sh";
  s.dir = "/nonexistent-dir";
  errno = 0;
  EXPECT_EQ(cgofuzz_spawn_start(&s), -1);
  EXPECT_EQ(errno, ENOENT);
}

// The worker's descriptors: sources may themselves be numbered like the
// targets (here fd 3 must receive what is at 4 and fd 4 what is at 3).
TEST(Spawn, RemapsDescriptorsWithoutClobbering) {
  int a[2], b[2];
  ASSERT_EQ(pipe(a), 0);
  ASSERT_EQ(pipe(b), 0);
  int hi_a = fcntl(a[1], F_DUPFD_CLOEXEC, 30);
  int hi_b = fcntl(b[1], F_DUPFD_CLOEXEC, 31);
  close(a[1]);
  close(b[1]);
  char *argv[] = {(char *)"sh", (char *)"-c",
                  (char *)"echo A >&3; echo B >&4; ls /proc/self/fd | wc -l",
                  nullptr};
  int from[] = {hi_b, hi_a};
  int to[] = {3, 4};
  cgofuzz_spawn s = {};
  s.path = "/bin/sh";
  s.argv = argv;
  s.fd_from = from;
  s.fd_to = to;
  s.n_fds = 2;
  s.close_others = true;
  cgofuzz_buf out = {};
  int st = cgofuzz_spawn_run(&s, &out, false, 10000);
  close(hi_a);
  close(hi_b);
  ASSERT_TRUE(WIFEXITED(st));
  char buf[8] = {};
  ASSERT_EQ(read(b[0], buf, sizeof buf), 2);
  EXPECT_STREQ(buf, "A\n"); // fd 3 was b's write end
  memset(buf, 0, sizeof buf);
  ASSERT_EQ(read(a[0], buf, sizeof buf), 2);
  EXPECT_STREQ(buf, "B\n");
  // 0-4 and the directory ls reads: nothing else leaked into the child.
  EXPECT_EQ(std::stoi(str(out)), 6);
  close(a[0]);
  close(b[0]);
  cgofuzz_buf_free(&out);
}

TEST(Spawn, WaitKillsAtTheTimeOut) {
  char *argv[] = {(char *)"sleep", (char *)"60", nullptr};
  cgofuzz_spawn s = {};
  s.path = "/bin/sleep";
  s.argv = argv;
  pid_t pid = cgofuzz_spawn_start(&s);
  ASSERT_GT(pid, 0);
  bool timed_out = false;
  EXPECT_EQ(cgofuzz_spawn_wait(pid, 50, &timed_out), -1);
  EXPECT_TRUE(timed_out);
  EXPECT_EQ(kill(pid, 0), -1); // reaped: no such process any more
}

TEST(Lines, SplitsAcrossReadsAndKeepsPartialLines) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  cgofuzz_lines r = {};
  const uint8_t *line;
  size_t len;
  ASSERT_EQ(write(p[1], "ab\ncd", 5), 5);
  ASSERT_EQ(cgofuzz_lines_fill(&r, p[0], 64), 5);
  ASSERT_EQ(cgofuzz_lines_next(&r, &line, &len), 1);
  EXPECT_EQ(std::string((const char *)line, len), "ab");
  EXPECT_EQ(cgofuzz_lines_next(&r, &line, &len), 0);
  EXPECT_EQ(cgofuzz_lines_pending(&r), 2u);
  ASSERT_EQ(write(p[1], "e\n\nf\n", 5), 5);
  ASSERT_EQ(cgofuzz_lines_read(&r, p[0], &line, &len), 1);
  EXPECT_EQ(std::string((const char *)line, len), "cde");
  ASSERT_EQ(cgofuzz_lines_read(&r, p[0], &line, &len), 1);
  EXPECT_EQ(len, 0u); // an empty line is a line
  ASSERT_EQ(cgofuzz_lines_read(&r, p[0], &line, &len), 1);
  EXPECT_EQ(std::string((const char *)line, len), "f");
  close(p[1]);
  EXPECT_EQ(cgofuzz_lines_read(&r, p[0], &line, &len), 0); // clean EOF
  close(p[0]);
  cgofuzz_lines_free(&r);
}

TEST(Lines, EofInsideALineIsAnError) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  ASSERT_EQ(write(p[1], "half", 4), 4);
  close(p[1]);
  cgofuzz_lines r = {};
  const uint8_t *line;
  size_t len;
  EXPECT_EQ(cgofuzz_lines_read(&r, p[0], &line, &len), -1);
  close(p[0]);
  cgofuzz_lines_free(&r);
}

TEST(Clock, MonotonicAndConsistentUnits) {
  int64_t a = cgofuzz_mono_ns();
  int64_t ms = cgofuzz_mono_ms();
  int64_t b = cgofuzz_mono_ns();
  EXPECT_LE(a, b);
  EXPECT_LE(a / 1000000, ms);
  EXPECT_LE(ms, b / 1000000);
}

TEST(Buf, AFailureStaysUntilFreed) {
  cgofuzz_buf b = {};
  ASSERT_EQ(cgofuzz_buf_puts(&b, "ab"), 0);
  // A size no allocator gives: the buffer is marked, its text kept.
  EXPECT_EQ(cgofuzz_buf_reserve(&b, SIZE_MAX / 2), -1);
  EXPECT_TRUE(b.failed);
  // Every later append fails, so it never holds a cut message.
  EXPECT_EQ(cgofuzz_buf_putc(&b, 'c'), -1);
  EXPECT_EQ(cgofuzz_buf_puts(&b, "d"), -1);
  EXPECT_EQ(cgofuzz_buf_printf(&b, "%d", 1), -1);
  EXPECT_EQ(cgofuzz_buf_append(&b, "", 0), -1);
  EXPECT_EQ(str(b), "ab");
  cgofuzz_buf_free(&b);
  EXPECT_FALSE(b.failed);
  EXPECT_EQ(cgofuzz_buf_puts(&b, "e"), 0);
  cgofuzz_buf_free(&b);
}

// This process's run delay (time it waited, runnable, for a CPU) is read,
// is never negative and never shrinks; a process that is gone has none.
TEST(Os, RunDelay) {
#ifdef __linux__
  int64_t a = cgofuzz_os_run_delay_ms(getpid());
  ASSERT_GE(a, 0);
  volatile uint64_t x = 0;
  for (int i = 0; i < 20000000; i++)
    x = x + (uint64_t)i;
  EXPECT_GE(cgofuzz_os_run_delay_ms(getpid()), a);
  pid_t p = fork();
  ASSERT_GE(p, 0);
  if (p == 0)
    _exit(0);
  ASSERT_EQ(waitpid(p, nullptr, 0), p);
  EXPECT_EQ(cgofuzz_os_run_delay_ms(p), -1); // reaped: no /proc entry
#else
  EXPECT_EQ(cgofuzz_os_run_delay_ms(getpid()), -1);
#endif
}

TEST(Waitset, ReadyKeysAndReusedNumbers) {
  cgofuzz_os_waitset *ws = cgofuzz_os_waitset_new();
  ASSERT_NE(ws, nullptr);
  int a[2], b[2];
  ASSERT_EQ(pipe(a), 0);
  ASSERT_EQ(pipe(b), 0);
  ASSERT_EQ(cgofuzz_os_waitset_watch(ws, a[0], 10), 0);
  ASSERT_EQ(cgofuzz_os_waitset_watch(ws, b[0], 20), 0);
  uint64_t keys[4];
  EXPECT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 0), 0);
  ASSERT_EQ(write(b[1], "x", 1), 1);
  ASSERT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 1000), 1);
  EXPECT_EQ(keys[0], 20u);
  // Unwatching under another key leaves it watched; under its own, not.
  cgofuzz_os_waitset_unwatch(ws, b[0], 99);
  EXPECT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 0), 1);
  cgofuzz_os_waitset_unwatch(ws, b[0], 20);
  EXPECT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 0), 0);
  // a's number closed and taken by a new pipe, watched under a new key:
  // its input comes with the new key.
  int old = a[0];
  close(a[0]);
  close(a[1]);
  int c[2];
  ASSERT_EQ(pipe(c), 0);
  ASSERT_EQ(c[0], old);
  ASSERT_EQ(cgofuzz_os_waitset_watch(ws, c[0], 30), 0);
  ASSERT_EQ(write(c[1], "y", 1), 1);
  ASSERT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 1000), 1);
  EXPECT_EQ(keys[0], 30u);
  // A closed write end is readable too (end of file): a death is seen.
  close(c[1]);
  char ch;
  ASSERT_EQ(read(c[0], &ch, 1), 1);
  ASSERT_EQ(cgofuzz_os_waitset_wait(ws, keys, 4, 1000), 1);
  EXPECT_EQ(keys[0], 30u);
  close(c[0]);
  close(b[0]);
  close(b[1]);
  cgofuzz_os_waitset_free(ws);
}

} // namespace

// rm -rf of a temporary tree: files, a nested directory, and a symbolic
// link whose target outside the tree is left alone.
TEST(Dir, RemoveAllRemovesTheTreeNotLinkTargets) {
  char root[] = "/tmp/cgofuzz-dirtest-XXXXXX";
  char keep[] = "/tmp/cgofuzz-dirkeep-XXXXXX";
  ASSERT_NE(mkdtemp(root), nullptr);
  ASSERT_NE(mkdtemp(keep), nullptr);
  std::string r(root), k(keep);
  ASSERT_EQ(mkdir((r + "/a").c_str(), 0700), 0);
  ASSERT_EQ(mkdir((r + "/a/b").c_str(), 0700), 0);
  for (const char *f : {"/x", "/a/y", "/a/b/z"}) {
    int fd = open((r + f).c_str(), O_WRONLY | O_CREAT, 0600);
    ASSERT_GE(fd, 0);
    close(fd);
  }
  int fd = open((k + "/kept").c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(symlink(keep, (r + "/a/link").c_str()), 0);
  EXPECT_EQ(cgofuzz_dir_remove_all(root), 0);
  EXPECT_NE(access(root, F_OK), 0);
  EXPECT_EQ(access((k + "/kept").c_str(), F_OK), 0);
  EXPECT_EQ(cgofuzz_dir_remove_all((r + "/gone").c_str()), -1);
  EXPECT_EQ(cgofuzz_dir_remove_all(keep), 0);
}

TEST(Dir, MakeAllMakesTheMissingParentsOnly) {
  char root[] = "/tmp/cgofuzz-mkdirtest-XXXXXX";
  ASSERT_NE(mkdtemp(root), nullptr);
  std::string r(root);
  struct stat st;
  EXPECT_EQ(cgofuzz_dir_make_all((r + "/a/b//c/").c_str(), 0755), 0);
  ASSERT_EQ(stat((r + "/a/b/c").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  // There already: success, nothing changed.
  EXPECT_EQ(cgofuzz_dir_make_all((r + "/a/b").c_str(), 0755), 0);
  // A file in the way, as the path or as a parent: ENOTDIR.
  int fd = open((r + "/f").c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  close(fd);
  errno = 0;
  EXPECT_EQ(cgofuzz_dir_make_all((r + "/f").c_str(), 0755), -1);
  EXPECT_EQ(errno, ENOTDIR);
  EXPECT_EQ(cgofuzz_dir_make_all((r + "/f/g").c_str(), 0755), -1);
  EXPECT_EQ(errno, ENOTDIR);
  std::string longp(5000, 'x');
  EXPECT_EQ(cgofuzz_dir_make_all(longp.c_str(), 0755), -1);
  EXPECT_EQ(errno, ENAMETOOLONG);
  EXPECT_EQ(cgofuzz_dir_remove_all(root), 0);
}

// --- file.h: whole reads and atomic writes.

namespace {

// A fresh directory per test, removed with everything in it.
class File : public ::testing::Test {
protected:
  std::string dir;
  void SetUp() override {
    char t[] = "/tmp/cgofuzz-filetest-XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    dir = t;
  }
  void TearDown() override {
    chmod(dir.c_str(), 0700);
    cgofuzz_dir_remove_all(dir.c_str());
  }
  // Writes 8 bytes to p under a file size limit of 2 (SIGXFSZ ignored):
  // the write(2) fails with EFBIG. The result, *step set, *e errno.
  static int WriteOverSizeLimit(const std::string &p, unsigned flags,
                                const char **step, int *e) {
    struct rlimit lim, small = {2, 2};
    if (getrlimit(RLIMIT_FSIZE, &lim) != 0)
      return -2;
    small.rlim_max = lim.rlim_max;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    int rc = setrlimit(RLIMIT_FSIZE, &small) != 0
                 ? -2
                 : Write(p, "too long", 0644, flags, step);
    *e = errno;
    setrlimit(RLIMIT_FSIZE, &lim);
    signal(SIGXFSZ, was);
    return rc;
  }
  // Every name in d, hidden ones included.
  static std::vector<std::string> Names(const std::string &d) {
    char **names;
    size_t n;
    std::vector<std::string> out;
    if (cgofuzz_dir_names(d.c_str(), false, &names, &n) != 0)
      return {"(cannot list " + d + ")"};
    for (size_t i = 0; i < n; i++)
      out.push_back(names[i]);
    cgofuzz_dir_names_free(names, n);
    return out;
  }
  static std::string Read(const std::string &p) {
    cgofuzz_buf b = {};
    std::string s = cgofuzz_file_read(p.c_str(), &b) == 0 ? str(b) : "(none)";
    cgofuzz_buf_free(&b);
    return s;
  }
  static int Write(const std::string &p, const std::string &data, unsigned mode,
                   unsigned flags, const char **step = nullptr) {
    return cgofuzz_file_write_atomic(p.c_str(), data.data(), data.size(), mode,
                                     flags, step);
  }
  static unsigned Mode(const std::string &p) {
    struct stat st;
    return lstat(p.c_str(), &st) == 0 ? st.st_mode & 07777 : 0xffff;
  }
};

struct Umask {
  mode_t old;
  explicit Umask(mode_t m) : old(umask(m)) {}
  ~Umask() { umask(old); }
};

TEST_F(File, ReadsWholeFilesAndAppends) {
  // Larger than one read step, with every byte value.
  std::string big;
  for (int i = 0; i < 200000; i++)
    big += static_cast<char>(i * 7);
  ASSERT_EQ(Write(dir + "/big", big, 0644, CGOFUZZ_FILE_UMASK), 0);
  cgofuzz_buf b = {};
  ASSERT_EQ(cgofuzz_buf_puts(&b, "before:"), 0);
  ASSERT_EQ(cgofuzz_file_read((dir + "/big").c_str(), &b), 0);
  EXPECT_EQ(str(b), "before:" + big);
  cgofuzz_buf_free(&b);
  // A file with no size to go by (a pipe's end in /dev/fd would do too).
  EXPECT_EQ(Read("/proc/self/comm"), "cgofuzz_unit\n");
}

TEST_F(File, EmptyFileIsNoBytes) {
  int fd = open((dir + "/empty").c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  close(fd);
  cgofuzz_buf b = {};
  EXPECT_EQ(cgofuzz_file_read((dir + "/empty").c_str(), &b), 0);
  EXPECT_EQ(b.len, 0u);
  EXPECT_FALSE(b.failed);
  cgofuzz_buf_free(&b);
}

TEST_F(File, ReadErrorsLeaveTheBufferAsItWas) {
  cgofuzz_buf b = {};
  ASSERT_EQ(cgofuzz_buf_puts(&b, "kept"), 0);
  errno = 0;
  EXPECT_EQ(cgofuzz_file_read((dir + "/missing").c_str(), &b), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(cgofuzz_file_read(dir.c_str(), &b), -1);
  EXPECT_EQ(errno, EISDIR);
  EXPECT_EQ(str(b), "kept");
  EXPECT_FALSE(b.failed);
  cgofuzz_buf_free(&b);
}

TEST_F(File, WritesANewFileWithTheUmasksMode) {
  Umask u(027);
  std::string p = dir + "/new";
  ASSERT_EQ(Write(p, "hello", 0666, CGOFUZZ_FILE_UMASK), 0);
  EXPECT_EQ(Read(p), "hello");
  EXPECT_EQ(Mode(p), 0640u);
  EXPECT_EQ(Names(dir), std::vector<std::string>{"new"});
  // Exact: the umask does not apply (an extracted executable).
  ASSERT_EQ(Write(dir + "/x", "#!", 0755, CGOFUZZ_FILE_EXACT_MODE), 0);
  EXPECT_EQ(Mode(dir + "/x"), 0755u);
  // A bare name is in the current directory; an empty file is written too.
  int home = open(".", O_RDONLY | O_DIRECTORY);
  ASSERT_GE(home, 0);
  ASSERT_EQ(chdir(dir.c_str()), 0);
  int rc = Write("bare", "", 0666, CGOFUZZ_FILE_UMASK);
  ASSERT_EQ(fchdir(home), 0);
  close(home);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(Read(dir + "/bare"), "");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"bare", "new", "x"}));
}

TEST_F(File, ReplacesAnExistingFile) {
  Umask u(022);
  std::string p = dir + "/f";
  ASSERT_EQ(Write(p, "old contents, longer", 0666, CGOFUZZ_FILE_UMASK), 0);
  ASSERT_EQ(chmod(p.c_str(), 0600), 0);
  struct stat before;
  ASSERT_EQ(stat(p.c_str(), &before), 0);
  // A reader holding the old file keeps reading the old bytes.
  int old = open(p.c_str(), O_RDONLY);
  ASSERT_GE(old, 0);
  ASSERT_EQ(Write(p, "new", 0666, CGOFUZZ_FILE_KEEP_MODE), 0);
  EXPECT_EQ(Read(p), "new");
  EXPECT_EQ(Mode(p), 0600u); // kept, as fopen(path, "w") keeps it
  char buf[64] = {};
  EXPECT_EQ(read(old, buf, sizeof buf - 1), 20);
  EXPECT_STREQ(buf, "old contents, longer");
  close(old);
  // Without KEEP_MODE the new file's mode is mode less the umask.
  ASSERT_EQ(Write(p, "newer", 0666, CGOFUZZ_FILE_UMASK), 0);
  EXPECT_EQ(Mode(p), 0644u);
  // Set-uid is never carried over.
  ASSERT_EQ(chmod(p.c_str(), 04755), 0);
  ASSERT_EQ(Write(p, "again", 0666, CGOFUZZ_FILE_KEEP_MODE), 0);
  EXPECT_EQ(Mode(p), 0755u);
  EXPECT_EQ(Names(dir), std::vector<std::string>{"f"});
}

TEST_F(File, ReplacesASymlinkNotItsTarget) {
  std::string victim = dir + "/victim", p = dir + "/out";
  ASSERT_EQ(Write(victim, "precious", 0644, CGOFUZZ_FILE_UMASK), 0);
  ASSERT_EQ(chmod(victim.c_str(), 04755), 0);
  ASSERT_EQ(symlink(victim.c_str(), p.c_str()), 0);
  ASSERT_EQ(Write(p, "data", 0644, CGOFUZZ_FILE_KEEP_MODE), 0);
  struct stat st;
  ASSERT_EQ(lstat(p.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(Read(p), "data");
  EXPECT_EQ(Read(victim), "precious");
  EXPECT_EQ(Mode(victim), 04755u);
}

TEST_F(File, LongNamesFit) {
  // A 255-byte name: its temporary's directory name is cut to fit.
  std::string p = dir + "/" + std::string(255, 'n');
  ASSERT_EQ(Write(p, "long", 0644, CGOFUZZ_FILE_UMASK), 0);
  EXPECT_EQ(Read(p), "long");
  EXPECT_EQ(Names(dir).size(), 1u);
}

// A failed write leaves the directory as it was: no temporary, the old
// file (if any) untouched. Root writes into read-only directories, so the
// failures are ones that stop root too.
TEST_F(File, FailuresLeaveNoTemporary) {
  const char *step = nullptr;
  // The directory does not exist.
  errno = 0;
  EXPECT_EQ(Write(dir + "/no/such/f", "x", 0644, 0, &step), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_STREQ(step, "create");
  // A regular file in the way of the directory.
  ASSERT_EQ(Write(dir + "/plain", "p", 0644, 0), 0);
  EXPECT_EQ(Write(dir + "/plain/f", "x", 0644, 0, &step), -1);
  EXPECT_EQ(errno, ENOTDIR);
  EXPECT_STREQ(step, "create");
  // The rename fails: a directory has the file's name.
  ASSERT_EQ(mkdir((dir + "/taken").c_str(), 0755), 0);
  EXPECT_EQ(Write(dir + "/taken", "x", 0644, 0, &step), -1);
  EXPECT_EQ(errno, EISDIR);
  EXPECT_STREQ(step, "rename");
  EXPECT_TRUE(Names(dir + "/taken").empty());
  // The write fails (the file size limit): the old file stays whole.
  ASSERT_EQ(Write(dir + "/kept", "old", 0644, 0), 0);
  int e = 0;
  EXPECT_EQ(WriteOverSizeLimit(dir + "/kept", 0, &step, &e), -1);
  EXPECT_EQ(e, EFBIG);
  EXPECT_STREQ(step, "write");
  EXPECT_EQ(Read(dir + "/kept"), "old");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"kept", "plain", "taken"}));
}

// CGOFUZZ_FILE_NO_SYNC (a run's new inputs): the same files, modes and
// failures as the synced writer; a new name is an unnamed file linked into
// place, an existing one replaced the named way, nothing left behind.
TEST_F(File, NoSyncWritesTheSameFiles) {
  Umask u(022);
  const unsigned ns = CGOFUZZ_FILE_NO_SYNC;
  std::string p = dir + "/f";
  ASSERT_EQ(Write(p, "first", 0666, CGOFUZZ_FILE_UMASK | ns), 0);
  EXPECT_EQ(Read(p), "first");
  EXPECT_EQ(Mode(p), 0644u);
  ASSERT_EQ(Write(p, "second, longer", 0666, CGOFUZZ_FILE_UMASK | ns), 0);
  EXPECT_EQ(Read(p), "second, longer");
  ASSERT_EQ(Write(dir + "/x", "", 0751, CGOFUZZ_FILE_EXACT_MODE | ns), 0);
  EXPECT_EQ(Read(dir + "/x"), "");
  EXPECT_EQ(Mode(dir + "/x"), 0751u);
  ASSERT_EQ(chmod(p.c_str(), 0600), 0);
  ASSERT_EQ(Write(p, "kept mode", 0666, CGOFUZZ_FILE_KEEP_MODE | ns), 0);
  EXPECT_EQ(Mode(p), 0600u);
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"f", "x"}));
  const char *step = nullptr;
  errno = 0;
  EXPECT_EQ(Write(dir + "/no/such/f", "x", 0644, ns, &step), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_STREQ(step, "create");
  // A new file's write fails (the file size limit): no file, no temporary.
  int e = 0;
  EXPECT_EQ(WriteOverSizeLimit(dir + "/big", ns, &step, &e), -1);
  EXPECT_EQ(e, EFBIG);
  EXPECT_STREQ(step, "write");
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"f", "x"}));
}

TEST_F(File, ReadOnlyDirectory) {
  std::string ro = dir + "/ro";
  ASSERT_EQ(mkdir(ro.c_str(), 0555), 0);
  ASSERT_EQ(chmod(ro.c_str(), 0555), 0);
  if (access(ro.c_str(), W_OK) == 0)
    GTEST_SKIP() << "permissions are not enforced (running as root)";
  const char *step = nullptr;
  EXPECT_EQ(Write(ro + "/f", "x", 0644, 0, &step), -1);
  EXPECT_EQ(errno, EACCES);
  EXPECT_STREQ(step, "create");
  EXPECT_TRUE(Names(ro).empty());
}

TEST_F(File, SymlinkReplacedAtomically) {
  std::string p = dir + "/link";
  ASSERT_EQ(cgofuzz_file_symlink_atomic("/nowhere", p.c_str()), 0);
  ASSERT_EQ(cgofuzz_file_symlink_atomic("/bin/sh", p.c_str()), 0);
  char got[64] = {};
  ASSERT_GT(readlink(p.c_str(), got, sizeof got - 1), 0);
  EXPECT_STREQ(got, "/bin/sh");
  EXPECT_EQ(Names(dir), std::vector<std::string>{"link"});
}

TEST_F(File, MoveRenames) {
  ASSERT_EQ(Write(dir + "/a", "moved", 0644, 0), 0);
  ASSERT_EQ(mkdir((dir + "/d").c_str(), 0755), 0);
  EXPECT_EQ(cgofuzz_file_move((dir + "/a").c_str(), (dir + "/d/a").c_str()), 0);
  EXPECT_EQ(Read(dir + "/d/a"), "moved");
  errno = 0;
  EXPECT_EQ(cgofuzz_file_move((dir + "/a").c_str(), (dir + "/b").c_str()), -1);
  EXPECT_EQ(errno, ENOENT);
}

} // namespace

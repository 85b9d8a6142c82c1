// test_shm.cc: the shared-memory file between coordinator and worker.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm.h"

// Offsets of Go's sharedMemHeader as reported by unsafe.Offsetof/Sizeof
// under go1.26 on linux/amd64: 0, 8, 16, 24, 32; size 40.
static_assert(offsetof(cgofuzz_shm_header, count) == 0, "count");
static_assert(offsetof(cgofuzz_shm_header, value_len) == 8, "valueLen");
static_assert(offsetof(cgofuzz_shm_header, rand_state) == 16, "randState");
static_assert(offsetof(cgofuzz_shm_header, rand_inc) == 24, "randInc");
static_assert(offsetof(cgofuzz_shm_header, raw_in_mem) == 32, "rawInMem");
static_assert(sizeof(cgofuzz_shm_header) == 40, "sizeof");
static_assert(CGOFUZZ_SHM_HEADER_SIZE == 40, "header size");
static_assert(CGOFUZZ_FUZZ_IN_FD == 3 && CGOFUZZ_FUZZ_OUT_FD == 4 &&
                  CGOFUZZ_SHM_FD == 5,
              "Go's worker reads fd 3, writes fd 4 and maps fd 5");

namespace {

std::string MakeTempDir() {
  char tmpl[] = "/tmp/cgofuzz-shm-test-XXXXXX";
  char *d = mkdtemp(tmpl);
  EXPECT_NE(d, nullptr);
  return d ? d : "";
}

struct TmpdirGuard {
  std::string old;
  bool had;
  explicit TmpdirGuard(const std::string &v) {
    const char *o = getenv("TMPDIR");
    had = o != nullptr;
    if (had)
      old = o;
    setenv("TMPDIR", v.c_str(), 1);
  }
  ~TmpdirGuard() {
    if (had)
      setenv("TMPDIR", old.c_str(), 1);
    else
      unsetenv("TMPDIR");
  }
};

} // namespace

TEST(Shm, CreateMapsHeaderPlusCapacityAndLeavesNoFile) {
  std::string dir = MakeTempDir();
  TmpdirGuard g(dir);
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create_file(&m, 100, &err), 0) << err.msg;
  ASSERT_NE(m.path, nullptr);
  std::string path = m.path;
  EXPECT_EQ(path.rfind(dir + "/fuzz-", 0), 0u) << path;
  EXPECT_EQ(m.size, 140u);
  EXPECT_EQ(cgofuzz_shm_value_cap(&m), 100u);
  struct stat st;
  // The name is gone at once (nothing leaks if the process is killed);
  // the descriptor keeps the file.
  EXPECT_NE(stat(path.c_str(), &st), 0);
  ASSERT_EQ(fstat(m.fd, &st), 0);
  EXPECT_EQ(st.st_size, 140);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_nlink, 0u);
  // A fresh file reads as zeros.
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&m);
  EXPECT_EQ(h->count, 0);
  EXPECT_EQ(h->value_len, 0);
  EXPECT_EQ(h->raw_in_mem, 0);
  cgofuzz_shm_close(&m);
  EXPECT_NE(stat(path.c_str(), &st), 0);
  EXPECT_EQ(m.region, nullptr);
  EXPECT_EQ(m.fd, -1);
  cgofuzz_shm_close(&m); // idempotent
  rmdir(dir.c_str());
}

TEST(Shm, ZeroCapacityIsJustTheHeader) {
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&m, 0, &err), 0) << err.msg;
  EXPECT_EQ(m.size, 40u);
  EXPECT_EQ(cgofuzz_shm_value_cap(&m), 0u);
  EXPECT_EQ(cgofuzz_shm_set_value(&m, nullptr, 0, &err), 0);
  cgofuzz_shm_close(&m);
}

TEST(Shm, CreateErrorNamesPathAndReason) {
  TmpdirGuard g("/nonexistent-cgofuzz-dir");
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create_file(&m, 10, &err), -1);
  EXPECT_NE(strstr(err.msg, "/nonexistent-cgofuzz-dir/fuzz-"), nullptr)
      << err.msg;
  EXPECT_NE(strstr(err.msg, strerror(ENOENT)), nullptr) << err.msg;
  EXPECT_EQ(m.region, nullptr);
}

TEST(Shm, EmptyTmpdirMeansTmp) {
  TmpdirGuard g("");
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create_file(&m, 1, &err), 0) << err.msg;
  ASSERT_NE(m.path, nullptr);
  EXPECT_EQ(std::string(m.path).rfind("/tmp/fuzz-", 0), 0u) << m.path;
  cgofuzz_shm_close(&m);
}

#ifdef __linux__
// On Linux the file has no name and no place in $TMPDIR (a full file
// system there was a SIGBUS later, when a page of the sparse file could
// not be had): an unusable $TMPDIR does not matter.
TEST(Shm, CreateIsAMemfdOnLinux) {
  TmpdirGuard g("/nonexistent-cgofuzz-dir");
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&m, 100, &err), 0) << err.msg;
  EXPECT_EQ(m.path, nullptr);
  EXPECT_EQ(m.size, 140u);
  char link[64], target[256];
  snprintf(link, sizeof link, "/proc/self/fd/%d", m.fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  ASSERT_GT(n, 0);
  target[n] = 0;
  EXPECT_EQ(std::string(target).rfind("/memfd:fuzz-mem", 0), 0u) << target;
  cgofuzz_shm_close(&m);
}
#endif

TEST(Shm, SetValue) {
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&m, 8, &err), 0) << err.msg;
  const uint8_t v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  ASSERT_EQ(cgofuzz_shm_set_value(&m, v, 8, &err), 0);
  EXPECT_EQ(cgofuzz_shm_hdr(&m)->value_len, 8);
  EXPECT_EQ(memcmp(cgofuzz_shm_value(&m), v, 8), 0);
  ASSERT_EQ(cgofuzz_shm_set_value(&m, v, 9, &err), -1);
  EXPECT_STREQ(err.msg, "value length 9 larger than shared memory capacity 8");
  EXPECT_EQ(cgofuzz_shm_hdr(&m)->value_len, 8); // unchanged on error
  cgofuzz_shm_close(&m);
}

TEST(Shm, MapFdSharesMemory) {
  cgofuzz_shm a, b;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&a, 64, &err), 0) << err.msg;
  int fd = dup(a.fd);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(cgofuzz_shm_map_fd(&b, fd, &err), 0) << err.msg;
  EXPECT_EQ(b.size, a.size);
  EXPECT_EQ(b.path, nullptr);
  cgofuzz_shm_hdr(&b)->count = 42;
  cgofuzz_shm_hdr(&b)->rand_state = 0x0123456789abcdefULL;
  cgofuzz_shm_hdr(&b)->raw_in_mem = 1;
  EXPECT_EQ(cgofuzz_shm_hdr(&a)->count, 42);
  EXPECT_EQ(cgofuzz_shm_hdr(&a)->rand_state, 0x0123456789abcdefULL);
  // Byte 32 is Go's rawInMem bool.
  EXPECT_EQ(a.region[32], 1);
  cgofuzz_shm_close(&b);
  // Closing the worker's side leaves the coordinator's mapping intact.
  EXPECT_EQ(cgofuzz_shm_hdr(&a)->count, 42);
  cgofuzz_shm_close(&a);
}

TEST(Shm, WorkerInChildProcessSeesAndWrites) {
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&m, 16, &err), 0) << err.msg;
  const uint8_t v[] = "abc";
  ASSERT_EQ(cgofuzz_shm_set_value(&m, v, 3, &err), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // As a worker would: the file on fd 5, mapped by its fstat size.
    // munmap the inherited mapping first to prove the new one is used.
    munmap(m.region, m.size);
    if (dup2(m.fd, CGOFUZZ_SHM_FD) < 0)
      _exit(2);
    cgofuzz_shm w;
    cgofuzz_err e;
    if (cgofuzz_shm_map_fd(&w, CGOFUZZ_SHM_FD, &e) != 0)
      _exit(3);
    if (w.size != 56 || cgofuzz_shm_hdr(&w)->value_len != 3 ||
        memcmp(cgofuzz_shm_value(&w), "abc", 3) != 0)
      _exit(4);
    cgofuzz_shm_hdr(&w)->count = 7;
    cgofuzz_shm_set_value(&w, (const uint8_t *)"xyzw", 4, &e);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(cgofuzz_shm_hdr(&m)->count, 7);
  EXPECT_EQ(cgofuzz_shm_hdr(&m)->value_len, 4);
  EXPECT_EQ(memcmp(cgofuzz_shm_value(&m), "xyzw", 4), 0);
  cgofuzz_shm_close(&m);
}

TEST(Shm, MapFdErrors) {
  cgofuzz_shm m;
  cgofuzz_err err;
  EXPECT_EQ(cgofuzz_shm_map_fd(&m, 987654, &err), -1);
  EXPECT_NE(strstr(err.msg, "fd 987654"), nullptr) << err.msg;
  EXPECT_NE(strstr(err.msg, strerror(EBADF)), nullptr) << err.msg;

  // Smaller than the header: refused rather than mapped and overrun.
  FILE *f = tmpfile();
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(ftruncate(fileno(f), 39), 0);
  int fd = dup(fileno(f));
  EXPECT_EQ(cgofuzz_shm_map_fd(&m, fd, &err), -1);
  EXPECT_NE(strstr(err.msg, "39 bytes"), nullptr) << err.msg;
  close(fd);
  ASSERT_EQ(ftruncate(fileno(f), 40), 0);
  fd = dup(fileno(f));
  ASSERT_EQ(cgofuzz_shm_map_fd(&m, fd, &err), 0) << err.msg;
  EXPECT_EQ(cgofuzz_shm_value_cap(&m), 0u);
  cgofuzz_shm_close(&m);
  fclose(f);
}

TEST(Shm, CreatedFdIsCloseOnExec) {
  cgofuzz_shm m;
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_shm_create(&m, 1, &err), 0) << err.msg;
  EXPECT_NE(fcntl(m.fd, F_GETFD) & FD_CLOEXEC, 0);
  cgofuzz_shm_close(&m);
}

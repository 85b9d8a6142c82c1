// test_corpus_write.cc: cgofuzz_coord_corpus_write, the atomic write of a
// crasher or new corpus entry: the file appears whole under Go's
// content-addressed name, and nothing else is ever left in the directory
// (go test reads every file there and fails the target on a bad one).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

extern "C" {
#include "coord_internal.h"
}

namespace fs = std::filesystem;

namespace {

// Go wrote this very file as testdata/fuzz/FuzzError/abff33899e7cd4f9
// (go1.26.8, a t.Errorf on the input "00"): the name is the first 16 hex
// digits of the SHA-256 of the bytes.
const std::string kData = "go test fuzz v1\nstring(\"00\")\n";
const std::string kName = "abff33899e7cd4f9";

// A fresh directory for one test, removed with everything in it.
struct TempDir {
  std::string path;
  TempDir() {
    const char *t = getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/cwrite-XXXXXX";
    if (mkdtemp(&tmpl[0]))
      path = tmpl;
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir() {
    if (path.empty())
      return;
    // Permissions a test took away must not stop the cleanup.
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_directory(ec))
        chmod(it->path().c_str(), 0755);
    chmod(path.c_str(), 0755);
    fs::remove_all(path, ec);
  }
};

// Every entry of dir, hidden ones included, as paths relative to dir.
std::set<std::string> Tree(const std::string &dir) {
  std::set<std::string> out;
  for (auto &e : fs::recursive_directory_iterator(dir))
    out.insert(fs::relative(e.path(), dir).string());
  return out;
}

std::string Slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Writes data to dir; returns the path (empty on failure, with err set).
std::string Write(const std::string &dir, const std::string &data,
                  cgofuzz_err *err) {
  char *path = nullptr;
  int rc = cgofuzz_coord_corpus_write(
      dir.c_str(), reinterpret_cast<const uint8_t *>(data.data()), data.size(),
      &path, err);
  std::string p = rc == 0 && path ? path : "";
  EXPECT_EQ(rc == 0, path != nullptr);
  free(path);
  return p;
}

struct Umask {
  mode_t old;
  explicit Umask(mode_t m) : old(umask(m)) {}
  ~Umask() { umask(old); }
};

TEST(CorpusWrite, WholeFileUnderGoName) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  Umask u(022);
  cgofuzz_err err{};
  std::string p = Write(t.path, kData, &err);
  ASSERT_EQ(p, t.path + "/" + kName) << err.msg;
  EXPECT_EQ(Slurp(p), kData);
  EXPECT_EQ(Tree(t.path), std::set<std::string>{kName});
  struct stat st;
  ASSERT_EQ(stat(p.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0644u); // 0666 & ~umask, as os.WriteFile
}

TEST(CorpusWrite, ModeFollowsUmask) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  Umask u(077);
  cgofuzz_err err{};
  std::string p = Write(t.path, kData, &err);
  ASSERT_FALSE(p.empty()) << err.msg;
  struct stat st;
  ASSERT_EQ(stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST(CorpusWrite, CreatesMissingDirectories) {
  // testdata/fuzz/<Target> usually does not exist before the first crash.
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  std::string dir = t.path + "/testdata/fuzz/FuzzError";
  cgofuzz_err err{};
  std::string p = Write(dir, kData, &err);
  ASSERT_EQ(p, dir + "/" + kName) << err.msg;
  EXPECT_EQ(Slurp(p), kData);
  EXPECT_EQ(Tree(t.path),
            (std::set<std::string>{"testdata", "testdata/fuzz",
                                   "testdata/fuzz/FuzzError",
                                   "testdata/fuzz/FuzzError/" + kName}));
  // A trailing slash names the same directory.
  EXPECT_EQ(Write(dir + "/", "go test fuzz v1\nint(1)\n", &err),
            dir + "//" + "319194200cbebc1b")
      << err.msg;
}

TEST(CorpusWrite, ExistingIdenticalFileIsFine) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  cgofuzz_err err{};
  std::string p1 = Write(t.path, kData, &err);
  ASSERT_FALSE(p1.empty()) << err.msg;
  std::string p2 = Write(t.path, kData, &err);
  EXPECT_EQ(p2, p1) << err.msg;
  EXPECT_EQ(Slurp(p1), kData);
  EXPECT_EQ(Tree(t.path), std::set<std::string>{kName});
}

TEST(CorpusWrite, DistinctContentsDistinctFiles) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  cgofuzz_err err{};
  std::string other = "go test fuzz v1\nint(1)\n";
  ASSERT_FALSE(Write(t.path, kData, &err).empty()) << err.msg;
  std::string p = Write(t.path, other, &err);
  ASSERT_EQ(p, t.path + "/319194200cbebc1b") << err.msg;
  EXPECT_EQ(Slurp(p), other);
  // Empty data is written too (its name is SHA-256 of nothing).
  std::string e = Write(t.path, "", &err);
  ASSERT_EQ(e, t.path + "/e3b0c44298fc1c14") << err.msg;
  EXPECT_EQ(Slurp(e), "");
  EXPECT_EQ(Tree(t.path), (std::set<std::string>{kName, "319194200cbebc1b",
                                                 "e3b0c44298fc1c14"}));
}

TEST(CorpusWrite, LargeFileIsWhole) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  std::string big = "go test fuzz v1\n[]byte(\"";
  for (int i = 0; i < 300000; i++)
    big += "\\x" + std::string(1, "0123456789abcdef"[i % 16]) + "f";
  big += "\")\n";
  cgofuzz_err err{};
  std::string p = Write(t.path, big, &err);
  ASSERT_FALSE(p.empty()) << err.msg;
  EXPECT_EQ(Slurp(p), big);
  EXPECT_EQ(Tree(t.path).size(), 1u);
}

// The error names the file, the step and the reason, and the directory is
// left as it was.
void ExpectFails(const std::string &dir, const std::string &step,
                 const std::string &reason) {
  cgofuzz_err err{};
  EXPECT_EQ(Write(dir, kData, &err), "");
  EXPECT_EQ(std::string(err.msg), "writing " + dir + "/" + kName + ": " + step +
                                      " failed: " + reason);
}

TEST(CorpusWrite, DirectoryUnderARegularFile) {
  // mkdir under a regular file fails with ENOTDIR even for root.
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  std::string file = t.path + "/plain";
  std::ofstream(file) << "x";
  ExpectFails(file + "/fuzz/FuzzX", "mkdir", strerror(ENOTDIR));
  // An existing regular file as the directory itself: the same
  // (cgofuzz_dir_make_all checks that what is there is a directory).
  ExpectFails(file, "mkdir", strerror(ENOTDIR));
  EXPECT_EQ(Tree(t.path), std::set<std::string>{"plain"});
  EXPECT_EQ(Slurp(file), "x");
}

TEST(CorpusWrite, NameTakenByADirectory) {
  // The final rename fails (a directory has the file's name): the
  // temporary file and directory are removed again.
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  ASSERT_EQ(mkdir((t.path + "/" + kName).c_str(), 0755), 0);
  ExpectFails(t.path, "rename", strerror(EISDIR));
  EXPECT_EQ(Tree(t.path), std::set<std::string>{kName});
}

TEST(CorpusWrite, ReadOnlyDirectory) {
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  std::string dir = t.path + "/ro";
  ASSERT_EQ(mkdir(dir.c_str(), 0555), 0);
  ASSERT_EQ(chmod(dir.c_str(), 0555), 0); // whatever the umask
  // Root (CAP_DAC_OVERRIDE) writes anyway: see whether it does here.
  std::string probe = dir + "/probe";
  int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd >= 0) {
    close(fd);
    unlink(probe.c_str());
    GTEST_SKIP() << "permissions are not enforced (running as root)";
  }
  ExpectFails(dir, "create", strerror(EACCES));
  EXPECT_TRUE(Tree(dir).empty());
}

TEST(CorpusWrite, ImmutableDirectory) {
  // chattr +i stops root too, where the file system and our capabilities
  // allow setting it.
  TempDir t;
  ASSERT_FALSE(t.path.empty());
  std::string dir = t.path + "/immutable";
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  int flags = 0;
  if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0 ||
      (flags |= FS_IMMUTABLE_FL, ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)) {
    int e = errno;
    close(fd);
    GTEST_SKIP() << "cannot set the immutable flag here: " << strerror(e);
  }
  ExpectFails(dir, "create", strerror(EPERM));
  flags &= ~FS_IMMUTABLE_FL;
  EXPECT_EQ(ioctl(fd, FS_IOC_SETFLAGS, &flags), 0) << strerror(errno);
  close(fd);
  EXPECT_TRUE(Tree(dir).empty());
}

} // namespace

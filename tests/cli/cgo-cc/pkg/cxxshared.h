// An inline function of a template both C++ files use: clang puts its code
// and its counters in a COMDAT group in each object, and the linker keeps
// one copy; cgo-cc must count that copy once (a C++ package with two files
// like these failed to link before it did).
#include <map>
#include <string>

inline int cxx_pairs(const std::string &s) {
  std::map<std::string, int> m;
  for (size_t i = 0; i + 2 <= s.size(); i++)
    m[s.substr(i, 2)]++;
  return static_cast<int>(m.size());
}

#include <string>

#include "cxxshared.h"

extern "C" int cxx_magic(const unsigned char *p, unsigned long n) {
  std::string s(reinterpret_cast<const char *>(p), n);
  if (cxx_pairs(s) > 4096)
    return 2;
  if (s.size() >= 4 && s[0] == 'C') {
    if (s[1] == 'X') {
      if (s[2] == 'X') {
        if (s[3] == '!') {
          return 1;
        }
      }
    }
  }
  return 0;
}

#include "cxxshared.h"

extern "C" int cxx_pairs_of(const unsigned char *p, unsigned long n) {
  return cxx_pairs(std::string(reinterpret_cast<const char *>(p), n));
}

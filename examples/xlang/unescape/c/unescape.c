/* unescape.c: see unescape.h. */
#include "unescape.h"

int xl_bug;

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return xl_bug == 1 ? -1 : c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

long xl_unescape(const char *s, size_t n, int plus, uint8_t *out,
                 size_t *err_off) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '%') {
      int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
      int lo = i + 2 < n ? hexval(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        *err_off = i;
        return -1;
      }
      out[o++] = (uint8_t)(hi << 4 | lo);
      i += 2;
    } else if (c == '+' && plus) {
      out[o++] = ' ';
    } else {
      out[o++] = (uint8_t)c;
    }
  }
  return (long)o;
}

size_t xl_escape(const uint8_t *b, size_t n, char *out) {
  static const char digits[] = "0123456789ABCDEF";
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = b[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~' || (xl_bug == 2 && c == '%')) {
      out[o++] = (char)c;
      continue;
    }
    out[o++] = '%';
    out[o++] = digits[c >> 4];
    out[o++] = digits[c & 15];
  }
  return o;
}

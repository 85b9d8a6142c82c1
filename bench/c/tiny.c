/* tiny.c: a tiny key=value;... parser, a small target with a few dozen
 * edges (measures execs/sec on a target that does some work). */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned keys = 0, digits = 0, state = 0, sum = 0;
  for (size_t i = 0; i < size; i++) {
    uint8_t c = data[i];
    switch (state) {
    case 0: /* key */
      if (c == '=')
        state = 1, keys++;
      else if (c == ';')
        return 0;
      else if (!((c >= 'a' && c <= 'z') || c == '_'))
        return 0;
      break;
    case 1: /* value */
      if (c >= '0' && c <= '9')
        sum = sum * 10 + (c - '0'), digits++;
      else if (c == ';')
        state = 0;
      else if (c == '"')
        state = 2;
      else
        return 0;
      break;
    case 2: /* quoted */
      if (c == '\\')
        state = 3;
      else if (c == '"')
        state = 1;
      break;
    case 3:
      state = 2;
      break;
    }
  }
  sink = keys + digits + sum;
  return 0;
}

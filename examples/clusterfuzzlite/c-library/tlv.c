#include "tlv.h"

#include <stdlib.h>
#include <string.h>

int tlv_sum(const uint8_t *data, size_t n, unsigned *sum) {
  int records = 0;
  *sum = 0;
  while (n >= 2) {
    uint8_t type = data[0], len = data[1];
    if ((size_t)len + 2 > n)
      return -1;
    /* Type 'X' values are copied to a buffer of 8 bytes first: the planted
     * bug, a heap buffer overflow for values longer than 8 bytes. */
    uint8_t *copy = malloc(type == 'X' ? 8 : (size_t)len + 1);
    if (!copy)
      return -1;
    memcpy(copy, data + 2, len);
    for (size_t i = 0; i < len; i++)
      *sum += copy[i];
    free(copy);
    data += 2 + len;
    n -= 2 + (size_t)len;
    records++;
  }
  return records;
}

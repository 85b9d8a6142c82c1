#ifndef JD_H
#define JD_H

#include <stddef.h>
#include <stdint.h>

/* Results of jd_parse. */
enum { JD_OK = 0, JD_REJECT = -1, JD_NOMEM = -2, JD_PRINT = -3 };

/* What jd_parse made of a JSON text. tree is the walk of cJSON's tree in the
 * encoding described in jd.c; printed is cJSON_PrintUnformatted's text (NUL
 * terminated), or NULL if it was not asked for. Both are malloc'd: free them
 * with jd_free. */
typedef struct {
  uint8_t *tree;
  size_t tree_len;
  char *printed;
} jd_result;

int jd_parse(const uint8_t *in, size_t n, int print, jd_result *r);
void jd_free(jd_result *r);

#endif

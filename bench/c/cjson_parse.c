/* cjson_parse.c: cJSON parses, prints and minifies arbitrary input (after
 * cJSON's own fuzzing/cjson_read_fuzzer.c, simplified). */
#include "cJSON.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  char *s = malloc(size + 1);
  if (!s)
    return 0;
  memcpy(s, data, size);
  s[size] = 0;
  cJSON *j = cJSON_ParseWithOpts(s, NULL, 0);
  if (j) {
    char *p = cJSON_Print(j);
    free(p);
    p = cJSON_PrintUnformatted(j);
    free(p);
    cJSON_Delete(j);
  }
  cJSON_Minify(s);
  free(s);
  return 0;
}

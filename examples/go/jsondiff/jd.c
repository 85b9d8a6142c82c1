/* cJSON, seen from Go: parse a byte slice with cJSON_ParseWithLengthOpts
 * (the whole input must be one value, trailing whitespace allowed) and walk
 * the tree into a compact encoding that jsondiff.go decodes in one pass:
 *
 *   'n' | 'f' | 't'                       null, false, true
 *   'd' <8 bytes>                          number: the double, host byte order
 *   's' <u32 len> <bytes>                  string (cJSON's C string: up to NUL)
 *   '[' value* ']'                         array
 *   '{' ('k' <u32 len> <key bytes> value)* '}'
 *                                          object, members in input order
 *
 * u32 is in host byte order. (Members need their 'k': a key's length can
 * start with the byte '}'.) Nesting is at most CJSON_NESTING_LIMIT (1000)
 * deep, so the walk recurses.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "jd.h"

typedef struct {
  uint8_t *p;
  size_t len, cap;
  int oom;
} buf;

static void put(buf *b, const void *src, size_t n) {
  if (b->oom)
    return;
  if (b->cap - b->len < n) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n)
      cap *= 2;
    uint8_t *np = realloc(b->p, cap);
    if (np == NULL) {
      b->oom = 1;
      return;
    }
    b->p = np;
    b->cap = cap;
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

static void put_tag(buf *b, uint8_t c) { put(b, &c, 1); }

static void put_str(buf *b, const char *s) {
  size_t n = s ? strlen(s) : 0;
  uint32_t n32 = (uint32_t)n;
  if (n > UINT32_MAX) {
    b->oom = 1;
    return;
  }
  put(b, &n32, sizeof n32);
  put(b, s, n);
}

static void walk(buf *b, const cJSON *it) {
  const cJSON *c;
  switch (it->type & 0xFF) {
  case cJSON_NULL:
    put_tag(b, 'n');
    break;
  case cJSON_False:
    put_tag(b, 'f');
    break;
  case cJSON_True:
    put_tag(b, 't');
    break;
  case cJSON_Number:
    put_tag(b, 'd');
    put(b, &it->valuedouble, sizeof it->valuedouble);
    break;
  case cJSON_String:
    put_tag(b, 's');
    put_str(b, it->valuestring);
    break;
  case cJSON_Array:
    put_tag(b, '[');
    for (c = it->child; c != NULL; c = c->next)
      walk(b, c);
    put_tag(b, ']');
    break;
  case cJSON_Object:
    put_tag(b, '{');
    for (c = it->child; c != NULL; c = c->next) {
      put_tag(b, 'k');
      put_str(b, c->string);
      walk(b, c);
    }
    put_tag(b, '}');
    break;
  default: /* cJSON_Raw or invalid: the parser makes neither */
    put_tag(b, '?');
    break;
  }
}

int jd_parse(const uint8_t *in, size_t n, int print, jd_result *r) {
  memset(r, 0, sizeof *r);
  /* cJSON's "require null terminated" check wants a NUL inside the given
   * length: copy the input and add one. The copy is C memory because cJSON
   * keeps a pointer to its input in its global error state after returning,
   * which must not be a Go pointer; it dangles after the free below, but only
   * cJSON_GetErrorPtr reads it and nothing here calls that. */
  char *text = malloc(n + 1);
  if (text == NULL)
    return JD_NOMEM;
  if (n > 0)
    memcpy(text, in, n);
  text[n] = '\0';
  cJSON *root = cJSON_ParseWithLengthOpts(text, n + 1, NULL, 1);
  free(text);
  if (root == NULL)
    return JD_REJECT; /* or out of memory: cJSON does not tell */

  buf b = {NULL, 0, 0, 0};
  walk(&b, root);
  if (b.oom) {
    free(b.p);
    cJSON_Delete(root);
    return JD_NOMEM;
  }
  r->tree = b.p;
  r->tree_len = b.len;
  if (print) {
    r->printed = cJSON_PrintUnformatted(root);
    if (r->printed == NULL) {
      cJSON_Delete(root);
      jd_free(r);
      return JD_PRINT;
    }
  }
  cJSON_Delete(root);
  return JD_OK;
}

void jd_free(jd_result *r) {
  free(r->tree);
  cJSON_free(r->printed); /* cJSON's allocator: malloc unless hooked */
  r->tree = NULL;
  r->printed = NULL;
}

/* jsonc_parse.c: json-c's upstream libFuzzer harness, in C. It follows
 * json-c's fuzz/tokener_parse_ex_fuzzer.cc as of json-c commit 88bce2b
 * (what OSS-Fuzz builds): one json_tokener_parse_ex over the input, the
 * members of a top-level object visited (type and string form), the result
 * printed pretty and spaced, everything freed. The copy in Debian's json-c
 * 0.16 source package does not compile (it iterates an undeclared `jobj`
 * and passes flags to json_object_to_json_string), hence this file; it is
 * C rather than C++ so that every engine links it as it links the others. */
#include <stddef.h>
#include <stdint.h>

#include <json.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_tokener *tok = json_tokener_new();
  json_object *obj = json_tokener_parse_ex(tok, (const char *)data, (int)size);
  if (json_object_is_type(obj, json_type_object)) {
    json_object_object_foreach(obj, key, val) {
      (void)key;
      (void)json_object_get_type(val);
      (void)json_object_get_string(val);
    }
  }
  (void)json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
                                                JSON_C_TO_STRING_SPACED);
  json_object_put(obj);
  json_tokener_free(tok);
  return 0;
}

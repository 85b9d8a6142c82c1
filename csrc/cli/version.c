/*
 * version.c: cgofuzz's version, the one `cgofuzz version` prints and the
 * cgo compilers put in their -### line. CMakeLists.txt reads the #define
 * below for the package version, so it stays in this form.
 */
#include "cli.h"

#define CGOFUZZ_VERSION "0.1.0"
const char cli_version[] = CGOFUZZ_VERSION;

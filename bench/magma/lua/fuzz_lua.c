/*
 * fuzz_lua.c: a libFuzzer harness for Magma's lua target.
 *
 * Magma fuzzes lua through the `lua` interpreter binary (a file argument,
 * AFL style); a libFuzzer build needs LLVMFuzzerTestOneInput, so this runs
 * the input as a Lua chunk the way `lua FILE` does: a fresh state, the
 * standard libraries, load (text chunks only: Lua's undump trusts its input,
 * so binary chunks would crash on bytes no Magma bug is about) and call.
 *
 * Sandbox, so a fuzzed script cannot touch the machine: os.execute, exit,
 * remove, rename and tmpname are removed; io.popen stays (bug LUA003's
 * canary is in it) but never starts a process (fuzz_lua_sandbox.h, built
 * into liolib.c); stdin is /dev/null in campaigns. An allocator with a
 * 64 MiB budget turns huge allocations into Lua memory errors instead of
 * engine OOM kills, identically for both engines.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#define FUZZ_LUA_BUDGET ((size_t)64 << 20)

static size_t in_use;

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    in_use -= old;
    return NULL;
  }
  if (nsize > old && in_use - old + nsize > FUZZ_LUA_BUDGET)
    return NULL;
  void *p = realloc(ptr, nsize);
  if (p)
    in_use = in_use - old + nsize;
  return p;
}

static void drop(lua_State *L, const char *lib, const char *const *names) {
  lua_getglobal(L, lib);
  if (lua_istable(L, -1))
    for (; *names; names++) {
      lua_pushnil(L);
      lua_setfield(L, -2, *names);
    }
  lua_pop(L, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const os_unsafe[] = {"execute", "exit",    "remove",
                                          "rename",  "tmpname", NULL};
  in_use = 0;
  lua_State *L = lua_newstate(budget_alloc, NULL);
  if (L == NULL)
    return 0;
  luaL_openlibs(L);
  drop(L, "os", os_unsafe);
  if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK)
    lua_pcall(L, 0, 0, 0);
  lua_close(L);
  return 0;
}

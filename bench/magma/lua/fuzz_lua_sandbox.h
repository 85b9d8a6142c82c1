/*
 * fuzz_lua_sandbox.h: force-included (-include) into lua's library sources
 * for the fuzz_lua harness. liolib.c takes l_popen/l_pclose from here
 * instead of popen(3): io.popen runs its argument checks (and bug LUA003's
 * canary) as usual, then fails with EPERM without starting a shell.
 */
#ifndef FUZZ_LUA_SANDBOX_H
#define FUZZ_LUA_SANDBOX_H
#define l_popen(L, c, m)                                                       \
  ((void)(L), (void)(c), (void)(m), errno = EPERM, (FILE *)0)
#define l_pclose(L, file) ((void)(L), (void)(file), -1)
#endif

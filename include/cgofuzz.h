/* cgofuzz.h: everything public in one include. */
#ifndef CGOFUZZ_H
#define CGOFUZZ_H
#include "cgofuzz/buf.h"
#include "cgofuzz/codec.h"
#include "cgofuzz/minimize.h"
#include "cgofuzz/mutator.h"
#include "cgofuzz/pcg.h"
#include "cgofuzz/shm.h"
#include "cgofuzz/value.h"
#include "cgofuzz/wire.h"
#endif

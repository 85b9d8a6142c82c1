#ifndef PLANTED_H
#define PLANTED_H

#include <stddef.h>
#include <stdint.h>

uint32_t planted_sum(const uint8_t *p, size_t n);

#endif

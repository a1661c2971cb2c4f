/* models/util/fnv1a.h - FNV-1a, the 64-bit hash of bytes hetmap names
 * things by: a platform description's digest (platform_load.c), the cache
 * name of a Slurm allocation's calibration (mapper/cli/defaults.c). */
#ifndef HM_FNV1A_H
#define HM_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define HM_FNV1A_START 0xcbf29ce484222325ull

/* 'h' (HM_FNV1A_START to begin) carried over 'len' bytes at 'data'. */
static inline uint64_t hm_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

#endif /* HM_FNV1A_H */

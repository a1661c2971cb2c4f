/* models/platform/generator.h - platforms from a JSON description of how to build
 * them, for studying the methods on clusters one does not have.
 *
 *   {
 *     "hetmap_generator": 1,
 *     "name": "mTORC-01", "description": "...",
 *     "from": "builtin:torc",          a platform file or builtin to start from
 *     "keep_processors": true,         false: keep only its types and network
 *     "types": { ... },                more types, in the platform syntax
 *     "groups": [                      nodes with real host names, one
 *       {"type": "hsw", "host_prefix": "hsw", "count": 4,   processor each
 *        "first": 1, "digits": 2, "cores": 16, "memory": "64GiB"},  hsw01..hsw04
 *       {"type": "skl", "hosts": ["skl-a", "skl-b"], "cores": 32} ],
 *     "add": [ {"type": "17P4", "count": 11, "per_host": 1, "host_prefix": "x"} ],
 *     "random": {                      a random family, added to the rest
 *       "seed": 7, "processors": 500, "types": 10, "speed_ratio": 50,
 *       "per_host": 4, "k3": 1e-9, "k2_over_k3": [4, 12]
 *     },
 *     "network": { ... },              replaces the network (platform syntax)
 *     "block_sizes": [64, 128, 256]    replaces the candidate block sizes
 *   }
 *
 * Random types: speed factors log-uniform between 1 and speed_ratio (the
 * first type is 1, the last speed_ratio, so the ratio is exact); k3_dgemm
 * at b = 16/32/64/128 is k3 x factor x (1.3, 1.1, 1.0, 1.0), k3_dtrsm that
 * times (3, 2, 1.5, 1.2) - the shapes measured on this project's machines
 * (smaller blocks run slower, dtrsm more so) - and k2_dgetf2 is k3 x factor
 * x a uniform draw from k2_over_k3. Processors get uniformly drawn types
 * and sit per_host to a host. Without "network", a random family gets
 * shared memory 1 us / 0.001 us per word within a node, 20 us / 0.01 us
 * between nodes, 0.5 us / 0.0005 us within a processor (chosen values).
 * The same description and seed always give the same platform. */
#ifndef HM_GENERATOR_H
#define HM_GENERATOR_H

#include <cJSON.h>
#include "models/util/error.h"

/* The platform JSON built from 'config' (caller frees), or NULL with
 * 'err' set (JSON path and reason). The result is not yet validated: load
 * it with hm_platform_load_buffer. */
cJSON *hm_generate_platform(const cJSON *config, struct hm_error *err);

#endif /* HM_GENERATOR_H */

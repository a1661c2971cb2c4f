/* models/platform/simgrid_platform.h - a platform as SimGrid's platform XML, so that
 * SMPI runs unmodified MPI programs (ScaLAPACK) on it (models/platform/README.md;
 * 'hetmap export simgrid' and 'hetmap run --launcher smpi').
 *
 *  - one SimGrid host per processor, named as the processor, with its
 *    cores and the speed 1/k3_dgemm(b) flop/s: SMPI times every
 *    computation for real on this machine and scales it by
 *    smpi/host-speed (this machine's dgemm rate) over that speed;
 *  - one network card per host, split-duplex, shared by every processor
 *    and process on the host: bandwidth that of the host's fastest link to
 *    another host, no latency;
 *  - one fat-pipe wire per distinct Hockney link (t_s, t_w) of the
 *    platform (scopes, rules and per-pair overrides all resolved by
 *    hm_platform_link): latency t_s, bandwidth 8 / t_w bytes/s;
 *  - a route for every ordered pair of processors (routing "Full"): card
 *    up, wire, card down between hosts; the wire alone between processors
 *    of one host; a processor to itself (processes sharing it), its
 *    same-processor wire.
 * A message of w words then takes t_s + 8w / (8 / t_w) = t_s + w t_w when
 * it has the cards to itself, as the model says, and shares them when it
 * does not. The routes are P^2: at most HM_SIMGRID_MAX_PROCESSORS. */
#ifndef HM_SIMGRID_PLATFORM_H
#define HM_SIMGRID_PLATFORM_H

#include "platform.h"

#define HM_SIMGRID_MAX_PROCESSORS 400

/* What a simulated run does with the BLAS kernels ScaLAPACK spends its
 * time in (wrappers/README.md, "Modeled kernels"):
 *  - executed: the kernels compute, on this machine, and SMPI charges all
 *    computation at this core's dgemm time scaled by the host's dgemm
 *    rate (host speed 1/k3_dgemm(b));
 *  - modeled: every simulated second is charged from the platform and
 *    nothing is timed here (smpi/simulate-computation:no): dgemm, dtrsm
 *    and dger spend the time of the host's kernel models (host properties
 *    hm_dgemm, hm_dtrsm, hm_dger), the panel's level-1 calls its k2 per
 *    element (hm_level1), row interchanges its k1_dswap (hm_dswap), each
 *    column's steps its column_step (hm_column_step); none computes;
 *  - modeled-as-executed: the kernels modeled, the rest charged as
 *    'executed' charges it: to check the models against full execution. */
enum hm_sim_kernels { HM_SIM_EXECUTED, HM_SIM_MODELED, HM_SIM_MODELED_AS_EXECUTED, HM_NR_SIM_KERNELS };

/* "executed", "modeled", "modeled-as-executed"; parse: the mode or -1. */
const char *hm_sim_kernels_name(enum hm_sim_kernels k);
int hm_sim_kernels_parse(const char *name);
/* "executed, modeled, modeled-as-executed": for messages and help. */
const char *hm_sim_kernels_list(void);
/* 1 for the modes that model the kernels. */
int hm_sim_kernels_modeled(enum hm_sim_kernels k);

/* The XML text (malloc'd) with speeds at block size b, or NULL with 'err'
 * set (too many processors, out of memory). busy[i] (busy NULL: every
 * core) is the number of processes a job runs on processor i: a type with
 * a busy-cores scale then runs at k scale(min(busy, cores)), the model's
 * rule (models/README.md), its host speed divided and its kernel models
 * multiplied by that scale. SimGrid's cores share nothing, so without it
 * a node's idle cores would speed nobody up. */
char *hm_simgrid_platform(const struct hm_platform *p, int b, enum hm_sim_kernels kernels,
			  const int *busy, struct hm_error *err);

#endif /* HM_SIMGRID_PLATFORM_H */

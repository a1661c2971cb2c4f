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

/* The XML text (malloc'd) with speeds at block size b, or NULL with 'err'
 * set (too many processors, out of memory). */
char *hm_simgrid_platform(const struct hm_platform *p, int b, struct hm_error *err);

/* A processor's speed in flop/s at block size b, as exported. */
double hm_simgrid_speed(const struct hm_platform *p, int proc, int b);

#endif /* HM_SIMGRID_PLATFORM_H */

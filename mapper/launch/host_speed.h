/* mapper/launch/host_speed.h - this machine's rate per core, which a
 * simulator needs to turn the computation it times here into the time of
 * a simulated host (SMPI's smpi/host-speed): dgemm's, or the panel's when
 * the kernels are modeled (simgrid_platform.h); measured with the
 * calibration benchmark (hetmap-calibrate-bench, one process, the
 * calibration's shapes at block size b), beside hetmap. */
#ifndef HM_HOST_SPEED_H
#define HM_HOST_SPEED_H

#include "models/util/error.h"

/* flop/s of 'kernel' ("k3_dgemm" or "k2_dgetf2": the median of the
 * samples), or 0 with 'err' set. */
double hm_measure_host_speed(int b, const char *kernel, struct hm_error *err);

#endif /* HM_HOST_SPEED_H */

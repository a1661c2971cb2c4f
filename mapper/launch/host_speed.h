/* mapper/launch/host_speed.h - this machine's dgemm rate per core, which a
 * simulator needs to turn the computation it times here into the time of
 * a simulated host (SMPI's smpi/host-speed): measured with the
 * calibration benchmark (hetmap-calibrate-bench, one process, dgemm of
 * the calibration's shape at block size b), beside hetmap. */
#ifndef HM_HOST_SPEED_H
#define HM_HOST_SPEED_H

#include "models/util/error.h"

/* flop/s (the median of the samples), or 0 with 'err' set. */
double hm_measure_host_speed(int b, struct hm_error *err);

#endif /* HM_HOST_SPEED_H */

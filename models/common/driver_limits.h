/* models/common/driver_limits.h - the largest values hetmap-driver accepts, for
 * the driver itself and for 'hetmap run', which refuses a plan the driver
 * would refuse before it starts mpirun. */
#ifndef HM_DRIVER_LIMITS_H
#define HM_DRIVER_LIMITS_H

#define HM_DRIVER_MAX_N 1000000         /* matrix order */
#define HM_DRIVER_MAX_B 4096            /* block size */
#define HM_DRIVER_MAX_GRID_SIDE 100000  /* r and c */

#endif /* HM_DRIVER_LIMITS_H */

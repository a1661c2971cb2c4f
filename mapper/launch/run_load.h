/* mapper/launch/run_load.h - how much other work held a run's cores: each
 * rank's span line (wrappers/mpi_span.c) says how long the scheduler kept
 * its main thread waiting for its core between MPI_Init and MPI_Finalize
 * (run_delay, as calibrate measures it: wrappers/held_time.h). Per host,
 * the largest share of a rank's span; the record keeps them and 'run'
 * warns above HM_RUN_LOAD_WARN. */
#ifndef HM_RUN_LOAD_H
#define HM_RUN_LOAD_H

#include <cJSON.h>

#define HM_RUN_LOAD_HOSTS 64      /* hosts kept; the rest counted in the largest share */
#define HM_RUN_LOAD_WARN 0.10

struct hm_run_load {
	int n, more;            /* hosts kept; ranks of hosts past HM_RUN_LOAD_HOSTS */
	struct {
		char host[64];
		double share;   /* the largest over the host's ranks */
	} hosts[HM_RUN_LOAD_HOSTS];
	double largest;         /* over every rank; < 0: no rank said */
};

void hm_run_load_init(struct hm_run_load *l);

/* Take one output line: a span line with its wait is counted. */
void hm_run_load_line(struct hm_run_load *l, const char *line);

/* {"share_largest": S, "hosts": {"HOST": S, ...}, "measured_by": ...}, or
 * NULL when no rank said (a program without MPI_Init, a CPU quota). */
cJSON *hm_run_load_json(const struct hm_run_load *l);

#endif /* HM_RUN_LOAD_H */

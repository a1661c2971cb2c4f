/* mapper/launch/record.h - the record of one run: the line 'run' and 'tune'
 * append to the results file (mapper/README.md, "The placement check and
 * the results record"). Its keys are named once, here, for the writer and
 * for every reader ('report', 'learn', 'tune' resuming from its results
 * file); experiments/README.md's schema names the same keys.
 *
 * A record is made in three steps: hm_record_start (when, where from,
 * inside which Slurm job), what the caller knows (the plan and its
 * prediction, the program's reading, the placement check), and
 * hm_record_outcome (the launcher and how its child ended). */
#ifndef HM_RECORD_H
#define HM_RECORD_H

#include <cJSON.h>
#include "launcher.h"
#include "launcher_detect.h"
#include "spawn.h"

/* The record's keys (top level, then members of 'inputs', 'plan',
 * 'program', 'launcher', 'tune'). */
#define HM_REC_MARK             "hetmap_result"  /* 1: the line is a run record */
#define HM_REC_TIME             "time"
#define HM_REC_LAUNCHED_FROM    "launched_from"
#define HM_REC_STAGE            "stage"          /* a run stopped before its launch */
#define HM_REC_INPUTS           "inputs"         /* the plan's inputs (plan.h) */
#define HM_REC_PLAN             "plan"           /* the plan, without its per-rank 'ranks' */
#define HM_REC_PLAN_FILE        "plan_file"
#define HM_REC_PREDICTED        "predicted_s"
#define HM_REC_MEASURED         "measured_s"     /* null: nothing measured */
#define HM_REC_MEASURED_BY      "measured_by"    /* profile, time-line, time-regex, mpi-span */
#define HM_REC_TICK             "timer_tick_s"
#define HM_REC_RATIO            "measured_over_predicted"
#define HM_REC_RATIO_WITHHELD   "ratio_withheld"
#define HM_REC_PROGRAM          "program"
#define HM_REC_CHECK            "check"
#define HM_REC_PLACEMENT        "placement"
#define HM_REC_AS_PLANNED       "placement_as_planned"
#define HM_REC_LOAD             "load"           /* other work on the ranks' cores (run_load.h) */
#define HM_REC_SIMULATED        "simulated"
#define HM_REC_SIM_HOST_SPEED   "simulator_host_speed"
#define HM_REC_SIM_PLATFORM     "simulated_platform"
#define HM_REC_SIM_MMAP         "simulator_mmap_threshold"      /* modeled kernels: bytes */
#define HM_REC_KERNELS          "kernels"
#define HM_REC_LAUNCHER         "launcher"
#define HM_REC_MPIRUN_STATUS    "mpirun_status"
#define HM_REC_MPIRUN_EXIT      "mpirun_exit_code"
#define HM_REC_SIGNAL           "signal"
#define HM_REC_WALL             "wall_s"
#define HM_REC_EXIT             "exit_code"
#define HM_REC_COMMAND          "command"
#define HM_REC_JOB_DIR          "job_dir"
#define HM_REC_DRIVER           "driver"
#define HM_REC_TUNE             "tune"           /* a run of 'hetmap tune' (tune.h) */
/* members of 'inputs' (plan.h writes them) */
#define HM_REC_IN_PLATFORM      "platform"
#define HM_REC_IN_PLATFORM_NAME "platform_name"
#define HM_REC_IN_DIGEST        "platform_digest"
#define HM_REC_IN_BASE_DIGEST   "platform_base_digest"  /* the measured platform under learned corrections */
#define HM_REC_IN_ROUTINE       "routine"
#define HM_REC_IN_N             "n"
#define HM_REC_IN_MODEL         "model"
/* members of 'program' and 'launcher' */
#define HM_REC_PROG_PATH        "path"
#define HM_REC_PROG_VERDICT     "verdict"
#define HM_REC_LAUNCHER_NAME    "name"

/* A new record: its mark, the time, the host it was launched from and,
 * inside Slurm, the job and step (checked digits). NULL: out of memory. */
cJSON *hm_record_start(void);

/* The launcher and how its child ended, and hetmap's exit code. */
void hm_record_outcome(cJSON *rec, const struct hm_launcher *l, const struct hm_launcher_found *lf,
		       const struct hm_spawn_result *res, int exit_code);

/* A run stopped by signal 'sig' before its launch ('stage': what it was
 * doing), as a record. NULL: out of memory. */
cJSON *hm_record_interrupted(const struct hm_launcher *l, const struct hm_launcher_found *lf,
			     const char *stage, int sig, const char *plan_file);

/* What a record would repeat rank by rank, said once: the plan's list of
 * each rank's processor is left out (its 'processes' say the same, in
 * rank order); the driver's ranks are folded into runs (results.h). */
void hm_record_shorten(cJSON *rec, int c);

/* One run as its readers need it, pointing into the record (valid while
 * it lives). */
struct hm_run_record {
	const char *routine, *model, *platform_name;
	const char *digest, *base_digest;       /* base: the digest learned corrections rest on */
	const char *measured_by, *launcher, *program, *verdict;
	double n, predicted, measured;          /* measured < 0: nothing measured */
	int ratio_withheld, simulated, exit_code;
	int D, r, c, b;                         /* 0 when the record has no plan */
	const cJSON *processes;                 /* the plan's, NULL when none */
	const cJSON *tune;                      /* NULL unless a run of 'tune' */
};

/* 1 when 'rec' is a run record (its mark), filling 'out'; else 0. */
int hm_record_read(const cJSON *rec, struct hm_run_record *out);

/* 1 when the record measured a time worth comparing with the prediction:
 * a run that exited 0, was not simulated, has a plan and a time, and no
 * withheld ratio. */
int hm_record_is_measurement(const struct hm_run_record *r);

#endif /* HM_RECORD_H */

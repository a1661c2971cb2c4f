/* mapper/launch/judge.h - the simulator as the plan's judge ('hetmap plan --judge K',
 * mapper/README.md, "The judge").
 *
 * The model ranks configurations; its errors are largest exactly where
 * nothing else checks it (hundreds of cores, n in the tens of thousands).
 * The judge takes the model's K best distinct configurations (d, r, c, b)
 * the search priced (search/top_k.h), near twins left out, and the
 * modeled users' GU, CU and EU,
 * runs each as a simulated job - hetmap's driver under SimGrid's SMPI, the
 * kernels modeled, at the user's n - several at a time, within the
 * search's --max-time, and keeps the one the simulator finds fastest. The
 * plan records every candidate's predicted and simulated time and which
 * engine decided. */
#ifndef HM_JUDGE_H
#define HM_JUDGE_H

#include "exit_code.h"
#include "mapper/launch/plan.h"
#include "search/top_k.h"

struct hm_judge_opts {
	int k;                  /* the model's candidates; 0: no judge */
	int jobs;               /* simulations at once; 0: the CPUs they run on */
	const char *dir;        /* where the simulations run (kept), or NULL: a
				 * temporary directory, removed */
	const char *launcher;   /* "local", "slurm", or NULL: slurm inside an
				 * allocation, else local (hm_judge_launchers) */
};

#define HM_JUDGE_OPTS_INIT { .k = 0 }
#define HM_JUDGE_MAX_JOBS 256   /* simulations at once (--judge-jobs' bound) */

/* How the judge starts its simulations, each one process:
 *  local  children of hetmap on this machine, --judge-jobs at a time
 *         (default: its cores);
 *  slurm  each a step of the Slurm allocation hetmap runs in ('srun
 *         --exclusive -N1 -n1 -c1'), as many at once as the allocation has
 *         CPUs (default), on any of its nodes; the judge's directory must
 *         be on a file system they share.
 * Steps rather than an 'sbatch --array' job: inside the allocation they
 * start at once on CPUs the user already holds (an array waits in the
 * queue behind other users' jobs), srun forwards Ctrl-C to the step, and
 * its exit status is the simulation's, so a step is a child like a local
 * one: the same records, budget, progress and resumable --judge-dir. */

struct hm_judge {
	struct hm_judge_opts o;
	struct hm_top_k top;    /* the search's best configurations */
	int launcher;           /* where the simulations run: judge.c's table */
};

/* Before the search: the collector set in pb (pb->collect). HM_EXIT_OK,
 * or an exit code after a message (the SMPI flavour missing, ...). */
int hm_judge_start(struct hm_judge *jd, const struct hm_judge_opts *o, struct hm_problem *pb);

/* After it: simulate the candidates until 'deadline' (hm_now() time, 0:
 * none) and decide. *res becomes the simulated best (the model's plan
 * stays when nothing could be simulated); *record, the "judge" object of
 * the plan, is added to 'plan_doc' by the caller. An exit code, with a
 * message when it is not HM_EXIT_OK; the record is made either way. */
int hm_judge_decide(struct hm_judge *jd, const struct hm_plan_inputs *in, struct hm_result *res,
		    double deadline, cJSON **record);

void hm_judge_release(struct hm_judge *jd);

#endif /* HM_JUDGE_H */

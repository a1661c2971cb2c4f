/* mapper/launch/slurm_alloc.h - the Slurm allocation 'hetmap run --launcher
 * slurm' runs in, read from the variables srun's allocation sets
 * (SLURM_JOB_NODELIST, SLURM_JOB_CPUS_PER_NODE), and the check that the
 * plan fits it: every planned host allocated, and no more ranks on a
 * host than its CPUs unless the plan stacks them (then --overcommit). */
#ifndef HM_SLURM_ALLOC_H
#define HM_SLURM_ALLOC_H

#include "models/util/error.h"
#include "placement.h"

/* Expand a Slurm host list ("n[01-03,7],gpu1") into 'names' (malloc'd
 * array of malloc'd strings). The count, or -1 with 'err' set. */
int hm_slurm_hostlist(const char *list, char ***names, struct hm_error *err);
/* Expand "4(x2),2" into one count per node. The count, or -1. */
int hm_slurm_cpus(const char *spec, int **cpus, struct hm_error *err);

/* 1 when the environment is a Slurm allocation's (SLURM_JOB_NODELIST and
 * SLURM_JOB_CPUS_PER_NODE set). */
int hm_in_slurm_allocation(void);

/* The allocation's nodes and the CPUs of each, from the environment: the
 * count, or -1 with 'err' set (not in an allocation, a list it cannot
 * read, counts that disagree). Free with hm_slurm_allocation_free. */
int hm_slurm_allocation(char ***names, int **cpus, struct hm_error *err);
void hm_slurm_allocation_free(char **names, int n, int *cpus);

/* Check 'pl' against the allocation in the environment. 0, or -1 with
 * 'err' set (not in an allocation, a host not allocated, too many ranks). */
int hm_slurm_check(const struct hm_placement *pl, struct hm_error *err);

#endif /* HM_SLURM_ALLOC_H */

/* wrappers/rank_identity.h - who this process is, as the programs started
 * through a launcher report it (hetmap-probe, hetmap-topology): its rank,
 * from the variables the launchers set (Open MPI's OMPI_COMM_WORLD_RANK,
 * PMIx's PMIX_RANK, MPICH/Hydra's and Intel MPI's PMI_RANK, Slurm's
 * SLURM_PROCID), and its host's name (HETMAP_HOST when set: the emulated
 * cluster's virtual nodes set it), safe to print inside a JSON string. */
#ifndef HM_RANK_IDENTITY_H
#define HM_RANK_IDENTITY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rank in the first of those variables that is set, or NULL when none
 * is or it is not a number of at most 9 digits written as JSON writes it
 * (no leading zero: "007" would make "rank":007, which no parser takes). */
static inline const char *hm_rank_of_process(void)
{
	static const char *const variables[] = {
		"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID", NULL
	};
	const char *rank = NULL;

	for (int i = 0; variables[i] && !rank; i++)
		rank = getenv(variables[i]);
	if (!rank || !*rank || strspn(rank, "0123456789") != strlen(rank) || strlen(rank) >= 10 ||
	    (rank[0] == '0' && rank[1]))
		return NULL;
	return rank;
}

/* The host's name into buf, every character that would need JSON escaping
 * made '?'. */
static inline void hm_host_of_process(char *buf, size_t size)
{
	const char *forced = getenv("HETMAP_HOST");

	buf[0] = '\0';
	if (forced && *forced)
		snprintf(buf, size, "%s", forced);
	else
		gethostname(buf, size - 1);
	buf[size - 1] = '\0';
	for (char *s = buf; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || (unsigned char)*s >= 0x7f)
			*s = '?';
}

#endif /* HM_RANK_IDENTITY_H */

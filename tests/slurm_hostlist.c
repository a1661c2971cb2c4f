/* tests/slurm_hostlist.c - hetmap's own reading of Slurm host lists, one
 * name per line for each list given, for tests/slurm.sh to compare with
 * 'scontrol show hostnames' (Slurm's). Exit 1 when a list is refused. */
#include "mapper/launch/slurm_alloc.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct hm_error err;
		char **names;
		int n = hm_slurm_hostlist(argv[i], &names, &err);

		if (n < 0) {
			fprintf(stderr, "slurm_hostlist: %s\n", err.msg);
			return 1;
		}
		for (int k = 0; k < n; k++) {
			printf("%s\n", names[k]);
			free(names[k]);
		}
		free(names);
	}
	return 0;
}

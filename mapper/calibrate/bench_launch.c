/* mapper/calibrate/bench_launch.c - see bench_launch.h. */
#include "bench_launch.h"
#include "mapper/launch/exit_code.h"
#include "mapper/launch/job.h"
#include "mapper/launch/mpirun.h"
#include "models/util/atomic_file.h"
#include "models/util/say.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hm_bench_placement(const struct hm_host_list *h, int simulated, const struct hm_node_topologies *topo,
			int one_per_host, struct hm_placement *pl)
{
	int k = 0;

	memset(pl, 0, sizeof(*pl));
	pl->D = one_per_host ? h->nr_hosts : h->n + 1;
	pl->oversubscribed = !one_per_host;     /* the shadow shares processor 0 */
	pl->threads_as_cores = topo && topo->threads_as_cores;
	if (!(pl->ranks = calloc((size_t)pl->D, sizeof(*pl->ranks))))
		return -1;
	for (int i = 0; i <= h->n && k < pl->D; i++) {
		int p = i < h->n ? i : 0;
		const struct hm_node_topology *node = topo ? &topo->node[h->host_index[p]] : NULL;

		if (one_per_host && (i == h->n || h->slot[p]))
			continue;
		/* a simulator's processor is the simulated host itself */
		pl->ranks[k++] = (struct hm_rank_place){
			.processor = simulated ? h->hosts[p] : h->names[p], .host = h->hosts[p],
			.slot = h->slot[p], .cores = 1, .stacked = p == 0 && !one_per_host ? 2 : 1,
			.core = h->slot[p], .sockets = 1, .threads = 1,
			.cpu = node && node->seen ? hm_topology_cpu(&node->cores, h->slot[p]) : h->slot[p] };
	}
	return hm_placement_number_hosts(pl);
}

/* Where a launcher binds by one CPU list for every host (MPICH, Slurm) and
 * the hosts need different ones (the shadow rank on one host, cores
 * numbered otherwise on another), each rank binds itself through
 * hetmap-probe to its line of a rank-cpus file, as 'run' does. */
struct self_binding {
	const char *probe;              /* NULL: the launcher binds */
	char probe_path[4096], cpus_file[4300], variable[4400], file_variable[4400];
	const char *env[8];             /* the ranks' environment, NULL-terminated */
	/* the launcher's own: the ranks', and where its file is for a
	 * launcher that reads it from a variable (SLURM_HOSTFILE) */
	const char *launcher_env[9];
};

/* sb->launcher_env from sb->env. */
static void launcher_environment(const struct hm_bench_site *ls, struct self_binding *sb)
{
	int k = 0;

	while (sb->env[k])
		sb->launcher_env[k] = sb->env[k], k++;
	if (ls->l->file_variable) {
		snprintf(sb->file_variable, sizeof(sb->file_variable), "%s=%s", ls->l->file_variable, ls->file);
		sb->launcher_env[k++] = sb->file_variable;
	}
	sb->launcher_env[k] = NULL;
}

static int bind_by_probe(const struct hm_bench_site *ls, const struct hm_placement *pl, struct self_binding *sb)
{
	char map[4096], *text;
	struct hm_error err;
	int k = 0;

	memset(sb, 0, sizeof(*sb));
	for (const char *const *e = hm_rank_environment; *e && k < 6; e++)
		sb->env[k++] = *e;
	if (ls->l->binds != HM_BINDS_ONE_LIST || hm_common_core_map(pl, ls->l->set_form, map, sizeof(map))) {
		launcher_environment(ls, sb);
		return HM_EXIT_OK;
	}
	hm_error_clear(&err);
	if (!hm_helper_program("hetmap-probe", sb->probe_path, sizeof(sb->probe_path), &err)) {
		hm_say_error("calibrate: %s", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	snprintf(sb->cpus_file, sizeof(sb->cpus_file), "%s/%s", ls->dir, HM_RANK_CPUS_FILE);
	snprintf(sb->variable, sizeof(sb->variable), "%s=%s", HM_RANK_CPUS_VARIABLE, sb->cpus_file);
	if (!(text = hm_rank_cpus_text(pl)) || hm_write_file_atomic(sb->cpus_file, text, strlen(text), &err)) {
		free(text);
		hm_say_error("calibrate: %s", err.msg[0] ? err.msg : "out of memory");
		return HM_EXIT_OUTPUT;
	}
	free(text);
	sb->env[k] = sb->variable;
	sb->probe = sb->probe_path;
	launcher_environment(ls, sb);
	return HM_EXIT_OK;
}

int hm_bench_launch(const struct hm_bench_site *ls, const struct hm_placement *pl, const struct hm_argv *program,
		  const char *what, void (*on_line)(const char *, void *), void *ctx)
{
	struct hm_launch x = { .pl = pl, .file = ls->file, .major = ls->launcher_major,
				.platform = ls->platform, .host_speed = ls->host_speed };
	struct hm_spawn_opts so = { .timeout = ls->timeout, .grace = 5, .env = hm_rank_environment, .on_line = on_line,
				    .ctx = ctx, .cwd = ls->dir };
	struct hm_spawn_result res;
	struct hm_argv a = { 0 };
	struct hm_error err;
	char *text = ls->l->file_text(pl), *line = NULL;
	int ret = HM_EXIT_FAILURE;
	struct self_binding sb = { 0 };

	hm_error_clear(&err);
	if (text && hm_write_file_atomic(ls->file, text, strlen(text), &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
	} else if (text && !(ret = bind_by_probe(ls, pl, &sb))) {
		ret = HM_EXIT_FAILURE;
		x.ranks_bind_themselves = sb.probe != NULL;
		x.env = sb.env;
		so.env = sb.launcher_env;
		hm_mpirun_argv(&a, ls->l, x, ls->mpirun, ls->extra, ls->nextra);
		if (sb.probe)
			hm_argv_add(&a, sb.probe);
		for (int i = 0; i < program->n; i++)
			hm_argv_add(&a, program->v[i]);
		if (!program->failed && !a.failed && (line = hm_argv_quoted(&a))) {
			hm_say_note("calibrate: %s\n", line);
			ret = hm_mpirun_spawn("calibrate", what, a.v, &so, &res, ls->mpirun);
		}
	}
	unlink(ls->file);
	if (text && sb.probe)
		unlink(sb.cpus_file);
	free(text);
	free(line);
	hm_argv_free(&a);
	return ret;
}

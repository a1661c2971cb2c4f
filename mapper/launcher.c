/* mapper/launcher.c - launcher files and commands (see launcher.h). */
#include "launcher.h"
#include "atomic_file.h"
#include "plan.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void hm_argv_add(struct hm_argv *a, const char *s)
{
	char *copy;

	if (a->failed)
		return;
	if (a->n + 2 > a->cap) {
		int cap = a->cap ? 2 * a->cap : 16;
		char **v = realloc(a->v, (size_t)cap * sizeof(*v));

		if (!v) {
			a->failed = 1;
			return;
		}
		a->v = v, a->cap = cap;
	}
	if (!(copy = strdup(s))) {
		a->failed = 1;
		return;
	}
	a->v[a->n++] = copy;
	a->v[a->n] = NULL;
}

void hm_argv_addf(struct hm_argv *a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	hm_argv_add(a, buf);
}

void hm_argv_free(struct hm_argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *s))
			return 1;
	return 0;
}

char *hm_argv_quoted(const struct hm_argv *a)
{
	size_t size = 1, len = 0;
	char *out;

	for (int i = 0; i < a->n; i++)
		size += 4 * strlen(a->v[i]) + 3;
	if (!(out = malloc(size)))
		return NULL;
	for (int i = 0; i < a->n; i++) {
		const char *s = a->v[i];

		if (i)
			out[len++] = ' ';
		if (!needs_quotes(s)) {
			len += (size_t)sprintf(out + len, "%s", s);
			continue;
		}
		out[len++] = '\'';
		for (; *s; s++) {
			if (*s == '\'') {   /* ' becomes '\'' */
				memcpy(out + len, "'\\''", 4);
				len += 4;
			} else {
				out[len++] = *s;
			}
		}
		out[len++] = '\'';
	}
	out[len] = '\0';
	return out;
}

/* A text being built; NULL data after a failed allocation. */
struct text {
	char *data;
	size_t len, cap;
	int failed;
};

static void text_addf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_addf(struct text *t, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (t->failed || n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap ? 2 * t->cap : 4096) + (size_t)n;
		char *d = realloc(t->data, cap);

		if (!d) {
			t->failed = 1;
			return;
		}
		t->data = d, t->cap = cap;
	}
	memcpy(t->data + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
}

static char *text_done(struct text *t)
{
	if (t->failed || !t->data) {
		free(t->data);
		return NULL;
	}
	return t->data;
}

/* Open MPI 4 rankfile: "rank k=HOST slot=S", one core per rank: the j-th
 * rank of a processor owning cores slot .. slot + C - 1 gets core
 * slot + (j mod C), so C ranks never share a core and more than C share
 * them evenly (the plan then says oversubscribed). BLAS runs one thread
 * per rank. A processor's ranks are consecutive in rank order. */
static char *rankfile_text(const struct hm_placement *pl)
{
	struct text t = { 0 };
	int j = 0;

	for (int k = 0; k < pl->D; k++) {
		const struct hm_rank_place *r = &pl->ranks[k];

		j = k > 0 && !strcmp(r->processor, pl->ranks[k - 1].processor) ? j + 1 : 0;
		text_addf(&t, "rank %d=%s slot=%d\n", k, r->host, r->slot + j % r->cores);
	}
	return text_done(&t);
}

/* One host per line, line k for rank k: Open MPI's seq mapper and
 * SLURM_HOSTFILE with --distribution=arbitrary both read this. */
static char *host_per_rank_text(const struct hm_placement *pl)
{
	struct text t = { 0 };

	for (int k = 0; k < pl->D; k++)
		text_addf(&t, "%s\n", pl->ranks[k].host);
	return text_done(&t);
}

/* MPICH/Hydra machinefile: "host:n" lines fill ranks in order. */
static char *machinefile_text(const struct hm_placement *pl)
{
	struct text t = { 0 };

	for (int k = 0; k < pl->D;) {
		int run = 1;

		while (k + run < pl->D && !strcmp(pl->ranks[k + run].host, pl->ranks[k].host))
			run++;
		text_addf(&t, "%s:%d\n", pl->ranks[k].host, run);
		k += run;
	}
	return text_done(&t);
}

/* Processes that wait in MPI must yield the core: with more ranks than
 * cores, Open MPI's busy polling made LU 20-350x slower (wrappers/README.md). */
static void openmpi_common(struct hm_argv *a, const struct hm_placement *pl)
{
	if (pl->oversubscribed)
		hm_argv_add(a, "--oversubscribe");
	hm_argv_add(a, "--mca");
	hm_argv_add(a, "mpi_yield_when_idle");
	hm_argv_add(a, "1");
	hm_argv_add(a, "-x");
	hm_argv_add(a, "OPENBLAS_NUM_THREADS=1");
}

/* mpirun -np D FILE-OPTION FILE [--mca rmaps seq] + the common options */
static void openmpi_mpirun(struct hm_argv *a, const struct hm_placement *pl, const char *option,
			   const char *file, int seq)
{
	hm_argv_add(a, "mpirun");
	hm_argv_add(a, "-np");
	hm_argv_addf(a, "%d", pl->D);
	hm_argv_add(a, option);
	hm_argv_add(a, file);
	if (seq) {
		hm_argv_add(a, "--mca");
		hm_argv_add(a, "rmaps");
		hm_argv_add(a, "seq");
	}
	openmpi_common(a, pl);
}

static void openmpi_command(struct hm_argv *a, const struct hm_placement *pl, const char *file)
{
	openmpi_mpirun(a, pl, "--rankfile", file, 0);
}

static void openmpi_seq_command(struct hm_argv *a, const struct hm_placement *pl, const char *file)
{
	openmpi_mpirun(a, pl, "--hostfile", file, 1);
}

static void mpich_command(struct hm_argv *a, const struct hm_placement *pl, const char *file)
{
	hm_argv_add(a, "mpiexec");
	hm_argv_add(a, "-f");
	hm_argv_add(a, file);
	hm_argv_add(a, "-n");
	hm_argv_addf(a, "%d", pl->D);
	hm_argv_add(a, "-genv");
	hm_argv_add(a, "OPENBLAS_NUM_THREADS");
	hm_argv_add(a, "1");
}

static void slurm_command(struct hm_argv *a, const struct hm_placement *pl, const char *file)
{
	hm_argv_add(a, "env");
	hm_argv_addf(a, "SLURM_HOSTFILE=%s", file);
	hm_argv_add(a, "srun");
	hm_argv_add(a, "--distribution=arbitrary");
	hm_argv_add(a, "-n");
	hm_argv_addf(a, "%d", pl->D);
	hm_argv_add(a, "--export=ALL,OPENBLAS_NUM_THREADS=1");
}

static const struct hm_launcher launchers[] = {
	{ "openmpi", "rankfile", "Open MPI 4 rankfile (mpirun --rankfile), ranks bound to their processor's cores",
	  1, rankfile_text, openmpi_command },
	{ "openmpi-seq", "seqfile", "Open MPI one host per rank (--mca rmaps seq); no core binding",
	  1, host_per_rank_text, openmpi_seq_command },
	{ "mpich", "machinefile", "MPICH/Hydra machinefile of host:n lines (mpiexec -f)",
	  0, machinefile_text, mpich_command },
	{ "slurm", "hostfile", "Slurm SLURM_HOSTFILE with srun --distribution=arbitrary",
	  0, host_per_rank_text, slurm_command },
};
#define NR_LAUNCHERS (int)(sizeof(launchers) / sizeof(launchers[0]))

const struct hm_launcher *hm_launcher_find(const char *name)
{
	for (int i = 0; i < NR_LAUNCHERS; i++)
		if (!strcasecmp(launchers[i].name, name))
			return &launchers[i];
	return NULL;
}

const char *hm_launcher_names(int runnable_only, const char *sep, char *buf, int size)
{
	int len = 0;

	buf[0] = '\0';
	for (int i = 0; i < NR_LAUNCHERS && len < size; i++)
		if (!runnable_only || launchers[i].runs)
			len += snprintf(buf + len, (size_t)(size - len), "%s%s", len ? sep : "",
					launchers[i].name);
	return buf;
}

void hm_driver_args(struct hm_argv *a, const struct hm_placement *pl, const char *driver)
{
	hm_argv_add(a, driver);
	hm_argv_add(a, "--routine");
	hm_argv_add(a, pl->routine);
	hm_argv_add(a, "-n");
	hm_argv_addf(a, "%ld", pl->n);
	hm_argv_add(a, "-b");
	hm_argv_addf(a, "%d", pl->b);
	hm_argv_add(a, "-r");
	hm_argv_addf(a, "%d", pl->r);
	hm_argv_add(a, "-c");
	hm_argv_addf(a, "%d", pl->c);
}

/* The three files of a launch directory, as texts (malloc'd, each ending
 * in a newline): plan.json, the launcher file and the command. */
struct launch_texts {
	char *text[3];
	const char *name[3];
};

static int launch_texts(struct launch_texts *t, const struct hm_launcher *l,
			const struct hm_placement *pl, const char *dir, const char *driver)
{
	char path[4096];
	struct hm_argv a = { 0 };
	size_t len;

	memset(t, 0, sizeof(*t));
	t->name[0] = "plan.json", t->name[1] = l->file_name, t->name[2] = "command";
	if ((t->text[0] = cJSON_Print(pl->owner))) {
		len = strlen(t->text[0]);
		if ((t->text[0] = realloc(t->text[0], len + 2)))
			strcpy(t->text[0] + len, "\n");
	}
	t->text[1] = l->file_text(pl);
	snprintf(path, sizeof(path), "%s/%s", dir, l->file_name);
	l->command(&a, pl, path);
	hm_driver_args(&a, pl, driver);
	if (!a.failed && (t->text[2] = hm_argv_quoted(&a))) {
		len = strlen(t->text[2]);
		t->text[2][len] = '\n';    /* the quoted form has room: 4x per char */
		t->text[2][len + 1] = '\0';
	}
	hm_argv_free(&a);
	return t->text[0] && t->text[1] && t->text[2] ? 0 : -1;
}

int hm_launch_dir_write(const char *dir, const struct hm_placement *pl,
			const struct hm_launcher *l, const char *driver, struct hm_error *err)
{
	struct hm_atomic_file files[3];
	struct launch_texts t;
	char path[4096];
	int made_dir = 0, ready = 0, ret = -1;

	if (mkdir(dir, 0777) == 0)
		made_dir = 1;
	else if (errno != EEXIST) {
		snprintf(err->file, sizeof(err->file), "%s", dir);
		return hm_error_set(err, "cannot create the directory: %s", strerror(errno));
	}
	if (launch_texts(&t, l, pl, dir, driver)) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	/* all three written before any is put in place: a full disk leaves
	 * the directory as it was */
	for (ready = 0; ready < 3; ready++) {
		snprintf(path, sizeof(path), "%s/%s", dir, t.name[ready]);
		if (hm_atomic_prepare(&files[ready], path, t.text[ready], strlen(t.text[ready]), err))
			break;
	}
	if (ready == 3) {
		ret = 0;
		for (int i = 0; i < 3; i++)
			if (ret)
				hm_atomic_abort(&files[i]);
			else
				ret = hm_atomic_commit(&files[i], err);
		ready = 0;
	}
out:
	while (ready > 0)
		hm_atomic_abort(&files[--ready]);
	for (int i = 0; i < 3; i++)
		free(t.text[i]);
	if (ret && made_dir)
		rmdir(dir);
	return ret;
}

const char *hm_sibling_program(const char *name, char *buf, size_t size)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= sizeof(self) - 1)
		return name;
	self[n] = '\0';
	if (!(slash = strrchr(self, '/')))
		return name;
	*slash = '\0';
	snprintf(buf, size, "%s/%s", self, name);
	return buf;
}

/* models/platform/simgrid_platform.c - see simgrid_platform.h. */
#include "simgrid_platform.h"
#include "models/util/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sim_kernels_names[HM_NR_SIM_KERNELS] = { "executed", "modeled",
								   "modeled-as-executed" };

const char *hm_sim_kernels_name(enum hm_sim_kernels k)
{
	return (unsigned)k < HM_NR_SIM_KERNELS ? sim_kernels_names[k] : "?";
}

static int sim_kernels_item(const void *ctx, int i, char *out, size_t room)
{
	return snprintf(out, room, "%s", sim_kernels_names[i]);
}

const char *hm_sim_kernels_list(void)
{
	static char text[128];

	return text[0] ? text : hm_join(text, sizeof(text), HM_NR_SIM_KERNELS, ", ", sim_kernels_item, NULL);
}

int hm_sim_kernels_parse(const char *name)
{
	for (int k = 0; k < HM_NR_SIM_KERNELS; k++)
		if (!strcmp(name, sim_kernels_names[k]))
			return k;
	return -1;
}

int hm_sim_kernels_modeled(enum hm_sim_kernels k)
{
	return k != HM_SIM_EXECUTED;
}

/* A processor's speed in flop/s at block size b, as exported: what SMPI
 * divides the computation it times by (smpi/host-speed is this machine's
 * rate of the same kind: dgemm's, or the panel's when modeled). */
static double hm_simgrid_speed(const struct hm_platform *p, int proc, int b, enum hm_sim_kernels kernels)
{
	const struct hm_proc_type *ty = &p->types[p->procs[proc].type];

	return 1.0 / hm_table_at(kernels == HM_SIM_MODELED ? &ty->k2_dgetf2 : &ty->k3_dgemm, b);
}

/* A processor's k relative to all cores busy when busy[proc] processes
 * run on it (busy NULL: every core). */
static double busy_scale(const struct hm_platform *p, int proc, const int *busy)
{
	const struct hm_processor *pr = &p->procs[proc];

	return busy ? hm_type_busy_scale(&p->types[pr->type], pr->cores, busy[proc]) : 1;
}

/* A kernel's model as a host property's value (wrappers/smpi/kernels.c):
 * the type's fitted model, or its k table over b, times 'scale'. */
static void put_kernel_model(FILE *f, const struct hm_proc_type *ty, enum hm_kernel k, double scale)
{
	static const char *const property[HM_NR_KERNELS] = { "hm_dgemm", "hm_dtrsm", "hm_dger" };
	const struct hm_table *t = k == HM_KERNEL_DGEMM ? &ty->k3_dgemm : k == HM_KERNEL_DTRSM ? &ty->k3_dtrsm
					: &ty->k2_dgetf2;

	fprintf(f, "<prop id=\"%s\" value=\"", property[k]);
	if (ty->kernels[k].nterms) {
		fputs("poly", f);
		for (int i = 0; i < ty->kernels[k].nterms; i++)
			fprintf(f, " %.9g", ty->kernels[k].c[i] * scale);
	} else {
		fputs("table", f);
		for (int i = 0; i < t->n; i++)
			fprintf(f, " %d:%.9g", t->n > 1 ? t->b[i] : 1, t->k[i] * scale);
	}
	fputs("\"/>", f);
}

/* What a host charges besides its kernels when nothing is timed here
 * (wrappers/smpi/kernels.c): the panel's level-1 calls per element at its
 * k2_dgetf2, a row interchange per element (k1_dswap; k1_dswap_aliased
 * where its stride aliases), and the column
 * steps of a column of two (3 x column_step, once a column); a platform
 * without the last two charges nothing for them, as the models do. */
static void put_step_costs(FILE *f, const struct hm_proc_type *ty, int b, double scale)
{
	fprintf(f, "<prop id=\"hm_level1\" value=\"%.9g\"/>", hm_table_at(&ty->k2_dgetf2, b) * scale);
	fprintf(f, "<prop id=\"hm_dswap\" value=\"%.9g\"/>", ty->k1_dswap * scale);
	fprintf(f, "<prop id=\"hm_dswap_aliased\" value=\"%.9g\"/>", ty->k1_dswap_aliased * scale);
	fprintf(f, "<prop id=\"hm_column_step\" value=\"%.9g\"/>", HM_STEPS_PER_COLUMN * ty->column_step * scale);
}

static int link_cmp(const void *a, const void *b)
{
	const struct hm_link *x = a, *y = b;

	return x->t_s < y->t_s ? -1 : x->t_s > y->t_s ? 1 : x->t_w < y->t_w ? -1 : x->t_w > y->t_w;
}

/* The distinct links of every pair (self included), sorted: the wires. */
static struct hm_link *distinct_links(const struct hm_platform *p, int *count)
{
	size_t np = (size_t)p->nr_procs, n = 0;
	struct hm_link *all = malloc(np * (np + 1) / 2 * sizeof(*all));

	if (!all)
		return NULL;
	for (int i = 0; i < p->nr_procs; i++)
		for (int j = i; j < p->nr_procs; j++)
			all[n++] = hm_platform_link(p, i, j);
	qsort(all, n, sizeof(*all), link_cmp);
	*count = 0;
	for (size_t k = 0; k < n; k++)
		if (!*count || link_cmp(&all[*count - 1], &all[k]))
			all[(*count)++] = all[k];
	return all;
}

static int wire_of(const struct hm_link *wires, int nwires, struct hm_link l)
{
	const struct hm_link *w = bsearch(&l, wires, (size_t)nwires, sizeof(l), link_cmp);

	return w ? (int)(w - wires) : 0;
}

/* Names go into attributes: the XML specials escaped. */
static void put_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* A host's card, as the models price it (hm_platform_set_cards): bytes/s;
 * a platform of one host has no card and gets the inter-node link's. */
static double card_bandwidth(const struct hm_platform *p, const int *first_of_host, int host)
{
	double t_w = p->procs[first_of_host[host]].card_t_w;

	return 8.0 / (t_w > 0 ? t_w : p->links[HM_LINK_INTER_HOST].t_w);
}

static void put_hosts_and_links(FILE *f, const struct hm_platform *p, int b, enum hm_sim_kernels kernels,
				const int *busy, const int *first_of_host, const struct hm_link *wires,
				int nwires)
{
	for (int i = 0; i < p->nr_procs; i++) {
		double scale = busy_scale(p, i, busy);

		fputs("    <host id=\"", f);
		put_name(f, p->procs[i].name);
		fprintf(f, "\" speed=\"%.9gf\" core=\"%d\"", hm_simgrid_speed(p, i, b, kernels) / scale,
			p->procs[i].cores);
		if (!hm_sim_kernels_modeled(kernels)) {
			fputs("/>\n", f);
			continue;
		}
		fputc('>', f);
		for (int k = 0; k < HM_NR_KERNELS; k++)
			put_kernel_model(f, &p->types[p->procs[i].type], (enum hm_kernel)k, scale);
		if (kernels == HM_SIM_MODELED)
			put_step_costs(f, &p->types[p->procs[i].type], b, scale);
		fputs("</host>\n", f);
	}
	for (int h = 0; h < p->nr_hosts; h++)
		fprintf(f, "    <link id=\"card%d\" bandwidth=\"%.9gBps\" latency=\"0s\" "
			"sharing_policy=\"SPLITDUPLEX\"/>\n", h, card_bandwidth(p, first_of_host, h));
	for (int w = 0; w < nwires; w++)
		fprintf(f, "    <link id=\"wire%d\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" "
			"sharing_policy=\"FATPIPE\"/>\n", w, 8.0 / wires[w].t_w, wires[w].t_s);
}

static void put_routes(FILE *f, const struct hm_platform *p, const struct hm_link *wires, int nwires)
{
	for (int i = 0; i < p->nr_procs; i++) {
		for (int j = 0; j < p->nr_procs; j++) {
			int hi = p->procs[i].host_id, hj = p->procs[j].host_id;
			int w = wire_of(wires, nwires, hm_platform_link(p, i, j));

			fputs("    <route src=\"", f);
			put_name(f, p->procs[i].name);
			fputs("\" dst=\"", f);
			put_name(f, p->procs[j].name);
			fputs("\" symmetrical=\"NO\">", f);
			if (hi != hj)
				fprintf(f, "<link_ctn id=\"card%d\" direction=\"UP\"/><link_ctn id=\"wire%d\"/>"
					"<link_ctn id=\"card%d\" direction=\"DOWN\"/>", hi, w, hj);
			else
				fprintf(f, "<link_ctn id=\"wire%d\"/>", w);
			fputs("</route>\n", f);
		}
	}
}

char *hm_simgrid_platform(const struct hm_platform *p, int b, enum hm_sim_kernels kernels,
			  const int *busy, struct hm_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int nwires = 0, *first_of_host;
	struct hm_link *wires;
	FILE *f;

	if (p->nr_procs > HM_SIMGRID_MAX_PROCESSORS) {
		hm_error_set(err, "%d processors: the SimGrid export writes a route per pair of processors "
			     "and takes at most %d", p->nr_procs, HM_SIMGRID_MAX_PROCESSORS);
		return NULL;
	}
	first_of_host = malloc((size_t)p->nr_hosts * sizeof(int));
	wires = distinct_links(p, &nwires);
	f = first_of_host && wires ? open_memstream(&text, &len) : NULL;
	if (!f) {
		free(first_of_host), free(wires);
		hm_error_set(err, "out of memory");
		return NULL;
	}
	for (int i = p->nr_procs - 1; i >= 0; i--)
		first_of_host[p->procs[i].host_id] = i;
	fputs("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n", f);
	fputs("<!-- written by hetmap from the platform '", f);
	put_name(f, p->name);
	fprintf(f, "': kernels %s, speeds are 1/%s at b = %d; see models/platform/README.md in hetmap's "
		"source -->\n", hm_sim_kernels_name(kernels), kernels == HM_SIM_MODELED ? "k2_dgetf2" : "k3_dgemm", b);
	fputs("<platform version=\"4.1\">\n  <zone id=\"", f);
	put_name(f, p->name);
	fputs("\" routing=\"Full\">\n", f);
	put_hosts_and_links(f, p, b, kernels, busy, first_of_host, wires, nwires);
	put_routes(f, p, wires, nwires);
	fputs("  </zone>\n</platform>\n", f);
	free(first_of_host), free(wires);
	if (fclose(f) || !text) {
		free(text);
		hm_error_set(err, "out of memory");
		return NULL;
	}
	return text;
}

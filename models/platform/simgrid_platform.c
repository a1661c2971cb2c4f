/* models/platform/simgrid_platform.c - see simgrid_platform.h. */
#include "simgrid_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double hm_simgrid_speed(const struct hm_platform *p, int proc, int b)
{
	return 1.0 / hm_table_at(&p->types[p->procs[proc].type].k3_dgemm, b);
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

/* A host's card: the bandwidth of its fastest link to another host (its
 * single-core platforms' value when it has none). */
static double card_bandwidth(const struct hm_platform *p, const int *first_of_host, int host)
{
	double best = 8.0 / p->links[HM_LINK_INTER_HOST].t_w;

	for (int j = 0; j < p->nr_procs; j++) {
		if (p->procs[j].host_id == host)
			continue;
		double bw = 8.0 / hm_platform_link(p, first_of_host[host], j).t_w;

		if (bw > best)
			best = bw;
	}
	return best;
}

static void put_hosts_and_links(FILE *f, const struct hm_platform *p, int b, const int *first_of_host,
				const struct hm_link *wires, int nwires)
{
	for (int i = 0; i < p->nr_procs; i++) {
		fputs("    <host id=\"", f);
		put_name(f, p->procs[i].name);
		fprintf(f, "\" speed=\"%.9gf\" core=\"%d\"/>\n", hm_simgrid_speed(p, i, b), p->procs[i].cores);
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

char *hm_simgrid_platform(const struct hm_platform *p, int b, struct hm_error *err)
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
	fprintf(f, "': speeds are 1/k3_dgemm at b = %d; see models/platform/README.md in hetmap's source -->\n", b);
	fputs("<platform version=\"4.1\">\n  <zone id=\"", f);
	put_name(f, p->name);
	fputs("\" routing=\"Full\">\n", f);
	put_hosts_and_links(f, p, b, first_of_host, wires, nwires);
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

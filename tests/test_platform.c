/* tests/test_platform.c - platform loader, units, tables and links. */
#include "check.h"
#include "models/platform/calibration.h"
#include "models/platform/kernel_rounds.h"
#include "models/platform/kernel_model.h"
#include "models/platform/platform.h"
#include "models/common/host_links.h"
#include "models/platform/simgrid_platform.h"
#include "models/platform/units.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 'file' of the repository (HM_SOURCE_DIR, compiled in) */
static struct hm_platform *load(const char *file)
{
	struct hm_platform *p = NULL;
	struct hm_error err;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", HM_SOURCE_DIR, file);
	if (hm_platform_load(path, &p, &err)) {
		char buf[1200];

		fprintf(stderr, "load %s: %s\n", path, hm_error_format(&err, buf, sizeof(buf)));
	}
	return p;
}

static void reference_platforms_should_load_with_their_sizes(void)
{
	static const struct { const char *file; int procs, types, hosts; } ref[] = {
		{ "sunet.json", 6, 2, 6 },        { "torc.json", 19, 4, 11 },
		{ "msunet-01.json", 10, 2, 10 },  { "msunet-02.json", 20, 2, 20 },
		{ "msunet-03.json", 20, 3, 20 },  { "mtorc-01.json", 29, 4, 21 },
		{ "mtorc-02.json", 50, 4, 45 },   { "mtorc-03.json", 100, 10, 95 },
	};
	size_t i;

	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		char file[64];
		struct hm_platform *p;

		snprintf(file, sizeof(file), "models/platform/builtin/%s", ref[i].file);
		p = load(file);
		if (!CHECK(p != NULL))
			continue;
		CHECK(p->nr_procs == ref[i].procs);
		CHECK(p->nr_types == ref[i].types);
		CHECK(p->nr_hosts == ref[i].hosts);
		CHECK(p->nr_block_sizes == 4 && p->block_sizes[0] == 16 && p->block_sizes[3] == 128);
		hm_platform_free(p);
	}
}

static void torc_should_hold_the_thesis_values(void)
{
	struct hm_platform *p = load("models/platform/builtin/torc.json"), *b = NULL;
	struct hm_error err;
	struct hm_link l;

	if (!CHECK(p != NULL))
		return;
	/* SPIII k3 at b = 32 is 0.002 us/flop, DPIII k2 0.015 us/flop */
	CHECK_NEAR(hm_table_at(&p->types[p->procs[16].type].k3_dgemm, 32), 0.002e-6, 1e-12);
	CHECK_NEAR(hm_table_at(&p->types[p->procs[16].type].k3_dtrsm, 64), 0.003e-6, 1e-12);
	CHECK_NEAR(hm_table_at(&p->types[p->procs[0].type].k2_dgetf2, 128), 0.015e-6, 1e-12);
	/* P0 and P1 share a dual node; same-node links equal inter-node ones */
	CHECK(p->procs[0].host_id == p->procs[1].host_id && p->procs[1].host_id != p->procs[2].host_id);
	l = hm_platform_link(p, 0, 0);
	CHECK_NEAR(l.t_s, 10e-6, 1e-12);
	CHECK_NEAR(l.t_w, 0.25e-6, 1e-12);
	l = hm_platform_link(p, 0, 18);
	CHECK_NEAR(l.t_s, 100e-6, 1e-12);
	CHECK_NEAR(l.t_w, 0.72e-6, 1e-12);
	CHECK(hm_platform_find(p, "P18") == 18 && hm_platform_find(p, "P19") == -1);
	/* the builtin copy is the same file */
	CHECK(hm_platform_load("builtin:torc", &b, &err) == 0);
	if (b)
		CHECK(b->nr_procs == 19 && !strcmp(b->name, "TORC"));
	hm_platform_free(b);
	CHECK(hm_platform_load("builtin:nope", &b, &err) == -1 && b == NULL);
	CHECK(strstr(err.msg, "no builtin platform 'nope'") != NULL);
	hm_platform_free(p);
}

static void mini_should_convert_units_and_apply_overrides(void)
{
	struct hm_platform *p = load("tests/data/good/mini.json");
	struct hm_link l;
	int a0, a1, b0;

	if (!CHECK(p != NULL))
		return;
	a0 = hm_platform_find(p, "a0");
	a1 = hm_platform_find(p, "a1");
	b0 = hm_platform_find(p, "b0");
	CHECK(a0 == 0 && a1 == 1 && b0 == 2);
	CHECK(p->procs[a0].cores == 2 && p->procs[a1].cores == 1);
	CHECK_NEAR(p->procs[a0].memory, 1073741824.0, 1e-15);
	CHECK(p->procs[a1].memory == 0);
	/* default candidates: the block sizes of the tables */
	CHECK(p->nr_block_sizes == 2 && p->block_sizes[0] == 32 && p->block_sizes[1] == 64);
	/* "k3" sets both dgemm and dtrsm */
	CHECK_NEAR(hm_table_at(&p->types[1].k3_dtrsm, 64), 0.003e-6, 1e-12);
	/* interpolation between 32 and 64, clamping outside */
	CHECK_NEAR(hm_table_at(&p->types[1].k3_dgemm, 48), 0.0035e-6, 1e-12);
	CHECK_NEAR(hm_table_at(&p->types[1].k3_dgemm, 8), 0.004e-6, 1e-12);
	CHECK_NEAR(hm_table_at(&p->types[1].k3_dgemm, 256), 0.003e-6, 1e-12);
	l = hm_platform_link(p, a0, a1);    /* same node: 5 us, 10 GB/s */
	CHECK_NEAR(l.t_s, 5e-6, 1e-12);
	CHECK_NEAR(l.t_w, 8.0 / 10e9, 1e-12);
	l = hm_platform_link(p, a1, b0);    /* inter node: 50 us, 1 Gbit/s */
	CHECK_NEAR(l.t_s, 50e-6, 1e-12);
	CHECK_NEAR(l.t_w, 64.0 / 1e9, 1e-12);
	l = hm_platform_link(p, b0, a0);    /* override, either order */
	CHECK_NEAR(l.t_s, 20e-6, 1e-12);
	CHECK_NEAR(l.t_w, 0.5e-6, 1e-12);
	l = hm_platform_link(p, a1, a1);    /* same processor */
	CHECK_NEAR(l.t_s, 1e-6, 1e-12);
	hm_platform_free(p);
}

/* A rule whose end lists hosts prices the pairs between those hosts and
 * any other; inside a host the same-node scope holds; an override still
 * wins over the rule. */
static void rules_should_list_hosts_and_leave_a_node_alone(void)
{
	struct hm_platform *p = load("tests/data/good/mini-rules.json");
	int a0, a1, b0, c0;

	if (!CHECK(p != NULL))
		return;
	a0 = hm_platform_find(p, "a0"), a1 = hm_platform_find(p, "a1");
	b0 = hm_platform_find(p, "b0"), c0 = hm_platform_find(p, "c0");
	CHECK_NEAR(hm_platform_link(p, a1, b0).t_s, 80e-6, 1e-12);      /* hostA ~ * */
	CHECK_NEAR(hm_platform_link(p, c0, b0).t_w, 64.0 / 1e8, 1e-15);  /* hostC ~ * */
	CHECK_NEAR(hm_platform_link(p, a1, c0).t_s, 80e-6, 1e-12);
	CHECK_NEAR(hm_platform_link(p, a0, a1).t_s, 5e-6, 1e-12);       /* one host: same node */
	CHECK_NEAR(hm_platform_link(p, a0, b0).t_s, 20e-6, 1e-12);      /* the override */
	hm_platform_free(p);
}

/* A pattern is taken whole: "n[1,3]" is fnmatch's bracket (n1 and n3),
 * "n1,n4" one name that matches nothing, which the loader warns about;
 * names and wildcards mix in one list. */
static void rule_patterns_should_be_whole(void)
{
	static const char head[] =
		"{\"types\":{\"t\":{\"k3\":1e-9,\"k2_dgetf2\":1e-9}},\"processors\":["
		"{\"name\":\"n1\",\"type\":\"t\"},{\"name\":\"n2\",\"type\":\"t\"},"
		"{\"name\":\"n3\",\"type\":\"t\"},{\"name\":\"n4\",\"type\":\"t\"},"
		"{\"name\":\"m5\",\"type\":\"t\"}],\"network\":{"
		"\"same_processor\":{\"t_s\":0,\"t_w\":0},\"same_node\":{\"t_s\":0,\"t_w\":0},"
		"\"inter_node\":{\"t_s\":1e-5,\"t_w\":1e-8},\"links\":[";
	char json[1024];
	struct hm_platform *p = NULL;
	struct hm_error err;

	snprintf(json, sizeof(json), "%s%s", head,
		 "{\"between\":[\"n[1,3]\",\"*\"],\"t_s\":1e-3,\"t_w\":1e-8},"
		 "{\"between\":[\"n1,n4\",\"*\"],\"t_s\":2e-3,\"t_w\":1e-8},"
		 "{\"between\":[[\"m?\",\"n2\"],\"n4\"],\"t_s\":3e-3,\"t_w\":1e-8}]},\"block_sizes\":[32]}");
	hm_error_clear(&err);
	if (!CHECK(hm_platform_load_buffer(json, strlen(json), "rules", &p, &err) == 0)) {
		fprintf(stderr, "  %s: %s\n", err.path, err.msg);
		return;
	}
	CHECK_NEAR(hm_platform_link(p, 0, 1).t_s, 1e-3, 1e-12);  /* n1 ~ * */
	CHECK_NEAR(hm_platform_link(p, 2, 4).t_s, 1e-3, 1e-12);  /* n3 ~ * */
	CHECK_NEAR(hm_platform_link(p, 4, 3).t_s, 3e-3, 1e-12);  /* m5 ~ n4 */
	CHECK_NEAR(hm_platform_link(p, 1, 3).t_s, 3e-3, 1e-12);  /* n2 ~ n4 */
	CHECK_NEAR(hm_platform_link(p, 1, 4).t_s, 1e-5, 1e-12);  /* n2 ~ m5: none */
	CHECK(p->nr_warnings == 1 && strstr(p->warnings[0], "network.links[1].between[0]: matches no"));
	hm_platform_free(p);
}

/* The link schedule against a cluster whose pairs cost max(w_a, w_b):
 * every host's own cost comes back, settled, in rounds of disjoint pairs,
 * far fewer than all pairs. Returns the rounds' faults (a host twice in
 * a round, a pair of one host). */
static int schedule_cluster(int H, const double *truth, int first_rounds, int *rounds, int *pairs, int *exact)
{
	struct hm_link_schedule s;
	struct hm_host_pair out[64];
	double w[128];
	int by[128], known[128], k, bad = 0;

	if (hm_link_schedule_init(&s, H, first_rounds, 0.2))
		return -1;
	*rounds = 0;
	while ((k = hm_link_schedule_next(&s, out)) > 0) {
		unsigned char in_round[128] = { 0 };

		for (int i = 0; i < k; i++) {
			bad += in_round[out[i].a]++ || in_round[out[i].b]++ || out[i].a == out[i].b;
			hm_link_schedule_record(&s, out[i].a, out[i].b, fmax(truth[out[i].a], truth[out[i].b]));
		}
		++*rounds;
	}
	*pairs = s.n;
	hm_host_links_bound(H, s.pairs, s.n, 0.2, w, by, known);
	*exact = 0;
	for (int h = 0; h < H; h++)
		*exact += known[h] && w[h] == truth[h];
	hm_link_schedule_release(&s);
	return bad;
}

static void link_schedule_should_find_every_hosts_link(void)
{
	double truth[128];
	int rounds, pairs, exact;

	/* 100 hosts, every 7th slow, every 11th mid: 3 rounds and settling */
	for (int h = 0; h < 100; h++)
		truth[h] = h % 7 == 1 ? 10 : h % 11 == 5 ? 2.5 : 1;
	CHECK(schedule_cluster(100, truth, 0, &rounds, &pairs, &exact) == 0);
	CHECK(exact == 100 && rounds <= 6 && pairs < 400);
	/* mostly slow, every 5th fast: found and settled within 12 rounds */
	for (int h = 0; h < 100; h++)
		truth[h] = h % 5 ? 10 : 1;
	CHECK(schedule_cluster(100, truth, 0, &rounds, &pairs, &exact) == 0);
	CHECK(exact == 100 && rounds <= 12);
	/* a small cluster: every pair, one fast pair among slow hosts found */
	for (int h = 0; h < 9; h++)
		truth[h] = h == 2 || h == 6 ? 1 : 10;
	CHECK(schedule_cluster(9, truth, 0, &rounds, &pairs, &exact) == 0);
	CHECK(pairs == 36 && rounds == 9 && exact == 9);
	/* one host: nothing to measure; two: one pair */
	CHECK(schedule_cluster(1, truth, 0, &rounds, &pairs, &exact) == 0 && pairs == 0);
	CHECK(schedule_cluster(2, truth, 5, &rounds, &pairs, &exact) == 0 && pairs == 1 && rounds == 1);
}

static void units_should_parse_and_reject(void)
{
	static const struct { const char *text; enum hm_unit_kind kind; double want; } good[] = {
		{ "100us", HM_UNIT_SECONDS, 100e-6 },     { "1.5ms", HM_UNIT_SECONDS, 1.5e-3 },
		{ "0.72us", HM_UNIT_SECONDS_PER_WORD, 0.72e-6 },
		{ "100Mbps", HM_UNIT_SECONDS_PER_WORD, 64.0 / 1e8 },
		{ "125MB/s", HM_UNIT_SECONDS_PER_WORD, 8.0 / 125e6 },
		{ "2GiB", HM_UNIT_BYTES, 2147483648.0 },  { "1e3B", HM_UNIT_BYTES, 1000.0 },
		{ "0.003us", HM_UNIT_SECONDS_PER_FLOP, 0.003e-6 },
	};
	static const struct { const char *text; enum hm_unit_kind kind; } bad[] = {
		{ "5 us", HM_UNIT_SECONDS }, { "-1us", HM_UNIT_SECONDS }, { "us", HM_UNIT_SECONDS },
		{ "1e400s", HM_UNIT_SECONDS }, { "0us", HM_UNIT_SECONDS }, { "10GB", HM_UNIT_SECONDS },
		{ "100Mbps", HM_UNIT_SECONDS }, { "nan", HM_UNIT_BYTES }, { "", HM_UNIT_BYTES },
		{ " 5s", HM_UNIT_SECONDS }, { "1s ", HM_UNIT_SECONDS },
	};
	char why[256];
	double v;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(hm_unit_parse(good[i].text, good[i].kind, &v, why, sizeof(why)) == 0);
		CHECK_NEAR(v, good[i].want, 1e-12);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!CHECK(hm_unit_parse(bad[i].text, bad[i].kind, &v, why, sizeof(why)) == -1))
			fprintf(stderr, "  accepted '%s'\n", bad[i].text);
}

static void buffer_with_nul_should_be_rejected(void)
{
	static const char text[] = "{\"name\": \"a\0b\"}";
	struct hm_platform *p;
	struct hm_error err;

	CHECK(hm_platform_load_buffer(text, sizeof(text) - 1, "mem", &p, &err) == -1);
	CHECK(p == NULL && strstr(err.msg, "NUL") != NULL);
	CHECK(!strcmp(err.file, "mem"));
}

/* Message sizes and the ping-pong of one pair between the node's two
 * processors. */
#define PINGPONG_SAME_NODE "\"bytes\": [8, 16], \"pingpong\": [{\"scope\": \"same_node\"," \
	" \"ranks\": [0, 1], \"seconds\": [1e-6, 1.1e-6]}]"

/* The calibration fit of a node of two cores whose first core also
 * measured dgemm alone: 'alone' s/flop against 1e-10 with both busy;
 * 'pingpong' the message sizes and ping-pong entries. */
static cJSON *fit_node(double alone, const char *pingpong)
{
	char raw[2048];
	const char *names[] = { "h-0", "h-1" }, *hosts[] = { "h", "h" };
	struct hm_calibration_opts o = { "t", 0.2, names, hosts, NULL, 2, 0, 1, "now" };
	struct hm_error err;
	cJSON *in, *out;

	snprintf(raw, sizeof(raw),
		 "{\"hetmap_calibration_raw\": 1, \"rows\": 64, \"repeat\": 1, \"block_sizes\": [32],"
		 " %s, \"processors\": ["
		 "{\"rank\": 0, \"host\": \"h\", \"k3_dgemm\": [[1e-10]], \"k3_dtrsm\": [[2e-10]],"
		 " \"k2_dgetf2\": [[3e-10]], \"k3_dgemm_alone\": [[%g]]},"
		 "{\"rank\": 1, \"host\": \"h\", \"k3_dgemm\": [[1e-10]], \"k3_dtrsm\": [[2e-10]],"
		 " \"k2_dgetf2\": [[3e-10]]}]}", pingpong, alone);
	in = cJSON_Parse(raw);
	out = hm_calibration_platform(in, &o, &err);
	cJSON_Delete(in);
	if (!out)
		fprintf(stderr, "  fit failed: %s: %s\n", err.path, err.msg);
	return out;
}

static void calibration_should_fit_the_busy_cores_scale(void)
{
	cJSON *faster = fit_node(0.8e-10, PINGPONG_SAME_NODE);
	cJSON *noise = fit_node(0.96e-10, PINGPONG_SAME_NODE);

	if (CHECK(faster != NULL) && CHECK(noise != NULL)) {
		const cJSON *t = cJSON_GetObjectItem(cJSON_GetObjectItem(faster, "types"), "T1");
		const cJSON *scale = cJSON_GetObjectItem(t, "busy_cores_scale");

		/* a core alone 1.25x faster: scale 0.8 at one busy core, 1 at both */
		CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(scale, "1")), 0.8, 1e-12);
		CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(scale, "2")), 1, 1e-12);
		CHECK(cJSON_GetArraySize(scale) == 2);
		/* alone 4 % faster (within noise): no scale, the ratio kept in the record */
		t = cJSON_GetObjectItem(cJSON_GetObjectItem(noise, "types"), "T1");
		CHECK(cJSON_GetObjectItem(t, "busy_cores_scale") == NULL);
		CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(
			cJSON_GetObjectItem(noise, "calibration"), "dgemm_alone_over_all_busy"), "T1")),
			0.96, 1e-12);
		/* and hetmap reads what the fit wrote */
		char *text = cJSON_Print(faster);
		struct hm_platform *p = NULL;
		struct hm_error err;

		CHECK(text && hm_platform_load_buffer(text, strlen(text), "fit", &p, &err) == 0);
		CHECK(p && p->nr_procs == 1 && p->procs[0].cores == 2 && p->types[0].busy_scale.n == 2);
		hm_platform_free(p);
		free(text);
	}
	cJSON_Delete(faster);
	cJSON_Delete(noise);
}

/* A link 100x slower per word than a copy between two processes of one
 * processor (1e-7 against 1e-9 s per word): the calibration writes the
 * copy's cost as the core's part of the slow link (and of the scope it
 * stands in for), none on the same-processor link itself. */
static void calibration_should_split_a_slow_wire(void)
{
	/* 8 bytes, then 8192 and 16384 words */
	cJSON *fit = fit_node(1e-10, "\"bytes\": [8, 65536, 131072], \"pingpong\": ["
			      "{\"scope\": \"same_processor\", \"ranks\": [0, 2],"
			      " \"seconds\": [1e-6, 9.192e-6, 17.384e-6]},"
			      " {\"scope\": \"same_node\", \"ranks\": [0, 1],"
			      " \"seconds\": [1e-5, 8.292e-4, 16.484e-4]}]");
	const cJSON *net = cJSON_GetObjectItem(fit, "network");

	if (!CHECK(net != NULL))
		return;
	for (int c = HM_LINK_SAME_HOST; c <= HM_LINK_INTER_HOST; c++) {
		const cJSON *l = cJSON_GetObjectItem(net, hm_link_scope_name((enum hm_link_scope)c));

		CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(l, "t_w")), 1e-7, 1e-12);
		CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(l, "t_w_core")), 1e-9, 1e-13);
	}
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(net, "same_processor"), "t_w_core") == NULL);
	cJSON_Delete(fit);
}

/* Shapes timed with a known dgemm model (a flop rate, a per-call and a
 * per-element cost) come back as that model; a model that would need a
 * negative coefficient gets the best non-negative one instead; too few
 * shapes are refused. */
static void kernel_fit_should_recover_the_coefficients(void)
{
	static const double truth[5] = { 2e-11, 3e-10, 0, 0, 2e-6 };
	double shape[24][3], seconds[24];
	struct hm_kernel_model m;
	int n = 0;

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 6; j++, n++) {
			shape[n][0] = 64 << i, shape[n][1] = 32 << (j % 3), shape[n][2] = 16 << (j / 2);
			m = (struct hm_kernel_model){ 5, { truth[0], truth[1], truth[2], truth[3], truth[4] } };
			seconds[n] = hm_kernel_seconds(&m, HM_KERNEL_DGEMM, shape[n][0], shape[n][1], shape[n][2]);
		}
	if (!CHECK(hm_kernel_fit(HM_KERNEL_DGEMM, (const double (*)[3])shape, seconds, n, &m) == 0))
		return;
	CHECK(m.nterms == 5);
	for (int t = 0; t < 5; t++)
		CHECK(fabs(m.c[t] - truth[t]) <= 1e-4 * truth[t] + 1e-16);
	/* times that fall with k: the k term's best non-negative value is 0 */
	for (int i = 0; i < n; i++)
		seconds[i] = 1e-3 - 1e-7 * shape[i][2];
	CHECK(hm_kernel_fit(HM_KERNEL_DGEMM, (const double (*)[3])shape, seconds, n, &m) == 0);
	for (int t = 0; t < 5; t++)
		CHECK(m.c[t] >= 0);
	CHECK(hm_kernel_fit(HM_KERNEL_DGEMM, (const double (*)[3])shape, seconds, 4, &m) == -1);
}

/* A host's card is the fastest link off it, for the models (card_t_w) and
 * the export alike: hosts a, b, c; a rule links a and b at 1e-9 s/word, a
 * pair entry b and c at 5e-9, the rest 1e-8. So a's and b's cards move a
 * word in 1e-9 s (8e9 B/s), c's in 5e-9 (1.6e9 B/s); on one host, none. */
static void cards_should_be_the_fastest_link_off_the_host(void)
{
	static const char json[] =
		"{\"name\": \"cards\", \"types\": {\"T\": {\"k3\": 1e-10, \"k2_dgetf2\": 2e-10}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"T\", \"cores\": 4},"
		"{\"name\": \"b\", \"type\": \"T\", \"cores\": 4},"
		"{\"name\": \"c\", \"type\": \"T\", \"cores\": 4}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-10},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-10},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8},"
		" \"links\": [{\"between\": [\"a\", \"b\"], \"t_s\": 1e-5, \"t_w\": 1e-9}],"
		" \"pairs\": [{\"between\": [\"b\", \"c\"], \"t_s\": 1e-5, \"t_w\": 5e-9}]},"
		" \"block_sizes\": [64]}";
	static const char one_host[] =
		"{\"types\": {\"T\": {\"k3\": 1e-10, \"k2_dgetf2\": 2e-10}},"
		" \"processors\": [{\"name\": \"a\", \"host\": \"h\", \"type\": \"T\"},"
		"{\"name\": \"b\", \"host\": \"h\", \"type\": \"T\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-10},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-10},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}, \"block_sizes\": [64]}";
	struct hm_platform *p;
	struct hm_error err;
	char *xml;

	if (!CHECK(hm_platform_load_buffer(json, strlen(json), "cards", &p, &err) == 0))
		return;
	CHECK(p->procs[0].card_t_w == 1e-9 && p->procs[1].card_t_w == 1e-9);
	CHECK(p->procs[2].card_t_w == 5e-9);
	xml = hm_simgrid_platform(p, 64, HM_SIM_MODELED, NULL, &err);
	if (CHECK(xml != NULL))
		CHECK(strstr(xml, "<link id=\"card0\" bandwidth=\"8e+09Bps\"") != NULL &&
		      strstr(xml, "<link id=\"card2\" bandwidth=\"1.6e+09Bps\"") != NULL);
	free(xml);
	hm_platform_free(p);
	if (!CHECK(hm_platform_load_buffer(one_host, strlen(one_host), "one host", &p, &err) == 0))
		return;
	CHECK(p->procs[0].card_t_w == 0 && p->procs[1].card_t_w == 0);
	hm_platform_free(p);
}

/* A job's processes per processor reach the exported hosts: a type with a
 * busy-cores scale runs faster with idle cores (speed / scale, kernel
 * models x scale), as the model's rule says; NULL is every core busy. */
static void export_should_scale_a_partly_busy_node(void)
{
	static const char json[] =
		"{\"name\": \"busy\", \"types\": {\"T\": {\"k3\": 1e-10, \"k2_dgetf2\": 2e-10,"
		" \"busy_cores_scale\": {\"1\": 0.5, \"4\": 1}}}, \"processors\": ["
		"{\"name\": \"a\", \"type\": \"T\", \"cores\": 4},"
		"{\"name\": \"b\", \"type\": \"T\", \"cores\": 4}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}, \"block_sizes\": [64]}";
	struct hm_platform *p;
	struct hm_error err;
	int busy[2] = { 1, 4 };
	char *all, *some;

	if (!CHECK(hm_platform_load_buffer(json, strlen(json), "busy", &p, &err) == 0))
		return;
	all = hm_simgrid_platform(p, 64, HM_SIM_MODELED, NULL, &err);
	some = hm_simgrid_platform(p, 64, HM_SIM_MODELED, busy, &err);
	if (CHECK(all && some)) {
		/* k2 2e-10 s/flop: 5e9 flop/s all busy; one busy core of 'a' at scale 0.5 */
		CHECK(strstr(all, "<host id=\"a\" speed=\"5e+09f\"") != NULL);
		CHECK(strstr(some, "<host id=\"a\" speed=\"1e+10f\"") != NULL);
		CHECK(strstr(some, "<host id=\"b\" speed=\"5e+09f\"") != NULL);
		CHECK(strstr(all, "table 1:1e-10") != NULL && strstr(some, "table 1:5e-11") != NULL);
	}
	free(all);
	free(some);
	hm_platform_free(p);
}

/* Samples taken in rounds: every round at its own level (the machine's
 * speed wandering 2x), the block sizes' shape fixed (1, 1.05, 1.2): the
 * shape comes back exactly, the level's notch says how the level wandered;
 * unequal counts fall back to each b's own median. */
static void rounds_should_recover_the_shape_under_a_wandering_level(void)
{
	static const double shape[3] = { 1.0, 1.05, 1.2 }, level[7] = { 1, 2, 1.3, 1.9, 1.1, 1.5, 1.7 };
	double s[3][7];
	const double *rows[3] = { s[0], s[1], s[2] };
	int n[3] = { 7, 7, 7 };
	struct hm_kernel_rounds kr;

	for (int b = 0; b < 3; b++)
		for (int i = 0; i < 7; i++)
			s[b][i] = shape[b] * level[i];
	hm_kernel_rounds(rows, n, 3, &kr);
	CHECK(kr.paired);
	CHECK_NEAR(kr.k[1] / kr.k[0], 1.05, 1e-12);
	CHECK_NEAR(kr.k[2] / kr.k[0], 1.2, 1e-12);
	CHECK(kr.shape_notch[0] < 1e-12 && kr.shape_notch[2] < 1e-12);
	CHECK(kr.level_notch > 0.3);
	n[2] = 6;
	hm_kernel_rounds(rows, n, 3, &kr);
	CHECK(!kr.paired && kr.k[0] == 1.5 * shape[0]);
}

static const struct check_case cases[] = {
	CHECK_CASE(export_should_scale_a_partly_busy_node),
	CHECK_CASE(cards_should_be_the_fastest_link_off_the_host),
	CHECK_CASE(reference_platforms_should_load_with_their_sizes),
	CHECK_CASE(torc_should_hold_the_thesis_values),
	CHECK_CASE(mini_should_convert_units_and_apply_overrides),
	CHECK_CASE(rules_should_list_hosts_and_leave_a_node_alone),
	CHECK_CASE(rule_patterns_should_be_whole),
	CHECK_CASE(link_schedule_should_find_every_hosts_link),
	CHECK_CASE(units_should_parse_and_reject),
	CHECK_CASE(buffer_with_nul_should_be_rejected),
	CHECK_CASE(calibration_should_fit_the_busy_cores_scale),
	CHECK_CASE(calibration_should_split_a_slow_wire),
	CHECK_CASE(kernel_fit_should_recover_the_coefficients),
	CHECK_CASE(rounds_should_recover_the_shape_under_a_wandering_level),
};

CHECK_MAIN("test_platform")

/* models/platform/generator.c - see generator.h. */
#include "generator.h"
#include "models/util/json_read.h"
#include "hostname.h"
#include "platform.h"
#include "models/util/read_file.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GENERATED HM_MAX_PROCESSORS   /* what the loader accepts */
#define MAX_FIXED_KEYS 64

static const int shape_b[4] = { 16, 32, 64, 128 };
static const double gemm_shape[4] = { 1.3, 1.1, 1.0, 1.0 };
static const double trsm_shape[4] = { 3.0, 2.0, 1.5, 1.2 };

/* splitmix64: small, and the same numbers on every machine */
static double uniform(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

static int check_keys(const cJSON *obj, const char *path, const char *const *allowed,
		      struct hm_error *err)
{
	return hm_json_check_keys(obj, path, allowed, MAX_FIXED_KEYS, err);
}

/* The JSON text of a platform file or builtin, parsed. */
static cJSON *load_base(const char *from, struct hm_error *err)
{
	cJSON *doc = NULL;

	if (!strncmp(from, "builtin:", 8)) {
		const char *text = hm_platform_builtin_json(from + 8);

		if (!text) {
			hm_error_at(err, "from", "no builtin platform '%s'", from + 8);
			return NULL;
		}
		doc = cJSON_Parse(text);
	} else {
		struct hm_error why;

		hm_error_clear(&why);
		if (!(doc = hm_json_read_file(from, HM_MAX_PLATFORM_BYTES, &why))) {
			hm_error_at(err, "from", "'%s': %s", from, why.msg);
			return NULL;
		}
	}
	if (!cJSON_IsObject(doc)) {
		cJSON_Delete(doc);
		hm_error_at(err, "from", "'%s' is not a platform JSON object", from);
		return NULL;
	}
	return doc;
}

static int get_positive(const cJSON *obj, const char *key, const char *path, double lo, double hi,
			double *out, struct hm_error *err)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char where[128];

	if (!it)
		return 0;   /* keep the default */
	snprintf(where, sizeof(where), "%s.%s", path, key);
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < lo ||
	    it->valuedouble > hi)
		return hm_error_at(err, where, "expected a number in [%g, %g]", lo, hi);
	*out = it->valuedouble;
	return 0;
}

/* What generation adds to: the platform's processor list, its size
 * (cJSON counts an array by walking it: counting once keeps generation
 * linear in P) and the base platform's hosts, which generated hosts must
 * not merge with. */
struct target {
	cJSON *procs;
	int count;
	int host_counter;
	const char **base_hosts;    /* sorted */
	int nr_base_hosts;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int init_target(struct target *t, cJSON *plat, struct hm_error *err)
{
	const cJSON *e;

	memset(t, 0, sizeof(*t));
	t->procs = cJSON_GetObjectItemCaseSensitive(plat, "processors");
	t->count = cJSON_GetArraySize(t->procs);
	t->host_counter = t->count;
	if (t->count && !(t->base_hosts = malloc((size_t)t->count * sizeof(char *))))
		return hm_error_set(err, "out of memory");
	cJSON_ArrayForEach(e, t->procs) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(e, "host");

		if (!cJSON_IsString(h))
			h = cJSON_GetObjectItemCaseSensitive(e, "name");
		if (cJSON_IsString(h))
			t->base_hosts[t->nr_base_hosts++] = h->valuestring;
	}
	if (t->nr_base_hosts)
		qsort(t->base_hosts, (size_t)t->nr_base_hosts, sizeof(char *), cmp_str);
	return 0;
}

/* Append one processor of 'type' on 'host', named 'name', or G<index>
 * when 'name' is NULL; the new entry, or NULL with 'err' set. */
static cJSON *add_named(struct target *t, const char *type, const char *host, const char *name,
			const char *path, struct hm_error *err)
{
	char numbered[64];
	cJSON *p;

	if (t->count >= MAX_GENERATED) {
		hm_error_at(err, path, "more than %d processors in all", MAX_GENERATED);
		return NULL;
	}
	if (t->nr_base_hosts && bsearch(&host, t->base_hosts, (size_t)t->nr_base_hosts, sizeof(char *), cmp_str)) {
		hm_error_at(err, path, "generated host '%s' is a host of the base platform too "
			    "(choose another host_prefix)", host);
		return NULL;
	}
	snprintf(numbered, sizeof(numbered), "G%d", t->count++);
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "name", name ? name : numbered);
	cJSON_AddStringToObject(p, "host", host);
	cJSON_AddStringToObject(p, "type", type);
	cJSON_AddItemToArray(t->procs, p);
	return p;
}

/* One processor named G<index>: 0, or -1 with 'err' set. */
static int add_one(struct target *t, const char *type, const char *host, const char *path,
		   struct hm_error *err)
{
	return add_named(t, type, host, NULL, path, err) ? 0 : -1;
}

/* Append one node of a group g: a processor named after its host, with the
 * group's cores, sockets and memory (copied as written: the loader checks them). */
static int add_node(struct target *t, const char *type, const char *host, const cJSON *g,
		    const char *path, struct hm_error *err)
{
	static const char *const copied[] = { "cores", "sockets", "memory" };
	cJSON *p = add_named(t, type, host, host, path, err);

	if (!p)
		return -1;
	for (size_t i = 0; i < sizeof(copied) / sizeof(copied[0]); i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(g, copied[i]);

		if (v)
			cJSON_AddItemToObject(p, copied[i], cJSON_Duplicate(v, 0));
	}
	return 0;
}

/* "groups": nodes of one generation each, with real host names: a list
 * ("hosts"), or host_prefix + a zero-padded index ("count", "first",
 * "digits": skl01 .. skl08); "cores", "sockets" and "memory" per node. */
static int apply_groups(struct target *t, const cJSON *groups, struct hm_error *err)
{
	static const char *const keys[] = { "type", "hosts", "host_prefix", "count", "first",
					    "digits", "cores", "sockets", "memory", NULL };
	const cJSON *g;
	int gi = 0;

	if (!cJSON_IsArray(groups))
		return hm_error_at(err, "groups", "expected an array of groups");
	cJSON_ArrayForEach(g, groups) {
		const cJSON *hosts = cJSON_GetObjectItemCaseSensitive(g, "hosts");
		const char *type, *prefix = NULL;
		long count = 0, first = 1, digits = 0;
		char path[64], host[320];

		snprintf(path, sizeof(path), "groups[%d]", gi++);
		if (check_keys(g, path, keys, err) ||
		    hm_json_member_name(g, path, "type", 1, &type, err))
			return -1;
		if (hosts) {
			const cJSON *h;
			const char *name;

			if (cJSON_GetObjectItemCaseSensitive(g, "host_prefix") ||
			    cJSON_GetObjectItemCaseSensitive(g, "count"))
				return hm_error_at(err, path, "give 'hosts' or 'host_prefix' with 'count', not both");
			if (!cJSON_IsArray(hosts) || !cJSON_GetArraySize(hosts))
				return hm_error_at(err, path, "'hosts' must be a non-empty array of host names");
			cJSON_ArrayForEach(h, hosts)
				if (hm_json_name(h, path, &name, err) || hm_check_hostname(name, path, err) ||
				    add_node(t, type, name, g, path, err))
					return -1;
			continue;
		}
		if (!cJSON_GetObjectItemCaseSensitive(g, "host_prefix"))
			return hm_error_at(err, path, "missing 'hosts' or 'host_prefix'");
		if (hm_json_member_name(g, path, "host_prefix", 1, &prefix, err) ||
		    hm_check_hostname(prefix, path, err) ||
		    hm_json_member_int(g, path, "count", 1, 1, MAX_GENERATED, &count, err) ||
		    hm_json_member_int(g, path, "first", 0, 0, 1000000000, &first, err) ||
		    hm_json_member_int(g, path, "digits", 0, 1, 9, &digits, err))
			return -1;
		if (!digits)    /* enough for the last index, at least two */
			for (long last = first + count - 1, w = 10, dg = 1; ; w *= 10, dg++)
				if (last < w) {
					digits = dg < 2 ? 2 : dg;
					break;
				}
		for (long i = 0; i < count; i++) {
			snprintf(host, sizeof(host), "%s%0*ld", prefix, (int)digits, first + i);
			if (add_node(t, type, host, g, path, err))
				return -1;
		}
	}
	return 0;
}

/* Append 'count' processors of 'type', 'per_host' to a host named
 * PREFIX%04d. */
static int add_processors(struct target *t, const char *type, long count, long per_host,
			  const char *prefix, const char *path, struct hm_error *err)
{
	char host[300];

	for (long i = 0; i < count; i++) {
		if (i % per_host == 0)
			t->host_counter++;
		snprintf(host, sizeof(host), "%s%04d", prefix, t->host_counter);
		if (add_one(t, type, host, path, err))
			return -1;
	}
	return 0;
}

static int apply_add(struct target *t, const cJSON *add, struct hm_error *err)
{
	static const char *const keys[] = { "type", "count", "per_host", "host_prefix", NULL };
	const cJSON *e;
	int i = 0;

	if (!cJSON_IsArray(add))
		return hm_error_at(err, "add", "expected an array");
	cJSON_ArrayForEach(e, add) {
		char path[64];
		const char *type, *prefix = "node";
		long count, per_host = 1;

		snprintf(path, sizeof(path), "add[%d]", i++);
		if (check_keys(e, path, keys, err) ||
		    hm_json_member_name(e, path, "type", 1, &type, err) ||
		    hm_json_member_int(e, path, "count", 1, 1, MAX_GENERATED, &count, err) ||
		    hm_json_member_int(e, path, "per_host", 0, 1, 4096, &per_host, err) ||
		    hm_json_member_name(e, path, "host_prefix", 0, &prefix, err) ||
		    hm_check_hostname(prefix, path, err))
			return -1;
		if (add_processors(t, type, count, per_host, prefix, path, err))
			return -1;
	}
	return 0;
}

static cJSON *random_type(double k3, double factor, double k2_ratio)
{
	cJSON *t = cJSON_CreateObject();
	cJSON *g = cJSON_AddObjectToObject(t, "k3_dgemm"), *s = cJSON_AddObjectToObject(t, "k3_dtrsm");
	char key[8];

	for (int i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "%d", shape_b[i]);
		cJSON_AddNumberToObject(g, key, k3 * factor * gemm_shape[i]);
		cJSON_AddNumberToObject(s, key, k3 * factor * gemm_shape[i] * trsm_shape[i]);
	}
	cJSON_AddNumberToObject(t, "k2_dgetf2", k3 * factor * k2_ratio);
	return t;
}

static cJSON *default_network(void)
{
	cJSON *net = cJSON_CreateObject(), *l;

	l = cJSON_AddObjectToObject(net, "same_processor");
	cJSON_AddStringToObject(l, "t_s", "0.5us");
	cJSON_AddStringToObject(l, "t_w", "0.0005us");
	l = cJSON_AddObjectToObject(net, "same_node");
	cJSON_AddStringToObject(l, "t_s", "1us");
	cJSON_AddStringToObject(l, "t_w", "0.001us");
	l = cJSON_AddObjectToObject(net, "inter_node");
	cJSON_AddStringToObject(l, "t_s", "20us");
	cJSON_AddStringToObject(l, "t_w", "0.01us");
	return net;
}

static int apply_random(cJSON *plat, struct target *t, const cJSON *rnd, struct hm_error *err)
{
	static const char *const keys[] = { "seed", "processors", "types", "speed_ratio", "per_host",
					    "k3", "k2_over_k3", NULL };
	cJSON *types = cJSON_GetObjectItemCaseSensitive(plat, "types");
	double seed = 1, nprocs = 100, ntypes = 4, ratio = 10, per_host = 1, k3 = 1e-9;
	double k2lo = 4, k2hi = 12;
	const cJSON *k2 = cJSON_GetObjectItemCaseSensitive(rnd, "k2_over_k3");
	uint64_t state;
	char name[64], host[64];

	if (check_keys(rnd, "random", keys, err) ||
	    get_positive(rnd, "seed", "random", 0, 4294967295.0, &seed, err) ||
	    get_positive(rnd, "processors", "random", 1, MAX_GENERATED, &nprocs, err) ||
	    get_positive(rnd, "types", "random", 1, 1000, &ntypes, err) ||
	    get_positive(rnd, "speed_ratio", "random", 1, 1e6, &ratio, err) ||
	    get_positive(rnd, "per_host", "random", 1, 4096, &per_host, err) ||
	    get_positive(rnd, "k3", "random", 1e-15, 1, &k3, err))
		return -1;
	if (k2) {
		if (cJSON_GetArraySize(k2) != 2 || !cJSON_IsNumber(cJSON_GetArrayItem(k2, 0)) ||
		    !cJSON_IsNumber(cJSON_GetArrayItem(k2, 1)) ||
		    !((k2lo = cJSON_GetArrayItem(k2, 0)->valuedouble) > 0) ||
		    !((k2hi = cJSON_GetArrayItem(k2, 1)->valuedouble) >= k2lo) || !isfinite(k2hi))
			return hm_error_at(err, "random.k2_over_k3", "expected [lo, hi] with 0 < lo <= hi");
	}
	if (seed != floor(seed) || nprocs != floor(nprocs) || ntypes != floor(ntypes) ||
	    per_host != floor(per_host))
		return hm_error_at(err, "random", "seed, processors, types and per_host must be integers");
	if (t->count + nprocs > MAX_GENERATED)
		return hm_error_at(err, "random.processors", "more than %d processors in all", MAX_GENERATED);
	state = (uint64_t)seed;
	for (int ty = 0; ty < (int)ntypes; ty++) {
		/* first type 1x, last ratio x, the others log-uniform between */
		double f = ty == 0 ? 1 : ty == (int)ntypes - 1 ? ratio : exp(log(ratio) * uniform(&state));

		snprintf(name, sizeof(name), "R%d", ty + 1);
		if (cJSON_GetObjectItemCaseSensitive(types, name))
			return hm_error_at(err, "random", "type name '%s' already taken", name);
		cJSON_AddItemToObject(types, name, random_type(k3, f, k2lo + (k2hi - k2lo) * uniform(&state)));
	}
	for (int i = 0; i < (int)nprocs; i++) {
		if (i % (int)per_host == 0)
			t->host_counter++;
		snprintf(host, sizeof(host), "r%05d", t->host_counter);
		/* every type at least once, then uniform draws */
		snprintf(name, sizeof(name), "R%d", i < (int)ntypes ? i + 1 :
			 1 + (int)(uniform(&state) * ntypes) % (int)ntypes);
		if (add_one(t, name, host, "random", err))
			return -1;
	}
	if (!cJSON_GetObjectItemCaseSensitive(plat, "network"))
		cJSON_AddItemToObject(plat, "network", default_network());
	return 0;
}

static void set_item(cJSON *obj, const char *key, cJSON *value)
{
	if (cJSON_GetObjectItemCaseSensitive(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value);
	else
		cJSON_AddItemToObject(obj, key, value);
}

cJSON *hm_generate_platform(const cJSON *config, struct hm_error *err)
{
	static const char *const keys[] = { "hetmap_generator", "name", "description", "from",
					    "keep_processors", "types", "groups", "add", "random",
					    "network", "block_sizes", NULL };
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(config, "from");
	const cJSON *keep = cJSON_GetObjectItemCaseSensitive(config, "keep_processors");
	const cJSON *it, *e;
	cJSON *plat;
	long version;
	struct target t = { 0 };

	if (check_keys(config, "", keys, err))
		return NULL;
	if (!(it = cJSON_GetObjectItemCaseSensitive(config, "hetmap_generator")) ||
	    hm_json_int(it, "hetmap_generator", 1, 1, &version, err)) {
		if (!it)
			hm_error_at(err, "", "missing 'hetmap_generator': 1");
		return NULL;
	}
	if (from && !cJSON_IsString(from)) {
		hm_error_at(err, "from", "expected a platform file or builtin:NAME");
		return NULL;
	}
	if (keep && !cJSON_IsBool(keep)) {
		hm_error_at(err, "keep_processors", "expected true or false");
		return NULL;
	}
	plat = from ? load_base(from->valuestring, err) : cJSON_CreateObject();
	if (!plat)
		return NULL;
	cJSON_DeleteItemFromObjectCaseSensitive(plat, "calibration");
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(plat, "processors")) || cJSON_IsFalse(keep))
		set_item(plat, "processors", cJSON_CreateArray());
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(plat, "types")))
		set_item(plat, "types", cJSON_CreateObject());
	/* generated hosts must not merge with the base's */
	if (init_target(&t, plat, err))
		goto fail;
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "types"))) {
		if (!cJSON_IsObject(it)) {
			hm_error_at(err, "types", "expected an object");
			goto fail;
		}
		cJSON_ArrayForEach(e, it) {
			if (cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(plat, "types"), e->string)) {
				hm_error_at(err, "types", "type '%s' exists already", e->string);
				goto fail;
			}
			cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(plat, "types"), e->string,
					      cJSON_Duplicate(e, 1));
		}
	}
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "network")))
		set_item(plat, "network", cJSON_Duplicate(it, 1));
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "block_sizes")))
		set_item(plat, "block_sizes", cJSON_Duplicate(it, 1));
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "groups")) &&
	    apply_groups(&t, it, err))
		goto fail;
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "add")) &&
	    apply_add(&t, it, err))
		goto fail;
	if ((it = cJSON_GetObjectItemCaseSensitive(config, "random")) &&
	    apply_random(plat, &t, it, err))
		goto fail;
	for (int k = 1; k <= 2; k++) {  /* name and description */
		const char *key = k == 1 ? "name" : "description";

		if ((it = cJSON_GetObjectItemCaseSensitive(config, key))) {
			if (!cJSON_IsString(it)) {
				hm_error_at(err, key, "expected a string");
				goto fail;
			}
			set_item(plat, key, cJSON_CreateString(it->valuestring));
		}
	}
	free(t.base_hosts);
	return plat;
fail:
	free(t.base_hosts);
	cJSON_Delete(plat);
	return NULL;
}

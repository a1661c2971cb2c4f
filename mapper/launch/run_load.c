/* mapper/launch/run_load.c - see run_load.h. */
#include "run_load.h"
#include "program_time.h"
#include "models/util/decimal.h"

#include <stdio.h>
#include <string.h>

void hm_run_load_init(struct hm_run_load *l)
{
	memset(l, 0, sizeof(*l));
	l->largest = -1;
}

void hm_run_load_line(struct hm_run_load *l, const char *line)
{
	size_t sl = strlen(HM_SPAN_LINE);
	const char *s, *host;
	char *end;
	double span, waited, share;
	int i;

	if (strncmp(line, HM_SPAN_LINE, sl))
		return;
	s = line + sl + strspn(line + sl, " ");
	span = hm_strtod_decimal(s, &end, 0);
	if (end == s || strncmp(end, " waited ", 8))
		return;
	s = end + 8;
	waited = hm_strtod_decimal(s, &end, 0);
	if (end == s || strncmp(end, " on ", 4) || !(span > 0) || !(waited >= 0))
		return;
	host = end + 4;
	share = waited < span ? waited / span : 1;
	if (share > l->largest)
		l->largest = share;
	for (i = 0; i < l->n; i++)
		if (!strncmp(l->hosts[i].host, host, sizeof(l->hosts[i].host) - 1))
			break;
	if (i == l->n) {
		if (l->n == HM_RUN_LOAD_HOSTS) {
			l->more++;
			return;
		}
		snprintf(l->hosts[l->n++].host, sizeof(l->hosts[0].host), "%s", host);
		l->hosts[i].share = share;
	} else if (share > l->hosts[i].share) {
		l->hosts[i].share = share;
	}
}

cJSON *hm_run_load_json(const struct hm_run_load *l)
{
	cJSON *o, *hosts;

	if (l->largest < 0 || !(o = cJSON_CreateObject()))
		return NULL;
	cJSON_AddNumberToObject(o, "share_largest", l->largest);
	hosts = cJSON_AddObjectToObject(o, "hosts");
	for (int i = 0; hosts && i < l->n; i++)
		cJSON_AddNumberToObject(hosts, l->hosts[i].host, l->hosts[i].share);
	if (l->more)
		cJSON_AddNumberToObject(o, "ranks_of_hosts_not_listed", l->more);
	cJSON_AddStringToObject(o, "measured_by", "each rank's main thread: the time the scheduler kept it "
				"waiting for its core (run_delay) over its MPI_Init to MPI_Finalize");
	return o;
}

/* mapper/launch/results.c - see results.h. */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 1 when the file is non-empty and does not end in a newline (read
 * through the descriptor, which is open for reading too). */
static int ends_mid_line(int fd)
{
	struct stat st;
	char last;

	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return 0;
	return pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n';
}

int hm_results_open(const char *path, struct hm_error *err)
{
	struct stat st;
	int fd;

	hm_error_clear(err);
	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!path[0])
		return hm_error_set(err, "empty file name for the results");
	/* O_NOFOLLOW: a link is not followed (nor a dangling one's target
	 * created); O_NONBLOCK: a FIFO cannot hang the open, and is refused
	 * below like any file that is not a regular one */
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd < 0)
		return hm_error_set(err, "cannot open the results file: %s",
				    errno == ELOOP ? "it is a symbolic link" : strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return hm_error_set(err, "the results file is not a regular file");
	}
	fcntl(fd, F_SETFL, O_APPEND);   /* a regular file: blocking writes */
	return fd;
}

int hm_results_append(int fd, const cJSON *record, struct hm_error *err)
{
	char *text = cJSON_PrintUnformatted(record), *line;
	size_t len, off = 0;
	ssize_t n;
	int e;

	if (!text)
		return hm_error_set(err, "out of memory");
	len = strlen(text);
	if (!(line = malloc(len + 3))) {
		free(text);
		return hm_error_set(err, "out of memory");
	}
	if (ends_mid_line(fd))          /* an earlier write was cut short */
		line[off++] = '\n';
	memcpy(line + off, text, len);
	line[off + len] = '\n';
	len += off + 1;
	n = write(fd, line, len);
	e = errno;
	free(text), free(line);
	if (n != (ssize_t)len || fsync(fd) < 0) {
		if (n == (ssize_t)len)
			e = errno;
		return hm_error_set(err, "cannot append to the results file: %s",
				    n >= 0 && n != (ssize_t)len ? "short write (disk full?)" : strerror(e));
	}
	return 0;
}

const char *hm_utc_timestamp(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* Rank k's entry as (host, cpus) when it sits at (k / c, k mod c); 0, or
 * -1 when it does not say so. */
static int rank_entry(const cJSON *e, int k, int c, const char **host, const char **cpus)
{
	const cJSON *rank = cJSON_GetObjectItemCaseSensitive(e, "rank");
	const cJSON *row = cJSON_GetObjectItemCaseSensitive(e, "row");
	const cJSON *col = cJSON_GetObjectItemCaseSensitive(e, "col");

	*host = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "host"));
	*cpus = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "cpus"));
	return cJSON_IsNumber(rank) && rank->valueint == k && cJSON_IsNumber(row) && row->valueint == k / c &&
	       cJSON_IsNumber(col) && col->valueint == k % c && *host && *cpus ? 0 : -1;
}

cJSON *hm_fold_rank_list(const cJSON *ranks, int c)
{
	const char *host, *cpus, *run_host = NULL, *run_cpus = NULL;
	cJSON *runs, *run = NULL;
	int k = 0, count = 0;
	const cJSON *e;

	if (!cJSON_IsArray(ranks) || c < 1)
		return NULL;
	cJSON_ArrayForEach(e, ranks)
		if (rank_entry(e, k++, c, &host, &cpus))
			return NULL;
	if (!(runs = cJSON_CreateArray()))
		return NULL;
	k = 0;
	cJSON_ArrayForEach(e, ranks) {
		rank_entry(e, k, c, &host, &cpus);
		if (!run || strcmp(host, run_host) || strcmp(cpus, run_cpus)) {
			if (run)
				cJSON_AddNumberToObject(run, "count", count);
			run = cJSON_CreateObject();
			cJSON_AddItemToArray(runs, run);
			cJSON_AddNumberToObject(run, "first", k);
			cJSON_AddStringToObject(run, "host", host);
			cJSON_AddStringToObject(run, "cpus", cpus);
			run_host = host, run_cpus = cpus, count = 0;
		}
		count++, k++;
	}
	if (run)
		cJSON_AddNumberToObject(run, "count", count);
	return runs;
}

/* jsonl_check FILE [MIN_LINES]: every line of FILE is one JSON object
 * (a results file must stay valid JSON Lines whatever happened to the
 * runs); prints the number of records, exits 1 on the first bad line. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	static char line[1 << 22];
	long n = 0, min = argc > 2 ? atol(argv[2]) : 1;

	if (!f) {
		fprintf(stderr, "usage: jsonl_check FILE [MIN_LINES]\n");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		cJSON *doc;

		if (!len || line[len - 1] != '\n') {
			fprintf(stderr, "jsonl_check: line %ld is cut or too long\n", n + 1);
			return 1;
		}
		doc = cJSON_Parse(line);
		if (!cJSON_IsObject(doc)) {
			fprintf(stderr, "jsonl_check: line %ld is not a JSON object\n", n + 1);
			return 1;
		}
		cJSON_Delete(doc);
		n++;
	}
	fclose(f);
	printf("%ld records\n", n);
	if (n < min) {
		fprintf(stderr, "jsonl_check: %ld records, want at least %ld\n", n, min);
		return 1;
	}
	return 0;
}

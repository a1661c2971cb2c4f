/* Replay inputs through the fuzz target without libFuzzer: every file
 * named on the command line (directories: every file in them). A crash or
 * a sanitizer report fails the test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1))) {
		fclose(f);
		return -1;
	}
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *dir;
		struct dirent *de;

		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			if (replay_file(argv[i]) == 0)
				n++;
			continue;
		}
		if (!(dir = opendir(argv[i])))
			continue;
		while ((de = readdir(dir))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (replay_file(path) == 0)
				n++;
		}
		closedir(dir);
	}
	printf("replayed %d inputs\n", n);
	return n > 0 ? 0 : 1;
}

/* mapper/launch/program_mpi.c - a program's MPI from its ELF dependencies (see
 * program_mpi.h). Only this machine's kind of ELF (64-bit, native byte
 * order) is read; the libraries are looked for where the dynamic linker
 * would: the file's RUNPATH/RPATH, LD_LIBRARY_PATH, the system's
 * directories. Bounded: at most MAX_LIBRARIES files read. */
#include "program_mpi.h"
#include "spawn.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LIBRARIES 64
#define MAX_NAME 128

static const char *const system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", NULL,
};

/* The libraries to read, breadth first: a name, and the program's own
 * dependency it came through. */
struct queue {
	char name[MAX_LIBRARIES][MAX_NAME];
	int via[MAX_LIBRARIES];         /* index of the direct dependency; -1 for those */
	int n;
	char search[1024];              /* RUNPATH/RPATH of the program, ':'-separated */
};

static int read_at(int fd, void *buf, size_t len, off_t at)
{
	return pread(fd, buf, len, at) == (ssize_t)len ? 0 : -1;
}

/* The dynamic section's NEEDED names of the file open on fd, queued
 * (via 'via'); RUNPATH/RPATH into q->search when 'top'. 0, or -1 when
 * the file is no ELF of this machine's kind. */
static int read_needed(int fd, struct queue *q, int via, int top)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, str;
	Elf64_Dyn dyn;

	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return -1;
	for (int i = 0; i < eh.e_shnum && i < 4096; i++) {
		if (read_at(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + (Elf64_Off)i * sizeof(sh))) ||
		    sh.sh_type != SHT_DYNAMIC)
			continue;
		if (sh.sh_link >= eh.e_shnum ||
		    read_at(fd, &str, sizeof(str), (off_t)(eh.e_shoff + (Elf64_Off)sh.sh_link * sizeof(str))))
			return -1;
		for (Elf64_Xword k = 0; k < sh.sh_size / sizeof(dyn) && k < 4096; k++) {
			char name[MAX_NAME] = "";

			if (read_at(fd, &dyn, sizeof(dyn), (off_t)(sh.sh_offset + k * sizeof(dyn))) ||
			    dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && !(top && (dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH)))
				continue;
			if (dyn.d_un.d_val >= str.sh_size ||
			    pread(fd, name, sizeof(name) - 1, (off_t)(str.sh_offset + dyn.d_un.d_val)) <= 0)
				continue;
			name[sizeof(name) - 1] = '\0';
			if (dyn.d_tag != DT_NEEDED)
				snprintf(q->search, sizeof(q->search), "%s", name);
			else if (q->n < MAX_LIBRARIES) {
				snprintf(q->name[q->n], MAX_NAME, "%s", name);
				q->via[q->n++] = via;
			}
		}
		return 0;
	}
	return 0;       /* no dynamic section: a static program */
}

/* Open 'name' in the ':'-separated 'dirs'; a descriptor or -1. */
static int open_in(const char *dirs, const char *name)
{
	char path[4096];

	while (dirs && *dirs) {
		size_t len = strcspn(dirs, ":");
		int fd;

		/* $ORIGIN and the like are not expanded: such a directory is skipped */
		if (len && !memchr(dirs, '$', len) &&
		    (size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)len, dirs, name) < sizeof(path) &&
		    (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
			return fd;
		dirs += len + (dirs[len] == ':');
	}
	return -1;
}

static int open_library(const struct queue *q, const char *name)
{
	int fd = open_in(q->search, name);

	if (fd < 0)
		fd = open_in(getenv("LD_LIBRARY_PATH"), name);
	for (int i = 0; fd < 0 && system_dirs[i]; i++)
		fd = open_in(system_dirs[i], name);
	return fd;
}

/* The program itself, the file exec would run (spawn.h): only a regular
 * file is opened (a FIFO would block the open). */
static int open_program(const char *program)
{
	char path[4096];

	return hm_program_path(program, path, sizeof(path)) == HM_PROGRAM_OK ? open(path, O_RDONLY | O_CLOEXEC) : -1;
}

int hm_program_mpi(const char *program, struct hm_program_mpi *m)
{
	struct queue *q = calloc(1, sizeof(*q));
	int fd = open_program(program), found = 0;

	memset(m, 0, sizeof(*m));
	if (q && fd >= 0 && !read_needed(fd, q, -1, 1)) {
		/* each name once; a library queued again is read once */
		for (int i = 0; i < q->n && !found; i++) {
			int lfd, seen = 0;

			for (int j = 0; j < i && !seen; j++)
				seen = !strcmp(q->name[i], q->name[j]);
			if (seen)
				continue;
			if ((m->launcher = hm_launcher_for_library(q->name[i]))) {
				snprintf(m->library, sizeof(m->library), "%s", q->name[i]);
				if (q->via[i] >= 0)
					snprintf(m->via, sizeof(m->via), "%s", q->name[q->via[i]]);
				found = 1;
			} else if ((lfd = open_library(q, q->name[i])) >= 0) {
				read_needed(lfd, q, q->via[i] >= 0 ? q->via[i] : i, 0);
				close(lfd);
			}
		}
	}
	if (fd >= 0)
		close(fd);
	free(q);
	return found;
}

/* mapper/cli/main.c - the hetmap command: a table of subcommands, as git.c. */
#include "cli.h"
#include "mapper/launch/launcher.h"
#include "models/util/nearest_name.h"

#include <stdio.h>
#include <signal.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

static const struct hm_command_entry commands[] = {
	{ "platform", cmd_platform, "show, check or list platform descriptions" },
	{ "predict", cmd_predict, "predict the time of one configuration (d, r x c, b)" },
	{ "plan", cmd_plan, "search the best configuration and write a plan" },
	{ "compare", cmd_compare, "run every method and modeled user, one table" },
	{ "models", cmd_models, "the execution-time models, their status and its evidence" },
	{ "generate", cmd_generate, "build a platform from a generator description (simulation)" },
	{ "export", cmd_export, "write a platform for another tool (SimGrid's XML for SMPI)" },
	{ "calibrate", cmd_calibrate, "measure the system parameters of hosts, write a platform" },
	{ "run", cmd_run, "plan and run a program (yours, HPL, ScaLAPACK's tester, or the driver) through a launcher below; record the result" },
	{ "tune", cmd_tune, "let real runs decide among the model's close candidates; write the winner as a plan" },
	{ "learn", cmd_learn, "learn corrections to a platform's terms from its measured runs" },
	{ "report", cmd_report, "the recorded runs as a table (text, csv, json) and a plot of measured against predicted" },
	{ NULL, NULL, NULL },
};

static const char intro[] =
	"hetmap decides how to run unmodified ScaLAPACK (pdgetrf, pdgemm) on a\n"
	"heterogeneous cluster: how many processes on each processor, the grid\n"
	"r x c and the block size b, from an execution-time model.\n";

static void usage(FILE *f)
{
	int i;

	fprintf(f, "usage: hetmap <command> [options]\n\n%s\ncommands:\n", intro);
	char runs[256], writes[256];

	for (i = 0; commands[i].name; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	/* from the launcher table, as each command's --help */
	fprintf(f, "\nlaunchers 'run' starts: %s\nlaunchers whose files 'plan --launcher' writes: %s\n",
		hm_launcher_names(HM_LAUNCHERS_RUN, ", ", runs, sizeof(runs)),
		hm_launcher_names(HM_LAUNCHERS_ALL, ", ", writes, sizeof(writes)));
	fprintf(f, "\n'hetmap <command> --help' or 'hetmap help <command>' describes a command;\n"
		   "'hetmap help --man' writes the manual page (roff); 'hetmap -V' its version.\n");
}

static const struct hm_command_entry *find_command(const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static void unknown_command(const char *name)
{
	const char *names[sizeof(commands) / sizeof(commands[0]) + 2];
	const char *near;
	size_t n = 0;

	for (int i = 0; commands[i].name; i++)
		names[n++] = commands[i].name;
	names[n++] = "help";
	names[n] = NULL;
	if ((near = hm_nearest_name(name, names)))
		hm_say_error("unknown command '%s' (did you mean '%s'? see 'hetmap --help')", name, near);
	else
		hm_say_error("unknown command '%s' (see 'hetmap --help')", name);
}

/* 'hetmap help [COMMAND | --man]': one topic or none; 'help plan' is
 * 'plan --help', whose text comes from the command's own option table. */
static int help(int argc, char **argv)
{
	const struct hm_command_entry *c;
	char *args[3] = { NULL, "--help", NULL };

	if (argc == 1) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--man"))
		return hm_man_page(stdout, commands, intro);
	if (argc == 2 && (c = find_command(argv[1]))) {
		args[0] = argv[1];
		return c->fn(2, args);
	}
	/* the topics that are not commands answer too: 'help help' and 'help
	 * --help' (this command's use), 'help version' (the version) */
	if (argc == 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: hetmap help [COMMAND | --man]\n\nThe help of COMMAND (as 'hetmap COMMAND --help'), "
		       "or with --man the manual page (roff);\nwithout a topic, the list of commands.\n");
		return HM_EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("hetmap %s\n", HM_VERSION);
		return HM_EXIT_OK;
	}
	if (argc > 2)
		hm_say_error("help: one topic at most: a command or --man (see 'hetmap --help')");
	else
		unknown_command(argv[1]);
	return HM_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct hm_command_entry *c;

	/* A closed standard output (hetmap ... | head) must not kill hetmap
	 * by SIGPIPE before it has written its files and records: writes fail
	 * with EPIPE instead, and hm_cli_finish turns that into exit code 4. */
	signal(SIGPIPE, SIG_IGN);
#ifdef __GLIBC__
	/* A search with threads walks one tree per split, tens of MB each
	 * at 128000 levels. glibc maps such blocks apart (its threshold
	 * tops at 32 MB) and unmaps them when freed, so every split faulted
	 * its pages in again: 7 % of GPTM's time there. Kept in the heap,
	 * the next split reuses them. */
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	if (argc < 2) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help"))
		return hm_cli_finish(help(argc - 1, argv + 1));
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return hm_cli_finish(HM_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
		printf("hetmap %s\n", HM_VERSION);
		return hm_cli_finish(HM_EXIT_OK);
	}
	if ((c = find_command(argv[1])))
		return hm_cli_finish(c->fn(argc - 1, argv + 1));
	unknown_command(argv[1]);
	return HM_EXIT_USAGE;
}

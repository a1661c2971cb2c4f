/* mapper/cli/cmd_run.c - 'hetmap run': plan (or read a plan), make the job's
 * launch directory, run the program (the user's, or the built-in driver)
 * through the launcher in that directory, read what its profile knows
 * how to read, check where each rank ran, and append one record to a
 * JSON Lines results file, whatever the outcome. */
#include "cli.h"
#include "hand_config.h"
#include "run_options.h"
#include "mapper/launch/plan.h"
#include "mapper/launch/placement.h"
#include "mapper/launch/placement_picture.h"
#include "mapper/launch/spawn.h"
#include "mapper/launch/program_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct hm_usage usage = {
	"run",
	"hetmap run [plan options | --procs LIST [--grid RxC] [-b B] | --plan PLAN.json] [run options] [-- PROGRAM [ARGS...]]",
	"Decide a configuration (as 'hetmap plan' does), take one by hand (--procs,\n"
	"and --grid, -b, --threads as predict's; what they leave out, the model's\n"
	"best) or read one, then run PROGRAM\n"
	"with it through the launcher, as mpirun would: rank k on the processor and\n"
	"cores the plan gives grid position (k / c, k mod c), waiting ranks yielding\n"
	"their core, each rank with the plan's BLAS threads (OPENBLAS_NUM_THREADS,\n"
	"OMP_NUM_THREADS; one unless the platform's types know ranks of more:\n"
	"calibrate --threads). Without PROGRAM, hetmap's ScaLAPACK\n"
	"driver runs. The job runs in its launch directory (-o DIR, or a new one\n"
	"under $TMPDIR), where the profile's input file is rendered. One record per\n"
	"run is appended to the results file (JSON Lines), also when the run fails,\n"
	"times out or is interrupted.",
	"PROGRAM's arguments and --input templates may hold the plan's values; every\n"
	"rank also gets them in its environment:\n"
	"%PLAN_VALUES%"
	"Profiles (--profile; chosen by PROGRAM's name when not given):\n"
	"%PROFILES%"
	"The time compared with the prediction, in this order whatever the values:\n"
	"the first group of --time-regex on any output line; a line 'hetmap-time:\n"
	"SECONDS' the program prints (rank 0, or every rank: the largest counts);\n"
	"its profile's reading of the program's own time; else the longest rank's\n"
	"time from MPI_Init's return to MPI_Finalize (hetmap-probe preloads\n"
	"libhetmap-mpi-span, which measures it, for C, 'use mpi' and 'use mpi_f08'\n"
	"programs: it includes the program's set-up and checks). A time under ten ticks of\n"
	"the timer it was printed with (0.01 s for '0.05') is kept without a ratio.\n"
	"A program linked with another MPI than the launcher's is refused (its ELF\n"
	"dependencies say which). 'hetmap report' tabulates and plots the records.\n"
	"Launcher options: --launcher-args 'WORDS' (split at blanks; no shell).\n"
	"Simulators (--launcher smpi): --kernels modeled spends each simulated host's\n"
	"modeled kernel time instead of computing (the user's n on hundreds of ranks;\n"
	"no residual to check, the record's verdict says 'modeled') and times nothing\n"
	"on this machine: every simulated second is charged from the platform, so a\n"
	"job simulates to the same time however busy this machine is; a program of\n"
	"yours must be linked with libhetmap-smpi-kernels (wrappers/README.md).\n"
	"exit codes: 0 run and check passed (modeled: nothing to check); 3 bad usage; 4 the\n"
	"results file or the launch directory cannot be written; 7 the job failed or printed\n"
	"no result; 8 the launcher cannot be started; 9 timeout; 10 the program's\n"
	"check failed or it skipped the test; 128+N stopped by signal N.\n"
	"examples:\n"
	"  hetmap run -p cluster.json -n 2000 --results runs.jsonl\n"
	"  hetmap run -p cluster.json -n 2000 --procs node01=16,node02=8 --grid 4x6 -b 100   (by hand)\n"
	"  hetmap run -p cluster.json -n 900 -o job -- /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu\n"
	"  hetmap run -p cluster.json -n 4000 --launcher mpich -- ./my_solver -n {n} -nb {b} -p {r} -q {c}",
};

struct run_setup {
	struct hm_run_options ro;
	struct hm_hand_config hand;     /* --procs ...: a configuration of the user's */
	const char *plan_file;
	int dry_run;
	int given_n, given_routine;     /* -n, -r on the command line: a --plan must agree */
};

/* Decide or read the plan, into its placement. */
static int get_plan(struct run_setup *rs, struct hm_problem_opts *po, const char *method,
		    const struct hm_budget *budget, struct hm_placement *pl)
{
	struct hm_error err;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	int ret;

	hm_error_clear(&err);
	if (rs->plan_file) {
		if (hm_placement_load(pl, rs->plan_file, &err)) {
			hm_say_report(&err);
			return HM_EXIT_INPUT;
		}
		/* never run another problem than the one asked for */
		if ((rs->given_n && (long)po->n != pl->n) || (rs->given_routine && strcasecmp(po->routine, pl->routine))) {
			hm_say_error("run: the plan %s is for %s n = %ld, not what -r/-n ask (%s n = %.0f): "
				     "give --plan or -r/-n, or plan again", rs->plan_file, pl->routine, pl->n,
				     rs->given_routine ? po->routine : pl->routine, rs->given_n ? po->n : (double)pl->n);
			return HM_EXIT_USAGE;
		}
		return HM_EXIT_OK;
	}
	if ((ret = hm_problem_open("run", po, &pb, &p)))
		return ret;
	ret = rs->hand.procs ? hm_hand_config_price("run", &rs->hand, &pb, "hand", &res) :
			       hm_run_named(method, &pb, budget, &res);
	if (!ret) {
		struct hm_plan_inputs in = { po->platform, &pb, budget };

		if (res.stopped == HM_STOP_SIGNAL) {
			ret = 128 + hm_stop_signal_caught();    /* said and recorded by the caller */
		} else if (!res.found) {
			hm_say_error("run: %s", res.stopped ? "the search was stopped before any configuration "
				     "was found" : "no configuration fits");
			ret = res.stopped ? HM_EXIT_BUDGET : HM_EXIT_NO_PLAN;
		} else if (res.stopped) {
			hm_say_error("run: the search was stopped by its %s; running the best plan found",
				     hm_stop_name(res.stopped));
		}
		if (!ret) {
			if (hm_verbosity > 0)
				hm_print_result(stderr, &pb, &res);
			if (hm_placement_from_result(pl, &in, &res, &err)) {
				hm_say_report(&err);
				ret = HM_EXIT_FAILURE;
			} else if (hm_verbosity > 1) {  /* -v: where the ranks go */
				hm_placement_picture(stderr, pl);
			}
		}
		hm_result_release(&res);
	}
	hm_hand_config_release(&rs->hand);
	hm_platform_free(p);
	return ret;
}

static const char *epilog(void)
{
	static char text[6000];
	const char *t = usage.epilog, *mark;
	size_t len = 0;

	if (text[0])
		return text;
	while ((mark = strchr(t, '%')) && len < sizeof(text)) {
		const char *fill = !strncmp(mark, "%PLAN_VALUES%", 13) ? hm_help_plan_values() :
				   !strncmp(mark, "%PROFILES%", 10) ? hm_help_app_profiles() : NULL;
		size_t skip = fill ? strcspn(mark + 1, "%") + 2 : 1;

		len += (size_t)snprintf(text + len, sizeof(text) - len, "%.*s%s", (int)(mark - t), t,
					fill ? fill : "%");
		t = mark + skip;
	}
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "%s", t);
	return text;
}

int cmd_run(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	struct run_setup rs = { .ro = HM_RUN_OPTIONS_INIT };
	const char *method = HM_DEFAULT_METHOD, *format = "text";
	struct hm_placement pl = { 0 };
	struct hm_run_session session;
	struct hm_run_outcome out;
	struct hm_usage u = usage;
	int ret, json, sig;

	u.epilog = epilog();
	hm_problem_opts_init(&po);
	po.n = 0, po.routine = NULL;    /* given or not: a --plan has its own */
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_SEARCH_OPTIONS(method, po, budget),
			HM_HAND_CONFIG_OPTIONS(rs.hand, "run these processes per processor instead of planning (LIST as predict's)"),
			{ 0, "plan", HM_OPT_STRING, &rs.plan_file, "FILE", "run this plan JSON instead of planning", 0, 0 },
			HM_RUN_OPTIONS(rs.ro, "the launch directory (kept); default: a new one under $TMPDIR"),
			HM_FORMAT_OPTION(format, "text, or json: the record also on standard output (the program's output then goes to standard error)"),
			{ 0, "dry-run", HM_OPT_FLAG, &rs.dry_run, NULL, "write the launch directory and print its command; run nothing", 0, 0 },
			HM_OPT_TABLE_END,
		};

		if ((ret = hm_options_parse_rest(&u, opts, argc, argv, &rs.ro.lo.program, &rs.ro.lo.nprogram)) >= 0)
			return ret;
	}
	if ((json = hm_format_parse("run", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	rs.given_n = po.n > 0, rs.given_routine = po.routine != NULL;
	if (!rs.given_n)
		po.n = HM_DEFAULT_N;
	if (!rs.given_routine)
		po.routine = "lu";
	if (rs.plan_file && rs.hand.procs) {
		hm_say_error("run: give --plan or --procs, not both");
		return HM_EXIT_USAGE;
	}
	if (rs.plan_file && po.platform) {     /* never drop an option without a word */
		hm_say_error("run: a plan names its platform: -p is not used with --plan (a simulator runs the plan "
			     "on another platform with --sim-platform FILE)");
		return HM_EXIT_USAGE;
	}
	if ((ret = hm_hand_config_check("run", &rs.hand)) ||
	    (!rs.plan_file && (ret = hm_method_check("run", method))) ||
	    (ret = hm_run_session_open("run", &rs.ro, rs.dry_run, &session)))
		return ret;
	session.record_on_stdout = session.output_to_stderr = json == HM_FORMAT_JSON;
	session.plan_file = rs.plan_file;
	ret = get_plan(&rs, &po, method, &budget, &pl);
	session.platform = rs.plan_file ? NULL : po.platform;   /* a plan names its own */
	if ((sig = hm_stop_signal_caught()) && (!ret || ret == 128 + sig)) {
		/* stopped while planning: nothing runs, the record says so */
		hm_say_error("run: stopped by %s before the launch", strsignal(sig));
		ret = 128 + sig;
		hm_run_record_interrupted(&session, "planning", sig);
	} else if (!ret) {
		ret = hm_run_plan(&session, &pl, NULL, rs.dry_run, &out);
	}
	hm_placement_release(&pl);
	hm_run_session_close(&session);
	return hm_cli_finish(ret);
}

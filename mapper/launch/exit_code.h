/* mapper/launch/exit_code.h - hetmap's exit codes (README.md lists them).
 * The engines below the command line (a launch, the judge) return them
 * too: the class of a failure is decided where it is understood (a
 * launcher missing, a timeout, a signal), and the command passes it on. */
#ifndef HM_EXIT_CODE_H
#define HM_EXIT_CODE_H

/* Exit codes; each failure class has its own (README.md lists them). */
enum hm_exit {
	HM_EXIT_OK = 0,
	HM_EXIT_FAILURE = 1,    /* internal error, out of memory */
	HM_EXIT_INPUT = 2,      /* invalid input file (platform, plan) */
	HM_EXIT_USAGE = 3,      /* unknown option, bad option value */
	HM_EXIT_OUTPUT = 4,     /* cannot write an output file or stdout */
	HM_EXIT_BUDGET = 5,     /* a search budget stopped the run: best so far given */
	HM_EXIT_NO_PLAN = 6,    /* no configuration fits (memory) */
	HM_EXIT_JOB_FAILED = 7, /* run: mpirun failed (a rank crashed, bad launch, ...) */
	HM_EXIT_NO_MPIRUN = 8,  /* run/calibrate: mpirun (or the driver) cannot be started */
	HM_EXIT_TIMEOUT = 9,    /* run/calibrate: stopped after --timeout */
	HM_EXIT_CHECK_FAILED = 10, /* run: the driver's result check failed */
	HM_EXIT_UNRELIABLE = 11, /* calibrate: measurements too unsteady to plan with (kept aside) */
	/* run/calibrate stopped by a signal: 128 + its number (130 for SIGINT) */
};

#endif /* HM_EXIT_CODE_H */

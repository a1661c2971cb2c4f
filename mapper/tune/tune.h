/* mapper/tune/tune.h - 'hetmap tune': real runs decide among the model's close
 * candidates (mapper/README.md, "tune").
 *
 * The candidates are the configurations the search methods, the modeled
 * users, the search's next best and the best's neighbours give
 * (search/candidate_set.h) whose prediction lies within the model's error
 * band of the best; they race in rounds of real runs (race.h), each run
 * made by the same call as 'hetmap run' (mapper/launch/run_plan.h) and
 * recorded with a "tune" object:
 *
 *   "tune": {"id": "fnv1a64:...", "candidate": "c03", "round": 2, "origin": "GPTM", "mode": "race"}
 *
 * The id is the digest of the tune's question (platform, routine, n,
 * model, launcher, program, shape): a tune asked again with the same
 * results file takes the candidates its first record lists ("candidates",
 * each {"d": "0*4,64*8", "threads": "1*12", "r", "c", "b", "origin"}) and
 * the runs recorded under its id, and goes on from there. --sweep runs every configuration the model
 * priced instead, HPL.dat's way (the processes, then the grids, then the
 * block sizes, in order), with the same records. */
#ifndef HM_TUNE_H
#define HM_TUNE_H

#include <cJSON.h>
#include <stdio.h>
#include "race.h"
#include "mapper/launch/plan.h"
#include "mapper/launch/run_plan.h"
#include "search/candidate_set.h"

struct hm_tune_opts {
	int budget;             /* launches in all, failed ones too; 0: 3 a candidate */
	double max_time;        /* s of the whole tune, 0: none */
	int max_candidates;     /* raced at most */
	double band;            /* relative; <= 0: from the history, else the evidence */
	int sweep;              /* HPL.dat's sweep over every priced configuration */
	int rounds;             /* sweep: every configuration this many times */
	int random_order;       /* sweep: each round in a fresh random order */
	unsigned seed;          /* the rounds' order */
	const char *dir;        /* -o DIR: each candidate's launch directory DIR/cNN, the winner DIR/winner.json */
	int list;               /* choose the candidates (and the budget), run nothing */
	double tolerance;       /* the race is settled when the rest are this close to the leader */
};

#define HM_TUNE_DEFAULT_CANDIDATES 8
#define HM_TUNE_RUNS_PER_CANDIDATE 3
#define HM_TUNE_TOLERANCE 0.05

/* The error band: the relative spread of measured over predicted time
 * (10th to 90th percentile) of the platform's own measured runs 'h' of
 * routine pb->routine, priced by pb's model (at least 4 runs), else the
 * median MAPE of pb's model over its real evidence sets (model_scores.h);
 * clamped to [5 %, 100 %]. Where it came from, in words, into 'source'. */
struct hm_history;
double hm_tune_band(const struct hm_problem *pb, const struct hm_history *h, char *source, size_t size);

struct hm_tune {
	struct hm_config_set *pool;     /* a resumed tune adds its earlier candidates to it */
	int n;                  /* candidates raced (or swept) */
	int *cand;              /* their entries in the pool, in race order c00, c01, ... */
	struct hm_race race;
	double band;
	char band_source[160];
	char id[32];
	int runs, resumed;      /* launches, of which recorded before this tune */
	int budget;             /* launches it may make in all */
	int list_recorded;      /* a record holds the candidates (the first run's) */
	int winner;             /* candidate index, -1: none */
	const char *stopped;    /* "one left", "settled", "budget", "time", "signal", "rounds done" */
	double seconds;
};

/* Choose the candidates from 'pool' (sorted by prediction) and race them
 * through session 's', as 'in' describes the problem. *t filled (release
 * it); the exit code: 0 with a winner, 5 when no run measured a time
 * within the budget, 7 when every candidate failed, 128+N after signal N
 * (records written, nothing left running), else an exit code after a
 * message. */
int hm_tune_run(struct hm_run_session *s, const struct hm_plan_inputs *in, struct hm_config_set *pool,
		const struct hm_tune_opts *o, struct hm_tune *t);
void hm_tune_release(struct hm_tune *t);

/* The winner as a plan document (plan.h) with a "tune" summary; NULL
 * without a winner or out of memory. */
cJSON *hm_tune_winner_plan(const struct hm_tune *t, const struct hm_plan_inputs *in);

/* The whole tune as one document: winner (plan), candidates with their
 * configuration, prediction, runs and fate. */
cJSON *hm_tune_json(const struct hm_tune *t, cJSON *winner_plan);

/* A person's table of the candidates. */
void hm_tune_print(FILE *f, const struct hm_tune *t);

#endif /* HM_TUNE_H */

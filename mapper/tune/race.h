/* mapper/tune/race.h - the race of 'hetmap tune' (mapper/README.md, "tune"):
 * which candidates stay after each round of real runs.
 *
 * Every round runs each candidate still racing once, in a fresh random
 * order (the caller's), so that a machine that drifts slower or faster
 * over the minutes weighs on every candidate alike. The rule, after each
 * complete round: the leader is the candidate with the least mean log
 * time; each other candidate's times are paired with the leader's of the
 * same rounds, and the differences of their logs pooled over all
 * candidates give the spread measured so far (s, with nu = sum (k_c - 1)
 * degrees of freedom). Candidate c is dropped when its mean difference
 * exceeds t(0.95, nu) s / sqrt(k_c): slower than the leader beyond that
 * spread, by a one-sided paired t-test at 5 %. Why this rule: pairing by
 * rounds removes the machine's drift, as F-race's blocks do (Birattari
 * et al., GECCO 2002), and pooling the spread over candidates gives a
 * usable test after two rounds (each candidate alone would have one
 * degree of freedom, t = 6.3), where the tune's budget is a few runs per
 * candidate; logs, because run times spread multiplicatively. Nothing is
 * dropped after one round: no spread is measured yet. A run that fails
 * drops its candidate at once.
 *
 * The race is settled, and stops, when every candidate left is within a
 * tolerance of the leader (5 %: what a user cannot tell from run to run)
 * with the same confidence: its mean log difference plus t(0.95, nu) s /
 * sqrt(k_c) below log(1 + tolerance). Two candidates that close would
 * otherwise race to the end of the budget for a difference that does not
 * matter. */
#ifndef HM_RACE_H
#define HM_RACE_H

#define HM_RACE_MAX_ROUNDS 64

struct hm_race {
	int n;                  /* candidates */
	double (*t)[HM_RACE_MAX_ROUNDS];        /* seconds by round; NAN: not run (yet) */
	int *racing;            /* 1 while it races */
	int *runs;              /* launches, failed ones too */
	char (*fate)[128];      /* why it left the race ("" while racing) */
};

/* 0, or -1 (out of memory). */
int hm_race_init(struct hm_race *r, int n);
void hm_race_release(struct hm_race *r);

/* Candidate c's run of round 'round' took 'seconds'; < 0: it failed
 * ('why' says how), and c leaves the race. */
void hm_race_record(struct hm_race *r, int c, int round, double seconds, const char *why);

/* The candidate racing with the least mean log time (ties: the lower
 * index, the model's faster), or -1 when none has a time. */
int hm_race_leader(const struct hm_race *r);

/* Candidates still racing. */
int hm_race_left(const struct hm_race *r);

/* The rule above, after a complete round; returns how many it dropped
 * (their fate says by how much). */
int hm_race_eliminate(struct hm_race *r);

/* Candidate c's mean log time as seconds (the geometric mean of its
 * times), its count into *k; NAN when it has none. */
double hm_race_mean(const struct hm_race *r, int c, int *k);

/* 1 when the race is settled: every other candidate racing is within
 * 'tolerance' (relative) of the leader, at 95 % confidence. */
int hm_race_settled(const struct hm_race *r, double tolerance);

/* One-sided 95 % quantile of Student's t with nu degrees of freedom. */
double hm_t95(int nu);

#endif /* HM_RACE_H */

/* models/common/host_links.h - each host's link to the network, from
 * ping-pongs between pairs of hosts, and which pairs to measure.
 *
 * The model: every host reaches the network through a link of its own
 * (its card, its switch port), and a message between hosts i and j goes at
 * the pace of the slower one: cost(i, j) = max(w_i, w_j). So a pair's
 * measure bounds both its ends from above, and it is one end's own cost
 * when the other end is known to be faster. Measuring every pair would
 * cost H (H - 1) / 2 ping-pongs; the schedule measures a few rounds of
 * disjoint pairs (the round-robin tournament's first rounds, over the
 * hosts in a fixed shuffled order: each host against that many partners,
 * all pairs of a round at once), then pairs
 * every host whose cost is still only bounded with one known to be among
 * the fastest, which settles it: a handful of rounds whatever H.
 *
 * What it cannot see: two fast hosts whose every measured partner was
 * slow look slow (their pair was never measured); more first rounds
 * (calibrate --link-rounds) make that less likely, H - 1 rounds measure
 * every pair. Pure computation: the calibration benchmark schedules with
 * it (MPI), calibrate fits with it. */
#ifndef HM_HOST_LINKS_H
#define HM_HOST_LINKS_H

struct hm_host_pair {
	int a, b;               /* hosts, a != b */
	double value;           /* the measure: larger is slower */
};

/* From n measured pairs of H hosts: w[h] the least measure of h's pairs
 * (an upper bound of its own; INFINITY when h has none), by[h] that pair's
 * index (-1: none), known[h] 1 when w[h] is h's own cost within 'tol'
 * (relative): h's least pair has a partner faster by more than tol, or
 * w[h] is within tol of the least measure of all (nothing measured is
 * faster). */
void hm_host_links_bound(int H, const struct hm_host_pair *pairs, int n, double tol, double *w, int *by,
			 int *known);

struct hm_link_schedule {
	int H, first_rounds, round;
	double tol;
	struct hm_host_pair *pairs;     /* measured so far */
	int n;
	unsigned char *tried;           /* H x H: the pair was scheduled */
	double *w;                      /* scratch: H values, indices, flags */
	int *by, *known;
	unsigned char *busy;            /* a host already in this round */
	int *slot_host;                 /* the tournament's slots, shuffled */
};

/* The default first rounds: every pair of clusters up to 12 hosts (at
 * most 11 rounds), 3 rounds on larger ones. */
#define HM_LINK_ALL_PAIRS_UP_TO 12
#define HM_LINK_FIRST_ROUNDS 3

/* 0, or -1 out of memory. first_rounds: 0 for the default, else how many
 * (at most the tournament's). */
int hm_link_schedule_init(struct hm_link_schedule *s, int H, int first_rounds, double tol);
void hm_link_schedule_release(struct hm_link_schedule *s);

/* The next round: up to H / 2 disjoint pairs into out[] (values unset);
 * 0 when nothing is left to measure. */
int hm_link_schedule_next(struct hm_link_schedule *s, struct hm_host_pair *out);

/* A measured pair of the last round. */
void hm_link_schedule_record(struct hm_link_schedule *s, int a, int b, double value);

/* Rounds left as it now looks (the first rounds not yet done, then one
 * per batch of hosts still only bounded): the progress line's estimate. */
int hm_link_schedule_rounds_left(struct hm_link_schedule *s);

#endif /* HM_HOST_LINKS_H */

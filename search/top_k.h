/* search/top_k.h - the K configurations (d, r, c, b) with the least
 * predicted time among all a search evaluated: the candidates the
 * simulator judges ('hetmap plan --judge', mapper/README.md). A method
 * offers every grid and block size it prices; a configuration already
 * held (same d, r, c, b: a permutational tree meets one d several times)
 * is not held twice. Storage is sized once: an offer allocates nothing and
 * costs one comparison unless it beats the K-th best. */
#ifndef HM_TOP_K_H
#define HM_TOP_K_H

#include "models/util/error.h"

#define HM_TOP_K_MAX 64

struct hm_candidate {
	double eet;             /* s, the model's time */
	int D, r, c, b;
	int *d;                 /* P process counts (the collector's storage) */
};

struct hm_top_k {
	int k, n, P;
	double worst;           /* the time an offer must beat: the K-th best, or INFINITY */
	struct hm_candidate e[HM_TOP_K_MAX];    /* n entries, by time ascending */
	int *store;             /* k x P counts */
};

/* 0, or -1 with 'err' set (k outside 1..HM_TOP_K_MAX, out of memory). */
int hm_top_k_init(struct hm_top_k *t, int k, int P, struct hm_error *err);
void hm_top_k_release(struct hm_top_k *t);

/* Offer one priced configuration (call only when eet < t->worst). */
void hm_top_k_offer(struct hm_top_k *t, double eet, const int *d, int D, int r, int c, int b);

/* Near twins: the same process rows and block size, and process counts
 * that differ in all by at most one in twenty of the larger D (8 x 79
 * and 8 x 80, one process fewer on each of eight nodes). The model's next
 * best are often such twins of its best, and simulating both tells the
 * judge little that one does not. */
int hm_near_twins(const struct hm_candidate *a, const struct hm_candidate *b, int P);

#endif /* HM_TOP_K_H */

/* models/model_scores.h - how each model did on every committed set of runs:
 * its mean absolute percentage error and Spearman rank correlation against
 * the measured times, as experiments/analysis.py computes them from the
 * committed records (models/evidence.tsv, compiled in; tests/test_analysis.py
 * checks that the file is what the records give). Real runs come first:
 * they choose the default model (models/README.md, "Status"). */
#ifndef HM_MODEL_SCORES_H
#define HM_MODEL_SCORES_H

struct hm_model_score {
	char set[96];           /* the set's folder under experiments/, e.g. "real/results/torc-thesis" */
	int real;               /* 1: real runs (a machine, the emulated cluster, the thesis);
				 * 0: simulated (SMPI) */
	int configurations;
	double mape;            /* percent */
	double spearman;        /* mean over the set's groups */
};

/* The scores of model 'name', real sets first, at most 'max' into out;
 * returns how many. */
int hm_model_scores(const char *name, struct hm_model_score *out, int max);

#endif /* HM_MODEL_SCORES_H */

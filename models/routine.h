/* models/routine.h - the ScaLAPACK routines hetmap plans: LU (pdgetrf)
 * and the matrix product (pdgemm), and their names. */
#ifndef HM_ROUTINE_H
#define HM_ROUTINE_H

enum hm_routine { HM_ROUTINE_LU, HM_ROUTINE_GEMM, HM_NR_ROUTINES };

/* "lu" / "gemm"; parse returns 0, or -1 for an unknown name. */
const char *hm_routine_name(enum hm_routine r);
int hm_routine_parse(const char *name, enum hm_routine *out);

#endif /* HM_ROUTINE_H */

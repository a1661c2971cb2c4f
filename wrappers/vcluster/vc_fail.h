/* wrappers/vcluster/vc_fail.h - how hetmap-vcluster and its agent say what
 * went wrong: one line on standard error, "hetmap-vcluster: ...". */
#ifndef HM_VC_FAIL_H
#define HM_VC_FAIL_H

void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* HM_VC_FAIL_H */

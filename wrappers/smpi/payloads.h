/* wrappers/smpi/payloads.h - large messages' payloads left uncopied under
 * modeled kernels (payloads.c). */
#ifndef HM_SMPI_PAYLOADS_H
#define HM_SMPI_PAYLOADS_H

/* The environment variable that keeps every payload copied, as SMPI does:
 * HETMAP_SMPI_PAYLOADS=copy (the check that skipping changes nothing
 * simulated). */
#define HM_PAYLOADS_VARIABLE "HETMAP_SMPI_PAYLOADS"

/* From now on, payloads of a large message are not copied. Returns the
 * least payload left uncopied, in bytes; 0: every payload is still copied
 * (HM_PAYLOADS_VARIABLE says so, or SMPI's callback was not found). */
long hm_payloads_skip(void);

/* From now on, every payload is copied again (SMPI's own callback). */
void hm_payloads_copy(void);

#endif

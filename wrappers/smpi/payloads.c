/* wrappers/smpi/payloads.c - under modeled kernels, the payloads of large
 * messages are not copied (wrappers/README.md, "Modeled kernels").
 *
 * With the kernels modeled the driver's matrices are shared blocks whose
 * contents mean nothing, and ScaLAPACK's large messages carry nothing but
 * them: panels, interchanged rows, PDGEMM's blocks. SMPI still copies each
 * payload from the sender's buffer into the receiver's (its copy callback,
 * run once the simulated network has delivered the message, so it charges
 * no simulated time), each into a fresh mapping faulted in page by page
 * where messages pass 1 MiB: LU n = 50000 on 320 ranks took 20.1 minutes
 * so, 12.1 without (experiments/README.md, "One simulation faster"). What
 * does carry meaning is small: the pivots' values and rows (PDAMAX's
 * combine, IPIV's broadcast), a few words each.
 *
 * So a payload of PAYLOAD_SKIP_MIN bytes or more is left uncopied, and any
 * other goes to SMPI's own callback. A send below SMPI's detached threshold
 * (smpi/send-is-detached-thresh) carries a copy SMPI made at the send and
 * frees in its callback: such sends always go to SMPI's own, whatever the
 * threshold. Sends SMPI detaches at any size (MPI_Bsend, one-sided calls)
 * the driver's routines never make. The driver skips only around its timed
 * routine, fenced by barriers, so that its own messages (the report's
 * gather) are always copied. SMPI's callback is C++
 * (smpi_comm_copy_buffer_callback(CommImpl *, void *, size_t)): it is
 * found by its mangled name, and where it is missing nothing is skipped. */
#include "wrappers/smpi/payloads.h"

#include <smpi/smpi.h>
#include <xbt/config.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define PAYLOAD_SKIP_MIN ((size_t)64 << 10)
#define SMPI_COPY_SYMBOL "_Z30smpi_comm_copy_buffer_callbackPN7simgrid6kernel8activity8CommImplEPvm"

typedef void copy_fn(smx_activity_t, void *, size_t);

static copy_fn *smpi_copy;      /* SMPI's own callback */
static size_t skip_from;        /* bytes: the least payload left uncopied */

static void copy_small_only(smx_activity_t comm, void *buff, size_t size)
{
	if (size < skip_from)
		smpi_copy(comm, buff, size);
}

long hm_payloads_skip(void)
{
	const char *want = getenv(HM_PAYLOADS_VARIABLE);
	int detached = sg_cfg_get_int("smpi/send-is-detached-thresh");

	if (want && strcmp(want, "copy") == 0)
		return 0;
	if (!smpi_copy && !(smpi_copy = (copy_fn *)dlsym(RTLD_DEFAULT, SMPI_COPY_SYMBOL)))
		return 0;
	skip_from = detached > 0 && (size_t)detached > PAYLOAD_SKIP_MIN ? (size_t)detached : PAYLOAD_SKIP_MIN;
	smpi_comm_set_copy_data_callback(copy_small_only);
	return (long)skip_from;
}

void hm_payloads_copy(void)
{
	if (smpi_copy)
		smpi_comm_set_copy_data_callback(smpi_copy);
}

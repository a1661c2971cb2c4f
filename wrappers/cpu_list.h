/* wrappers/cpu_list.h - the CPUs this process may run on, as "0,2-3":
 * what a rank reports about its binding (the driver and hetmap-probe). */
#ifndef HM_CPU_LIST_H
#define HM_CPU_LIST_H

#include <sched.h>
#include <stdio.h>

static inline void hm_cpu_list(char *buf, size_t size)
{
	cpu_set_t set;
	size_t len = 0;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE && len + 24 < size; cpu++) {
		int last = cpu;

		if (!CPU_ISSET(cpu, &set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
			last++;
		len += (size_t)snprintf(buf + len, size - len, len ? ",%d" : "%d", cpu);
		if (last > cpu)
			len += (size_t)snprintf(buf + len, size - len, "-%d", last);
		cpu = last;
	}
}

#endif /* HM_CPU_LIST_H */

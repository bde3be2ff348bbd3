/* SPDX-License-Identifier: GPL-2.0 */
/* What the workloads measure of themselves: time, and per-thread schedstat. */
#ifndef WORKLOADS_SCHEDSTAT_H
#define WORKLOADS_SCHEDSTAT_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* time on CPU and waiting on a runqueue of the calling thread, in nsec */
static inline void schedstat(unsigned long long *run, unsigned long long *wait)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", syscall(SYS_gettid));
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu %llu", run, wait) != 2) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

#endif

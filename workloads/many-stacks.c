// SPDX-License-Identifier: GPL-2.0
/*
 * many-stacks: block briefly from many distinct user stacks, so that an
 * off-CPU profiler has many (thread, stack) keys to aggregate.
 *
 * usage: many-stacks [-t threads] [-n stacks-per-thread]
 *
 * Each thread goes down 10 levels of calls, picking one of 4 functions at
 * each level from the digits (base 4) of a path number, and sleeps 1 usec
 * at the bottom: paths 0..n-1 give n distinct stacks, so threads x stacks
 * keys in all (default 10 x 10000).  At the end it prints, added up over
 * its threads, from /proc/self/task/TID/schedstat, their time off CPU,
 * wall time - time on CPU, and their time blocked, that minus the time
 * waiting on a runqueue (after a wakeup or a preemption):
 * "offcpu_ns N blocked_ns M".  An off-CPU profiler measures from going to
 * sleep to running again: between the two.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "schedstat.h"

#define noinline __attribute__((noinline))
#define LEVELS 10

static int nr_threads = 10, nr_stacks = 10000;
static unsigned long long total_offcpu_ns, total_blocked_ns;

static noinline void bottom(void)
{
	struct timespec ts = { 0, 20000 };

	nanosleep(&ts, NULL);
}

static void step(int level, unsigned int path);

/* four functions, each with its own call site: distinct return addresses */
static noinline void f0(int level, unsigned int path) { step(level, path); }
static noinline void f1(int level, unsigned int path) { step(level, path); }
static noinline void f2(int level, unsigned int path) { step(level, path); }
static noinline void f3(int level, unsigned int path) { step(level, path); }

static noinline void step(int level, unsigned int path)
{
	if (level == LEVELS) {
		bottom();
		return;
	}
	switch (path & 3) {
	case 0: f0(level + 1, path >> 2); break;
	case 1: f1(level + 1, path >> 2); break;
	case 2: f2(level + 1, path >> 2); break;
	default: f3(level + 1, path >> 2); break;
	}
}

static void *thread_main(void *arg)
{
	unsigned long long t0, t1, r0, r1, q0, q1;

	(void)arg;
	/* sleep 20 usec, not 20 + the default 50 usec of timer slack */
	prctl(PR_SET_TIMERSLACK, 1UL);
	schedstat(&r0, &q0);
	t0 = now_ns();
	for (int i = 0; i < nr_stacks; i++)
		step(0, i);
	t1 = now_ns();
	schedstat(&r1, &q1);
	__sync_fetch_and_add(&total_offcpu_ns, (t1 - t0) - (r1 - r0));
	__sync_fetch_and_add(&total_blocked_ns, (t1 - t0) - (r1 - r0) - (q1 - q0));
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *threads;
	int opt;

	while ((opt = getopt(argc, argv, "t:n:")) != -1) {
		switch (opt) {
		case 't': nr_threads = atoi(optarg); break;
		case 'n': nr_stacks = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-t threads] [-n stacks-per-thread]\n", argv[0]);
			return 2;
		}
	}
	if (nr_threads < 1 || nr_stacks < 1 || nr_stacks > (1 << (2 * LEVELS))) {
		fprintf(stderr, "bad number of threads or stacks\n");
		return 2;
	}
	threads = calloc(nr_threads, sizeof(*threads));
	for (int i = 0; i < nr_threads; i++)
		pthread_create(&threads[i], NULL, thread_main, NULL);
	for (int i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	printf("offcpu_ns %llu blocked_ns %llu\n", total_offcpu_ns, total_blocked_ns);
	return 0;
}

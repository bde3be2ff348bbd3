// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu-demo: threads that block, over and over, in one clearly named
 * function each, so an off-CPU profile has something to show:
 *
 *   sleeper  wait_in_nanosleep()   nanosleep(2)
 *   piper    wait_in_pipe_read()   read(2) on a pipe the main thread feeds
 *   locker   wait_in_mutex_lock()  pthread_mutex_lock() on a mutex main holds
 *   syncer   wait_in_fsync()       write(2) + fsync(2) of a file on disk
 *
 * usage: offcpu-demo [-r rounds] [-m ms] [-S factor] [-f file]
 *   each round every thread blocks about 'ms' milliseconds (default 10 x 50),
 *   the sleeper 'factor' times that (default 1)
 *
 * At the end it prints, per thread, from /proc/self/task/TID/schedstat:
 * - its time off CPU, wall time - time on CPU, as an off-CPU profiler
 *   measures it (from going to sleep to running again, so including the
 *   wait for a CPU after the wakeup), in all and in its wait_in_*();
 * - its time blocked: the time off CPU minus the time it waited on a
 *   runqueue (after a wakeup or a preemption);
 * so a profile's totals can be checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "schedstat.h"

#define noinline __attribute__((noinline))

static int rounds = 10;
static long ms = 50;
static long sleep_factor = 1;
static const char *sync_file = "offcpu-demo.tmp";
static int pipefd[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t round_start, round_end;

struct worker {
	const char *name;
	void (*block)(void);
	pthread_t thread;
	pid_t tid;
	unsigned long long wall_ns, run_ns, wait_ns;
	unsigned long long func_offcpu_ns;	/* in block() */
};

/*
 * glibc is built without frame pointers: its syscall wrappers do not push a
 * frame, so a frame-pointer unwind from inside one of them skips the
 * wrapper's caller.  Each wait_in_*() therefore makes its blocking call
 * through a small helper, and stays visible in the user callchain.
 */
static noinline void sleep_ms(void)
{
	long t = ms * sleep_factor;
	struct timespec ts = { t / 1000, (t % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static noinline void read_one_byte(void)
{
	char c;

	if (read(pipefd[0], &c, 1) != 1)
		perror("read");
}

static noinline void lock_and_unlock(void)
{
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
}

static noinline void write_and_fsync(int fd)
{
	static char buf[1 << 16];

	if (write(fd, buf, sizeof(buf)) != sizeof(buf))
		perror("write");
	fsync(fd);
}

static noinline void wait_in_nanosleep(void)
{
	sleep_ms();
}

static noinline void wait_in_pipe_read(void)
{
	read_one_byte();
}

static noinline void wait_in_mutex_lock(void)
{
	lock_and_unlock();
}

static noinline void wait_in_fsync(void)
{
	unsigned long long end = now_ns() + ms * 1000000ULL;
	int fd = open(sync_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0) {
		perror(sync_file);
		exit(1);
	}
	/* synchronous writes, for about 'ms' */
	do
		write_and_fsync(fd);
	while (now_ns() < end);
	close(fd);
}

static noinline void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned long long start, run0, wait0, run1, wait1;

	w->tid = syscall(SYS_gettid);
	pthread_setname_np(pthread_self(), w->name);
	schedstat(&run0, &wait0);
	start = now_ns();
	for (int i = 0; i < rounds; i++) {
		unsigned long long t0, t1, r0, r1, q;

		pthread_barrier_wait(&round_start);
		schedstat(&r0, &q);
		t0 = now_ns();
		w->block();
		t1 = now_ns();
		schedstat(&r1, &q);
		w->func_offcpu_ns += (t1 - t0) - (r1 - r0);
		pthread_barrier_wait(&round_end);
	}
	w->wall_ns = now_ns() - start;
	schedstat(&run1, &wait1);
	w->run_ns = run1 - run0;
	w->wait_ns = wait1 - wait0;
	return NULL;
}

static void hold_mutex_and_feed_pipe(void)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	pthread_mutex_lock(&lock);
	pthread_barrier_wait(&round_start);
	nanosleep(&ts, NULL);
	if (write(pipefd[1], "x", 1) != 1)
		perror("write");
	pthread_mutex_unlock(&lock);
	pthread_barrier_wait(&round_end);
}

int main(int argc, char **argv)
{
	struct worker workers[] = {
		{ "sleeper", wait_in_nanosleep },
		{ "piper", wait_in_pipe_read },
		{ "locker", wait_in_mutex_lock },
		{ "syncer", wait_in_fsync },
	};
	int n = sizeof(workers) / sizeof(workers[0]);
	int opt;

	while ((opt = getopt(argc, argv, "r:m:S:f:")) != -1) {
		switch (opt) {
		case 'r': rounds = atoi(optarg); break;
		case 'm': ms = atol(optarg); break;
		case 'S': sleep_factor = atol(optarg); break;
		case 'f': sync_file = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-r rounds] [-m ms] [-S factor] [-f file]\n",
				argv[0]);
			return 2;
		}
	}
	if (rounds < 1 || ms < 1 || sleep_factor < 1) {
		fprintf(stderr, "rounds, ms and factor must be positive\n");
		return 2;
	}
	if (pipe(pipefd)) {
		perror("pipe");
		return 1;
	}
	pthread_barrier_init(&round_start, NULL, n + 1);
	pthread_barrier_init(&round_end, NULL, n + 1);
	for (int i = 0; i < n; i++)
		pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
	for (int i = 0; i < rounds; i++)
		hold_mutex_and_feed_pipe();
	for (int i = 0; i < n; i++)
		pthread_join(workers[i].thread, NULL);
	unlink(sync_file);

	printf("# tid comm offcpu_ns blocked_ns wall_ns run_ns runq_ns func_offcpu_ns\n");
	for (int i = 0; i < n; i++) {
		struct worker *w = &workers[i];

		printf("%d %s %llu %llu %llu %llu %llu %llu\n", w->tid, w->name,
		       w->wall_ns - w->run_ns,
		       w->wall_ns - w->run_ns - w->wait_ns,
		       w->wall_ns, w->run_ns, w->wait_ns, w->func_offcpu_ns);
	}
	return 0;
}

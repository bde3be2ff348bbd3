// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu-sites: a thread ("waiter") that waits, in turn, at two sites, each
 * for its own answering thread that spins before it answers: ~200 us in
 * wait_at_a(), ~600 us in wait_at_b().  Many short waits, a high rate of
 * context switches: for --off-cpu=stack-rate, whose estimated shares of the
 * two sites should match exact mode's.
 *
 *   offcpu-sites [-s seconds]
 *
 * Prints, per thread, as offcpu-demo: "tid comm off-cpu-ns blocked-ns"
 * (wall - on CPU, and that minus run-queue waits, from schedstat).
 */
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include "schedstat.h"

static int a_req[2], a_resp[2], b_req[2], b_resp[2];

struct report {
	long tid;
	char comm[16];
	unsigned long long start, run0, wait0;
};

static void report_start(struct report *r, const char *comm)
{
	prctl(PR_SET_NAME, comm);
	strncpy(r->comm, comm, sizeof(r->comm) - 1);
	r->tid = syscall(SYS_gettid);
	r->start = now_ns();
	schedstat(&r->run0, &r->wait0);
}

static void report_end(struct report *r)
{
	unsigned long long wall = now_ns() - r->start, run, wait;

	schedstat(&run, &wait);
	run -= r->run0;
	wait -= r->wait0;
	printf("%ld %s %llu %llu\n", r->tid, r->comm, wall - run, wall - run - wait);
}

static void spin_us(unsigned int us)
{
	unsigned long long end = now_ns() + us * 1000ULL;

	while (now_ns() < end)
		;
}

__attribute__((noinline)) static void one_byte(int fd_out, int fd_in)
{
	char c = 0;

	if (write(fd_out, &c, 1) != 1 || read(fd_in, &c, 1) != 1)
		exit(1);
}

__attribute__((noinline)) void wait_at_a(void)
{
	one_byte(a_req[1], a_resp[0]);
}

__attribute__((noinline)) void wait_at_b(void)
{
	one_byte(b_req[1], b_resp[0]);
}

struct answerer {
	const char *comm;
	int in, out;
	unsigned int us;
	struct report r;
};

static void *answer(void *arg)
{
	struct answerer *a = arg;
	char c;

	report_start(&a->r, a->comm);
	while (read(a->in, &c, 1) == 1 && c == 0) {
		spin_us(a->us);
		if (write(a->out, &c, 1) != 1)
			exit(1);
	}
	report_end(&a->r);
	return NULL;
}

static void *waiter(void *arg)
{
	unsigned long long end = now_ns() + *(unsigned int *)arg * 1000000000ULL;
	struct report r;
	char stop = 1;

	report_start(&r, "waiter");
	while (now_ns() < end) {
		wait_at_a();
		wait_at_b();
	}
	if (write(a_req[1], &stop, 1) != 1 || write(b_req[1], &stop, 1) != 1)
		exit(1);
	report_end(&r);
	return NULL;
}

int main(int argc, char **argv)
{
	struct answerer a = { "answer-a", 0, 0, 200 }, b = { "answer-b", 0, 0, 600 };
	unsigned int seconds = 3;
	pthread_t ta, tb, tw;
	int opt;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's') {
			fprintf(stderr, "usage: %s [-s seconds]\n", argv[0]);
			return 2;
		}
		seconds = atoi(optarg);
	}
	if (pipe(a_req) || pipe(a_resp) || pipe(b_req) || pipe(b_resp))
		return 1;
	a.in = a_req[0], a.out = a_resp[1];
	b.in = b_req[0], b.out = b_resp[1];

	printf("# tid comm off-cpu-ns blocked-ns\n");
	fflush(stdout);
	pthread_create(&ta, NULL, answer, &a);
	pthread_create(&tb, NULL, answer, &b);
	pthread_create(&tw, NULL, waiter, &seconds);
	pthread_join(tw, NULL);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	return 0;
}

/*
 * Many threads that wait, for perf record -p at scale (bench/scale.sh):
 * NR threads (1000 by default) that each sleep MSECS milliseconds (200 by
 * default) in a loop.  Once all of them run it prints "ready PID", then
 * waits for its standard input to end, and exits.
 *   many-threads [NR [MSECS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct timespec nap;

static void *sleeper(void *arg)
{
	for (;;)
		nanosleep(&nap, NULL);
	return arg;
}

int main(int argc, char **argv)
{
	int nr = argc > 1 ? atoi(argv[1]) : 1000;
	long msecs = argc > 2 ? atol(argv[2]) : 200;
	pthread_attr_t attr;
	pthread_t thread;
	char c;

	nap.tv_sec = msecs / 1000;
	nap.tv_nsec = (msecs % 1000) * 1000000L;
	/* thousands of threads: small stacks */
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 64 * 1024))
		return 1;
	for (int i = 0; i < nr; i++) {
		if (pthread_create(&thread, &attr, sleeper, NULL)) {
			fprintf(stderr, "many-threads: %d threads started of %d\n", i, nr);
			return 1;
		}
	}
	printf("ready %d\n", getpid());
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	return 0;
}

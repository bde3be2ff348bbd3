// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the readers of the raw data of offcpu-time samples
 * (tools/perf/util/off_cpu.c): the extension, its info, waker and user
 * registers and stack items.  The input is the raw data, placed as in a
 * sample: 4 bytes into a u64 (so its u64 words are 4-byte aligned only, as
 * in upstream's layout: scripts/fuzz.sh builds with -fno-sanitize=alignment).
 * Whatever it is, a reader must not crash nor read past it, and what it
 * accepts must lie within it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "util/event.h"
#include "util/off_cpu.h"
#include "util/sample.h"

/* what off_cpu.c links to and the readers do not use */
struct thread *machine__findnew_thread(struct machine *machine __maybe_unused,
				       pid_t pid __maybe_unused, pid_t tid __maybe_unused)
{
	abort();
}

struct thread *thread__get(struct thread *thread __maybe_unused)
{
	abort();
}

/* and what its off_cpu__user_cut() and off_cpu__warn_user_cut() do */
struct addr_location;
struct symbol;
int verbose;

struct symbol *thread__find_symbol(struct thread *thread __maybe_unused, u8 cpumode __maybe_unused,
				   u64 addr __maybe_unused, struct addr_location *al __maybe_unused)
{
	abort();
}

void addr_location__init(struct addr_location *al __maybe_unused)
{
	abort();
}

void addr_location__exit(struct addr_location *al __maybe_unused)
{
	abort();
}

int eprintf(int level __maybe_unused, int var __maybe_unused, const char *fmt __maybe_unused, ...)
{
	abort();
}

/* and its off_cpu__shown_time() */
struct evsel;

bool evsel__is_offcpu_event(struct evsel *evsel __maybe_unused)
{
	abort();
}

/* and its off_cpu__kernel_symbol() */
struct map;
struct maps;

struct machine *maps__machine(const struct maps *maps __maybe_unused)
{
	abort();
}

int map__load(struct map *map __maybe_unused)
{
	abort();
}

static struct regs_dump regs;

struct regs_dump *perf_sample__user_regs(struct perf_sample *sample)
{
	sample->user_regs = &regs;
	return &regs;
}

static void within(const void *p, size_t len, const uint8_t *raw, size_t size)
{
	if ((const uint8_t *)p < raw || (const uint8_t *)p + len > raw + size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ip_callchain *chain;
	struct off_cpu_waker waker;
	struct off_cpu_info info;
	struct perf_sample sample;
	volatile uint64_t sum = 0;
	uint64_t *buf;
	uint8_t *raw;

	if (size > UINT32_MAX)
		return 0;
	/* exactly the input, so that the address sanitizer sees any overread */
	buf = malloc(4 + size);
	raw = (uint8_t *)buf + 4;
	memcpy(raw, data, size);

	memset(&sample, 0, sizeof(sample));
	sample.raw_data = raw;
	sample.raw_size = size;
	if (off_cpu__sample_info(&sample, &info) == 0)
		sum += info.wait_site + info.runq;
	if (off_cpu__sample_waker(&sample, &waker, &chain) == 0) {
		within(chain, sizeof(u64) * (1 + chain->nr), raw, size);
		for (uint64_t i = 0; i < chain->nr; i++)
			sum += chain->ips[i];
	}
	if (off_cpu__sample_user_stack(&sample) == 0) {
		within(sample.user_regs->regs, sizeof(u64) * hweight64(sample.user_regs->mask),
		       raw, size);
		within(sample.user_stack.data, sample.user_stack.size, raw, size);
	}
	free(buf);
	return 0;
}

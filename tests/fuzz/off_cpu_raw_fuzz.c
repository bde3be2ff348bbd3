// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for off_cpu_raw__parse(), the conversion of the raw data
 * of an offcpu-time sample (from BPF, or from perf.data) into the sample.
 * The input is the raw data, placed as in a sample: 4 bytes into a u64
 * (so the u64 words and sample.callchain are 4-byte aligned only, as in
 * upstream's layout: scripts/fuzz.sh builds with -fno-sanitize=alignment).
 * Whatever it is, the parser must not crash nor read past it, and what it
 * accepts must be readable in full: the callchain, and the cgroup_id word
 * after it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include "util/event.h"
#include "util/off_cpu.h"
#include "util/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_sample sample;
	uint64_t *buf;
	uint8_t *raw;
	volatile uint64_t sum = 0;

	if (size > UINT32_MAX)
		return 0;
	/* exactly the input, so that the address sanitizer sees any overread */
	buf = malloc(4 + size);
	raw = (uint8_t *)buf + 4;
	memcpy(raw, data, size);

	memset(&sample, 0, sizeof(sample));
	/* 0, or OFF_CPU_RAW_UNKNOWN_EXT: the sample is set and used too */
	if (off_cpu_raw__parse(raw, size, &sample) >= 0) {
		uint8_t *end = (uint8_t *)&sample.callchain->ips[sample.callchain->nr];

		for (uint64_t i = 0; i < sample.callchain->nr; i++)
			sum += sample.callchain->ips[i];
		/* the callchain, then cgroup_id, lie within the input */
		if ((uint8_t *)sample.callchain < raw || end + sizeof(uint64_t) > raw + size)
			abort();
	}
	free(buf);
	return 0;
}

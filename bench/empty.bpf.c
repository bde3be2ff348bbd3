// SPDX-License-Identifier: GPL-2.0
/* The floor: the least a BPF off-CPU profiler can cost, a program on
 * every context switch that does nothing. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/sched_switch")
int empty(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

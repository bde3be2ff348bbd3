#!/bin/bash
# With -g, each thread of the demo workload has, in its off-CPU callchains,
# the kernel function it waited in and the user function that blocked, in
# one chain, and no frame of the profiler itself.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/check/demo-kernel-chains
mkdir -p $out
$PERF record -q --off-cpu -g -e dummy -o $out/perf.data -- \
	"$WORKLOADS/offcpu-demo" -r 5 -f $out/fsync.tmp > /dev/null
# one line per sample: comm, then the frames, leaf first
$PERF script -i $out/perf.data -F comm,ip,sym | awk '
	/^[^\t]/ { if (c) print c; c = $1 }
	/^\t/ { c = c " " $2 }
	END { if (c) print c }' > $out/chains
fail=0
expect() {	# comm kernel-regex user-function
	if ! grep -E "^$1 .*($2).* $3( |$)" $out/chains > /dev/null; then
		echo "no chain of $1 with /$2/ then $3"; fail=1
	else
		echo "$1: $(grep -E "^$1 .*($2).* $3( |$)" $out/chains | head -1)"
	fi
}
expect sleeper 'do_nanosleep|hrtimer_nanosleep' wait_in_nanosleep
expect piper 'pipe_read' wait_in_pipe_read
expect locker 'futex_wait' wait_in_mutex_lock
expect syncer 'fsync|file_write_and_wait' wait_in_fsync
if grep -E "bpf_prog_|bpf_trace_run|__bpf_trace_|__traceiter_" $out/chains; then
	echo "profiler frames in the chains"; fail=1
fi
exit $fail

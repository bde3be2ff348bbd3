#!/bin/bash
# --off-cpu-sample on a thread that waits at two sites more than a thousand
# times a second (workloads/offcpu-sites): with a budget of 200 walks a
# second per CPU, the sites' shares of its off-CPU time are within 5 points
# of exact mode's, and each thread's total is as close to what the thread
# measured of itself (wall - on CPU, from schedstat) as in exact mode, within
# 2 points.
set -uo pipefail
cd "$(dirname "$0")/.."
out=build/check/sampled
mkdir -p $out
fail=0

# per thread: tid comm perf-total off-cpu (wall - on CPU, as the thread measured it)
totals() {	# dir
	$PERF script -i $1/perf.data -F tid,period 2> /dev/null |
		awk '{ s[$1] += $2 } END { for (t in s) print t, s[t] }' > $1/totals
	awk 'NR == FNR { v[$1] = $2; next } $1 != "#" { print $2, v[$1] + 0, $3 }' \
		$1/totals $1/workload.txt | sort
}

# the share of wait_at_a in the waiter's time at the two sites
share_a() {	# dir
	$PERF script -i $1/perf.data -F comm,period,ip,sym 2> /dev/null |
		awk '/^[^\t]/ { p = $1 == "waiter" ? $2 : 0; next }
		     p && $2 == "wait_at_a" { a += p; p = 0 }
		     p && $2 == "wait_at_b" { b += p; p = 0 }
		     END { if (a + b) printf "%.1f\n", 100 * a / (a + b); else print "none" }'
}

for mode in exact sampled; do
	d=$out/$mode
	mkdir -p $d
	opt=; [ $mode = sampled ] && opt="--off-cpu-sample 200"
	$PERF record --off-cpu $opt -e dummy -o $d/perf.data -- \
		"$WORKLOADS/offcpu-sites" -s 6 > $d/workload.txt 2> $d/record.err || fail=1
	grep "^off-cpu" $d/record.err
	totals $d > $d/compare
	eval "share_$mode=$(share_a $d)"
done

# comm exact-error sampled-error, in % of the thread's own off-CPU time
join $out/exact/compare $out/sampled/compare |
	awk '{ e = ($2 - $3) * 100 / $3; s = ($4 - $5) * 100 / $5
	       ok = (s < 0 ? -s : s) <= (e < 0 ? -e : e) + 2
	       printf "%-4s %-10s perf vs the thread: exact %+.2f%%, sampled %+.2f%%\n", ok ? "ok" : "FAIL", $1, e, s
	       bad += !ok; n++ }
	     END { exit bad || n != 3 }' || fail=1

# the budget was really below the switch rate
grep -q "^off-cpu: stacks walked for [0-9]* of [0-9]* intervals" $out/sampled/record.err ||
	{ echo "FAIL sampled run not over its budget"; fail=1; }
echo "wait_at_a share of the waiter's time: exact ${share_exact}%, sampled ${share_sampled}%"
awk -v e="$share_exact" -v s="$share_sampled" 'BEGIN { d = e - s; exit !(e + 0 > 0 && d <= 5 && d >= -5) }' ||
	{ echo "FAIL shares differ by more than 5 points"; fail=1; }
[ $fail = 0 ] && echo "sampled: ok"
exit $fail

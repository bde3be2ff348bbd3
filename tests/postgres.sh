#!/bin/bash
# Off-CPU stacks of a real server: Debian's PostgreSQL 15 (built with frame
# pointers) under pgbench, recorded as users do, with --off-cpu=wakers -g:
# system wide (-a), and by pid (-p: the postmaster and its processes, every
# client updating one row).  In the off-CPU samples of the postgres
# processes: no callchain (a sample's own, or its waker's when the waker is
# postgres) runs on past its outermost frame, __libc_start_call_main or
# start_thread (libc6-dbg names the first), and some reach it; the known
# waits are named: the WAL flush (fdatasync under XLogFlush, -a) and the row
# lock (ProcSleep under XactLockTableWait, -p); and there are samples
# enough for this to mean something.  A private cluster on a unix socket,
# stopped on exit whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! scripts/deps.sh postgresql-15 postgresql-client-15 libc6-dbg > /dev/null; then
	echo "SKIP: apt cannot install postgresql-15, postgresql-client-15 and libc6-dbg"; exit 2
fi
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/postgres port=54329
export PERF_CONFIG=/dev/null
. tests/lib/pg-cluster.sh

# (a) system wide, pgbench's TPC-B-like script: each commit waits for the WAL
$PERF record --off-cpu=wakers -g -a -o $d/a.data -- runuser -u postgres -- \
	$PG/pgbench -h $sock -p $port -c 8 -j 2 -t 300 postgres > $d/a.out 2> $d/a.err ||
	fail "record -a: $(tail -5 $d/a.err)"

# (b) by pid: -p follows only the children born after it attaches, so the
# backends are there first; every client updates one row, waiting for its lock
echo 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 1;' > $d/row.sql
PGAPPNAME=rowlock runuser -u postgres -- $PG/pgbench -h $sock -p $port \
	-n -f $PWD/$d/row.sql -c 8 -j 2 -t 1000 postgres > $d/p.out 2>&1 &
bench=$!
until [ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'rowlock'")" = 8 ]; do
	kill -0 $bench 2> /dev/null || fail "pgbench ended before its 8 backends were seen: $(cat $d/p.out)"
	sleep 0.1
done
# the postmaster, its backends and its processes that live as long as it
pids=$(head -1 $d/data/postmaster.pid),$(sql "SELECT string_agg(pid::text, ',') FROM pg_stat_activity
	WHERE application_name = 'rowlock' OR backend_type NOT IN ('client backend', 'autovacuum worker')")
$PERF record --off-cpu=wakers -g -p $pids -o $d/p.data -- tail --pid=$bench -f /dev/null \
	2> $d/p.err || fail "record -p $pids: $(tail -5 $d/p.err)"
wait $bench || fail "pgbench: $(cat $d/p.out)"
bench=

# perf script: a sample is a header line, its callchain ("\taddr sym (dso)"
# lines), then "\twaker: comm pid" and the waker's callchain; a blank line
check() {	# file, a frame that must be there, a frame that must be under it
	$PERF script -i $1 -F comm,pid,tid,period,event,ip,sym,dso,waker 2> /dev/null |
	awk -v top="$2" -v below="$3" '
	function end() {	# of a callchain
		if (pg && n) { chains++; outer += past; if (bad && !nbad++) first = chain }
		n = bad = past = 0
	}
	!NF { end(); pg = 0; next }
	/^[^\t]/ { pg = $1 == "postgres" && $NF == "offcpu-time:"; samples += pg; own = pg
		   hit = 0; chain = $0 "\n"; next }
	/^\twaker:/ { end(); own = 0; pg = $2 == "postgres"; chain = chain $0 "\n"; next }
	pg {	chain = chain $0 "\n"; n++; bad += past
		past = past || $2 ~ /^(__libc_start_call_main|start_thread)$/
		if (own && $2 ~ top) hit = 1
		if (own && hit == 1 && $2 ~ below) { hit = 2; found++ }
	}
	END {	end()
		printf "%d postgres off-CPU samples, %d callchains: %d reach their outermost frame, %d run on past it\n",
			samples, chains, outer, nbad
		printf "%d samples with %s under %s\n", found, below, top
		if (nbad) printf "the first that runs on:\n%s", first
		exit !(samples >= 20 && outer && !nbad && found)
	}'
}
echo "system wide (-a):"
check $d/a.data '^fdatasync$' '^XLogFlush$'; a=$?
echo "by pid (-p):"
check $d/p.data '^ProcSleep$' '^XactLockTableWait$' && [ $a = 0 ] || fail "see above"
echo ok

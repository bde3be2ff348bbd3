#!/bin/bash
# The wait chains of a real server, as a user reads them first: Debian's
# PostgreSQL 15 with 8 pgbench clients updating one row, its processes
# recorded by pid (-p) with the report's own record script, the report
# read with its defaults.  Its first chains are those of the backends'
# row-lock waits (ProcSleep under XactLockTableWait or LockTuple, named by
# enough user frames to tell), each woken by another backend, ahead of the
# timer loops of the postmaster, the WAL writer, the background writer...
# A private cluster on a unix socket, stopped on exit whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! scripts/deps.sh postgresql-15 postgresql-client-15 > /dev/null; then
	echo "SKIP: apt cannot install postgresql-15 and postgresql-client-15"; exit 2
fi
PERF=${PERF:-$PWD/build/bin/perf}
d=build/check/postgres-chain port=54339
export PERF_CONFIG=/dev/null
. tests/lib/pg-cluster.sh

# -p follows only the children born after it attaches: the backends first
echo 'UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 1;' > $d/row.sql
PGAPPNAME=rowlock runuser -u postgres -- $PG/pgbench -h $sock -p $port \
	-n -f $PWD/$d/row.sql -c 8 -j 2 -t 500 postgres > $d/bench.out 2>&1 &
bench=$!
until [ "$(sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'rowlock'")" = 8 ]; do
	kill -0 $bench 2> /dev/null || fail "pgbench ended before its 8 backends were seen: $(cat $d/bench.out)"
	sleep 0.1
done
backends=$(sql "SELECT string_agg(pid::text, ',') FROM pg_stat_activity
	WHERE application_name = 'rowlock'")
# the postmaster, the backends and the processes that live as long as it
pids=$(head -1 $d/data/postmaster.pid),$(sql "SELECT string_agg(pid::text, ',') FROM pg_stat_activity
	WHERE application_name = 'rowlock' OR backend_type NOT IN ('client backend', 'autovacuum worker')")
$PERF script record offcpu-chain -p $pids -o $d/chain.data -- tail --pid=$bench -f /dev/null \
	2> $d/record.err || fail "record -p $pids: $(tail -5 $d/record.err)"
wait $bench || fail "pgbench: $(cat $d/bench.out)"
bench=
$PERF script report offcpu-chain -i $d/chain.data > $d/report 2> $d/report.err ||
	fail "report: $(tail -5 $d/report.err)"

# the chains of the first site: each a head line (task, time, site), then
# its links, the first of them indented by two spaces: its waker
awk -v backends=",$backends," '
	/^# (held up work|idle|unknown end): / { sites++; if (sites == 1) first = $0; next }
	sites == 1 && /^[^ #]/ {
		split($1, a, "/"); tid = a[2]; head = $0
		rowlock = a[1] == "postgres" && index(backends, "," tid ",") &&
			  / ProcSleep <- / && / <- (XactLockTableWait|LockTuple)[] ]/
		chains++; next
	}
	sites == 1 && /^  <- / && chains > ok + bad {
		split($2, a, "/")
		if (rowlock && a[1] == "postgres" && a[2] != tid && index(backends, "," a[2] ",")) ok++
		else if (!bad++) badchain = head "\n" $0
	}
	END {
		printf "first site: %s\n", first
		printf "its %d chains: %d row-lock waits of a backend woken by another\n", chains, ok
		if (bad) printf "the first that is not: %s\n", badchain
		exit !(first ~ /^# held up work: postgres at / && chains && ok == chains)
	}' $d/report || { head -40 $d/report; fail "the first chains are not row-lock waits woken by another backend"; }
echo ok

# Sourced by the PostgreSQL tests: a private cluster of Debian's
# PostgreSQL 15 in $d, on a unix socket and port $port (set by the test),
# initialized for pgbench (scale 1), stopped on exit whatever happens.
# Defines PG, sock, fail, pg (runs as postgres), stop and sql.
PG=/usr/lib/postgresql/15/bin
sock=$PWD/$d/run
fail() { echo "FAIL: $*"; exit 1; }
pg() { runuser -u postgres -- "$@"; }
stop() { [ ! -f $d/data/postmaster.pid ] || pg $PG/pg_ctl -D $d/data stop -m immediate > /dev/null; }
sql() { pg $PG/psql -h $sock -p $port -Atc "$1" postgres; }

stop	# a run killed before its trap
trap '[ -z "${bench:-}" ] || kill $bench 2> /dev/null; stop' EXIT
rm -rf $d && mkdir -p $d/data $d/run && chmod 755 $d && chown postgres: $d/data $d/run
pg $PG/initdb -D $d/data -A trust -U postgres > $d/initdb.log 2>&1 || fail "initdb: $(cat $d/initdb.log)"
pg $PG/pg_ctl -D $d/data -w -l $d/run/server.log -o "-p $port -k $sock -c listen_addresses=''" \
	start > /dev/null || fail "pg_ctl start: $(cat $d/run/server.log)"
pg $PG/pgbench -h $sock -p $port -i -s 1 -q postgres > $d/init.log 2>&1 ||
	fail "pgbench -i: $(cat $d/init.log)"

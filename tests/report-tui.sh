#!/bin/bash
# perf report's TUI, driven through tmux (interactive checks stay out of
# perf test): an off-CPU file opens on the offcpu-time event, not on a
# menu with the empty dummy event; with two events, one of them without
# samples, the menu lists both (perf top's rule too: an event empty when
# the browser opens must stay reachable); perf report --event of one
# event of time on and off CPU opens on it, of both on a menu of both.
set -uo pipefail
cd "$(dirname "$0")/.."
PERF=${PERF:-$PWD/build/bin/perf}
out=build/check/report-tui
rm -rf $out && mkdir -p $out
session="perf-report-tui-$$"
trap 'tmux kill-session -t $session 2> /dev/null' EXIT
export PERF_CONFIG=/dev/null
fail=0

command -v tmux > /dev/null || { echo "SKIP no tmux"; exit 1; }
$PERF version --build-options | grep -q 'libslang: \[ on' || { echo "SKIP no TUI"; exit 1; }

# the first screen of perf report -i $1 (a menu, or entries), in $2, with
# the options that follow
first_screen() {
	tmux new-session -d -s $session -x 160 -y 30 "$PERF report -i $1 ${*:3}; sleep 600"
	# until it is drawn, up to 60 s
	for _ in $(seq 600); do
		tmux capture-pane -t $session -p > "$2"
		grep -q -E "Available samples|^[+ -] +[0-9.]+%" "$2" && break
		sleep 0.1
	done
	tmux kill-session -t $session
}

$PERF record -q --off-cpu -e dummy -o $out/offcpu.data -- \
	$PERF test -w offcpu_chain 1 50 > /dev/null || exit 1
first_screen $out/offcpu.data $out/offcpu.screen
if grep -q "^Samples: .* of event 'offcpu-time'" $out/offcpu.screen &&
   ! grep -q "Available samples" $out/offcpu.screen; then
	echo "ok    an off-CPU file opens on offcpu-time"
else
	echo "FAIL  an off-CPU file does not open on offcpu-time:"
	head -8 $out/offcpu.screen; fail=1
fi

# alignment-faults: a software event that does not fire on x86
$PERF record -q -e task-clock -e alignment-faults -o $out/two.data -- \
	$PERF test -w noploop 1 || exit 1
# it has no sample
n=$($PERF script -i $out/two.data -F event 2> /dev/null | grep -c alignment-faults)
first_screen $out/two.data $out/two.screen
if [ "$n" = 0 ] && grep -q "Available samples" $out/two.screen &&
   grep -q "task-clock" $out/two.screen && grep -q "alignment-faults" $out/two.screen; then
	echo "ok    two events, one empty: the menu lists both"
else
	echo "FAIL  two events, one empty ($n alignment-faults samples): not both in a menu:"
	head -8 $out/two.screen; fail=1
fi
# time on and off CPU: --event opens on one of them, without the menu,
# and with two of them, on a menu of those two
$PERF record -q -e cpu-clock --off-cpu -o $out/oncpu.data -- \
	$PERF test -w offcpu_wallclock 1 50 60 > /dev/null || exit 1
first_screen $out/oncpu.data $out/oncpu.screen --event offcpu-time
if grep -q "^Samples: .* of event 'offcpu-time'" $out/oncpu.screen &&
   ! grep -q "Available samples" $out/oncpu.screen; then
	echo "ok    --event offcpu-time opens on offcpu-time"
else
	echo "FAIL  --event offcpu-time does not open on offcpu-time:"
	head -8 $out/oncpu.screen; fail=1
fi
first_screen $out/oncpu.data $out/oncpu.screen --event offcpu-time,cpu-clock
if grep -q "Available samples" $out/oncpu.screen &&
   grep -q "cpu-clock" $out/oncpu.screen && grep -q "offcpu-time" $out/oncpu.screen; then
	echo "ok    --event of both events: the menu lists both"
else
	echo "FAIL  --event of both events: not both in a menu:"
	head -8 $out/oncpu.screen; fail=1
fi
exit $fail

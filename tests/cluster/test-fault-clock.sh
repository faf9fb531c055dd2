#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fault-clock.sh: slurmctld's clock stepped back one hour and forward
# one hour while jobs run (issue 28).  Only slurmctld's clock moves: it runs
# under Debian's libfaketime (LD_PRELOAD through cluster.sh's
# MFPRIO_CTLD_ENV) with an offset it rereads every second from a file; the
# machine's clock, munged's, slurmd's and slurmdbd's are left alone.
# CLOCK_MONOTONIC is not faked (FAKETIME_DONT_FAKE_MONOTONIC=1), as with
# a real step of the wall clock (settimeofday, NTP) it does not move.
#
# On one cluster, PriorityDecayHalfLife=0-2 (two hours, so that an hour of
# decay too many shows: it takes 29%, where the few minutes of the test
# take 3% at most):
#   1. job A (b/u1, 1 CPU) runs throughout; job X (e/u4, 1 CPU, 20 s)
#      ends first: e/u4 then holds usage and runs nothing (U0, read as X
#      has ended: it is charged at its end);
#   2. offset -3600 (back one hour), a tick; +0 (forward to the true time),
#      a tick; +3600 (forward one hour), a tick; +0 (back), a tick; A
#      cancelled at the true time;
#   3. then: each job's association holds the job's CPU-seconds as sacct
#      has them (CPUTimeRAW, billing = CPUs here) within 10%, less at most
#      the decay over the test (2^(-elapsed/7200)); e/u4's usage is U0
#      decayed over no more than the real time between its two reads
#      (U1 >= U0 x 2^(-elapsed/7200) - 1: RawUsage is printed as an
#      integer), and took no charge (U1 <= U0 + 1); b/u1's usage never
#      fell from one phase to the next (no negative charge) and never held
#      more than 1.1 x the real seconds A had run (no doubled charge).
#
# MFPRIO_FAULT_PLUGIN=ours (default): all of the above is asserted, and our
# plugin's decay passes keep coming once a minute through the steps, each
# step named once in the log.  MFPRIO_FAULT_PLUGIN=upstream: the same steps
# under the release's own plugin; the figures are printed and only the test
# itself is asserted (the jobs ran, the controller and the node are up).
#
# Environment as the other tests (plugin-lib.sh): MFPRIO_CLUSTER_INSTANCE,
# MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO; MFPRIO_FAULTTIME_LIB, the
# libfaketime to preload (default Debian's multi-threaded one).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_FAULT_PLUGIN:-ours}
FT_LIB=${MFPRIO_FAULTTIME_LIB:-/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1}
HALF=7200                       # PriorityDecayHalfLife=0-2, in seconds
case $PLUGIN in
ours | upstream) ;;
*) say "MFPRIO_FAULT_PLUGIN=$PLUGIN: ours or upstream"; echo "0 passed, 1 failed"; exit 1 ;;
esac
if [[ ! -r $FT_LIB ]]; then
	say "no libfaketime at $FT_LIB (Debian's package faketime; tests/install-deps)"
	echo "0 passed, 1 failed"
	exit 1
fi

# libfaketime makes a POSIX semaphore and shared memory object in /dev/shm
# (sem.faketime_sem_PID, faketime_shm_PID) in every process it is preloaded
# in, slurmctld's children of user slurm too.  A chroot made as in
# ../shared/notes/fresh-machine.md binds /dev without its /dev/shm mount,
# and the directory there is root's alone: from 23.02 slurmscriptd then
# dies at start ("slurmscriptd failed to send return code").  /dev/shm is
# world-writable on any Debian machine; make it so here.
if ! runuser -u slurm -- test -w /dev/shm; then
	chmod 1777 /dev/shm && say "/dev/shm was not writable by slurm: made 1777"
fi
# and the objects of this test's processes go with them (libfaketime leaves
# them): those made since the test began whose process is gone
touch "$out/shm.mark"
clock_cleanup() {
	local f pid
	cleanup
	for f in /dev/shm/faketime_shm_* /dev/shm/sem.faketime_sem_*; do
		[[ -e $f && $f -nt $out/shm.mark ]] || continue
		pid=${f##*_}
		[[ $pid =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null && rm -f "$f"
	done
}
trap clock_cleanup EXIT

# the offset slurmctld (user slurm) rereads: in the test's own directory
chmod 711 "$out"
offset=$out/faketime
# step SECONDS: slurmctld's clock is the true time + SECONDS from now on
step() {
	echo "$1" >"$offset"
	chmod 644 "$offset"
	say "slurmctld's clock set to the true time $1 s"
}
step +0
sed 's/^PriorityDecayHalfLife=.*/PriorityDecayHalfLife=0-2/' \
	"$here/priority-default.conf" >"$out/priority.conf"
export MFPRIO_CTLD_ENV="LD_PRELOAD=$FT_LIB FAKETIME_TIMESTAMP_FILE=$offset FAKETIME_CACHE_DURATION=1 FAKETIME_DONT_FAKE_MONOTONIC=1"
use_plugin "$PLUGIN"
start_cluster "$out/priority.conf"
unset MFPRIO_CTLD_ENV
m0=$(log_mark)
if [[ $PLUGIN == ours ]]; then
	check "our plugin is loaded" loaded_is "$plugin_so"
else
	check "upstream's plugin is loaded" loaded_is "$UPSTREAM_SO"
fi
check "slurmctld runs with libfaketime" grep -q "$(basename "$FT_LIB")" "/proc/$(ctld_pid)/maps"

# usage ACCOUNT USER: the association's RawUsage (sshare, an integer)
usage() {
	sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
		awk -F'|' -v k="$1|$2" '$1 "|" $2 == k { v = $3 } END { print v + 0 }'
}
# worth JOB: sacct's CPU-seconds of JOB (its allocation's CPUs x elapsed,
# which is its billing x elapsed here)
worth() {
	sacct -n -P -X -j "$1" -o CPUTimeRAW 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}
# ctld_time: slurmctld's own clock, as sdiag's reply carries it
ctld_time() {
	sdiag 2>/dev/null | sed -n 's/.*output at .*(\([0-9]*\)).*/\1/p'
}
# tick_by T LIMIT: a decay pass wrote its state file after true time T,
# within LIMIT seconds (a wait with no failure: the caller says what it
# means)
tick_by() {
	local stamp=$STATE/priority_last_decay_ran end=$((SECONDS + $2))
	until [[ -e $stamp ]] && (($(stat -c %Y "$stamp") > $1)); do
		((SECONDS < end)) || return 1
		sleep 1
	done
	sleep 2
}
# cmp_awk EXPR A B...: awk's verdict on EXPR over a, b, c (numbers)
cmp_awk() {
	awk -v a="$2" -v b="$3" -v c="${4:-0}" -v h="$HALF" "BEGIN { exit !($1) }"
}

# 1. the jobs
a_job=$(sbatch --parsable --uid=u1 -A b -n 1 -t 4:00:00 -D /tmp -o /dev/null --wrap "sleep 3000")
x_job=$(sbatch --parsable --uid=u4 -A e -n 1 -t 4:00:00 -D /tmp -o /dev/null --wrap "sleep 20")
end=$((SECONDS + 60))
until [[ $(squeue -h -j "$a_job" -t R | wc -l) -eq 1 ]] || ((SECONDS > end)); do sleep 1; done
a_start=$(date +%s)
check "1: job A ($a_job) runs" test "$(squeue -h -j "$a_job" -t R | wc -l)" -eq 1
until [[ -z $(squeue -h -j "$x_job" 2>/dev/null) ]] || ((SECONDS > end + 60)); do sleep 1; done
check "1: job X ($x_job) ended" test -z "$(squeue -h -j "$x_job" 2>/dev/null)"
# charged as it ended (AccountingStorageEnforce=limits: slurmctld reports
# each job's end to the plugin), no pass needed
sleep 2
u0=$(usage e u4) t0=$(date +%s)
prev=$(usage b u1)
check "1: e/u4 holds X's usage ($u0)" test "$u0" -gt 10
say "1: plugin=$PLUGIN e/u4 U0=$u0, b/u1 $prev after $((t0 - a_start)) s of A"

# 2. the steps; after each, the next tick (up to 80 s: the passes come
# every 60 s), b/u1 read
ticks=0 fell=0 over=0
for s in -3600 +0 +3600 +0; do
	step "$s"
	sleep 2
	c=$(ctld_time) now=$(date +%s)
	check "2: slurmctld's clock is off by $s s (${c:-?} at $now)" \
		cmp_awk 'a != "" && (a - b - c) * (a - b - c) < 100' "$c" "$now" "$s"
	if tick_by "$now" 80; then ticks=$((ticks + 1)); tick="a tick"; else tick="no tick"; fi
	u=$(usage b u1) ran=$(($(date +%s) - a_start))
	say "2: plugin=$PLUGIN release=$SLURM_VERSION step $s: $tick in 80 s, b/u1 $u after $ran s of A"
	cmp_awk 'b >= a * 0.99 - 1' "$prev" "$u" || fell=$((fell + 1))
	cmp_awk 'a <= b * 1.1 + 2' "$u" "$ran" || over=$((over + 1))
	prev=$u
done
check "2: the controller runs" ctld_alive
check "2: the node is up ($(sinfo -h -n "$NODE" -o %T))" \
	test -z "$(sinfo -h -n "$NODE" -o %T | grep -iE 'down|drain|fail|not_resp|\*')"
check "2: job A still runs" test "$(squeue -h -j "$a_job" -t R | wc -l)" -eq 1
scancel "$a_job"
end=$((SECONDS + 60))
until [[ -z $(squeue -h -j "$a_job" 2>/dev/null) ]] || ((SECONDS > end)); do sleep 1; done
check "3: job A ended" test -z "$(squeue -h -j "$a_job" 2>/dev/null)"
sleep 3
u1=$(usage e u4) t1=$(date +%s) ua=$(usage b u1) ux=$u1
wa=$(worth "$a_job") wx=$(worth "$x_job")
ra=$(awk -v u="$ua" -v w="$wa" 'BEGIN { printf "%.3f", w ? u / w : 0 }')
rx=$(awk -v u="$ux" -v w="$wx" 'BEGIN { printf "%.3f", w ? u / w : 0 }')
keep=$(awk -v e="$((t1 - t0))" -v h="$HALF" 'BEGIN { printf "%.4f", 2 ^ (-e / h) }')
say "fault-clock: plugin=$PLUGIN release=$SLURM_VERSION job A usage $ua sacct $wa ratio $ra; job X usage $ux sacct $wx ratio $rx; idle e/u4 $u0 -> $u1 over $((t1 - t0)) s (at most decay x$keep allowed); ticks after the 4 steps $ticks; b/u1 fell $fell, over the real time $over"
check "3: sacct has both jobs' CPU-seconds ($wa, $wx)" cmp_awk 'a > 0 && b > 0' "$wa" "$wx"
if [[ $PLUGIN == ours ]]; then
	check "2: a decay pass came after each of the 4 steps ($ticks)" test "$ticks" -eq 4
	check "2: b/u1 never fell across a step ($fell times)" test "$fell" -eq 0
	check "2: b/u1 never held more than 1.1 x A's real run ($over times)" test "$over" -eq 0
	# the decay over the test: at most 2^(-(t1 - a_start)/7200) of A's
	# usage may be gone (3% over 6 minutes), no more than 10% beyond it
	for jr in "A $ra" "X $rx"; do
		check "3: job ${jr% *}'s association holds its CPU-seconds within 10% (ratio ${jr#* })" \
			cmp_awk 'a >= 0.9 * 2 ^ (-b / h) && a <= 1.1' "${jr#* }" "$((t1 - a_start))"
	done
	check "3: idle e/u4 decayed no more than the real $((t1 - t0)) s allow ($u0 -> $u1, x$keep)" \
		cmp_awk 'b >= a * 2 ^ (-c / h) - 1' "$u0" "$u1" "$((t1 - t0))"
	check "3: idle e/u4 took no charge ($u0 -> $u1)" cmp_awk 'b <= a + 1' "$u0" "$u1"
	check "3: each step named once in the log" \
		test "$(tail -n +"$((${m0#*:} + 1))" "$LOG" | grep -c 'mfprio: slurmctld.s clock moved by')" -eq 4
fi
check "3: the controller runs" ctld_alive
finish

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
#      has ended: with limits it is charged at its end, without by the
#      next sweep);
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
# MFPRIO_ACCT_ENFORCE (cluster.sh's AccountingStorageEnforce; default
# associations,limits,qos): without "limits" (e.g.
# MFPRIO_ACCT_ENFORCE=associations) slurmctld reports no job's end to the
# plugin, which finds ended jobs itself: each pass charges those ended
# since the last, and a sweep between passes (every MinJobAge/2 s; the
# test sets MinJobAge=30, sweeps every 15 s, through MFPRIO_CONF_EXTRA)
# charges them before slurmctld purges them.  That mode adds:
#   (a) X is the job that ended shortly before the step back: charged by
#       a sweep, then the clock goes back while slurmctld still lists it
#       (its end in the future of the new clock: MinJobAge cannot purge
#       it); the clock is held back over a pass and two sweeps after it
#       (and goes forward again before the next).  e/u4 must still hold
#       X's sacct CPU-seconds once (the ratio check, and e/u4 took no
#       charge): not charged again by each sweep or pass after the
#       charged-jobs table is emptied;
#   (b) as in both modes (below), Z's end found by a sweep;
#   and the checks of A and X above, as in the limits mode (X's usage U0
#   read once a sweep charged it).  About five minutes, as the other mode.
# In both modes: job Z (f/u5, 1 CPU, 20 s) starts a few seconds before the
# step forward (+0 to +3600, right after a pass) and ends some 15 s after
# it, before the next pass: f/u5 must hold Z's real run (sacct's
# CPU-seconds, which span the step, less the 3600 s) within 10% (+2), not
# the step.
#
# MFPRIO_FAULT_PLUGIN=ours (default): all of the above is asserted, and our
# plugin's decay passes keep coming once a minute through the steps, each
# step named once in the log.  MFPRIO_FAULT_PLUGIN=upstream: the same steps
# under the release's own plugin; the figures are printed and only the test
# itself is asserted (the jobs ran, the controller and the node are up;
# that Z ran across the step forward; without limits also that X was still
# listed across the step back).
#
# Environment as the other tests (plugin-lib.sh): MFPRIO_CLUSTER_INSTANCE,
# MFPRIO_SLURM_PREFIX, MFPRIO_PLUGIN_SO; MFPRIO_FAULTTIME_LIB, the
# libfaketime to preload (default Debian's multi-threaded one);
# MFPRIO_ACCT_ENFORCE as above (MFPRIO_CONF_EXTRA's own lines are kept).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_FAULT_PLUGIN:-ours}
FT_LIB=${MFPRIO_FAULTTIME_LIB:-/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1}
HALF=7200                       # PriorityDecayHalfLife=0-2, in seconds
ENFORCE=${MFPRIO_ACCT_ENFORCE:-associations,limits,qos}
MIN_AGE=30                      # MinJobAge without limits: a sweep every 15 s
NL=0                            # 1: without limits (the plugin finds ends)
[[ $ENFORCE == *limits* ]] || NL=1
MODE=$([[ $NL == 1 ]] && echo "no-limits" || echo "limits")
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
if [[ $NL == 1 ]]; then
	# MinJobAge short enough that the plugin sweeps between passes
	{
		[[ -n ${MFPRIO_CONF_EXTRA:-} ]] && cat "$MFPRIO_CONF_EXTRA"
		echo "MinJobAge=$MIN_AGE"
	} >"$out/extra.conf"
	export MFPRIO_CONF_EXTRA=$out/extra.conf
fi
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
# conf_of NAME: slurmctld's value of NAME (scontrol show config)
conf_of() {
	scontrol show config 2>/dev/null | awk -v k="$1" '$1 == k { sub(/^[^=]*= */, ""); print; exit }'
}
say "mode $MODE: AccountingStorageEnforce=$(conf_of AccountingStorageEnforce), MinJobAge=$(conf_of MinJobAge)"
if [[ $NL == 1 ]]; then
	check "no limits: slurmctld enforces no limits ($(conf_of AccountingStorageEnforce))" \
		test -z "$(conf_of AccountingStorageEnforce | grep -i limits)"
	check "no limits: MinJobAge is $MIN_AGE ($(conf_of MinJobAge))" \
		test "$(conf_of MinJobAge | tr -dc 0-9)" == "$MIN_AGE"
fi

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
# end_of JOB: JOB's EndTime in slurmctld (seconds since the epoch), empty
# when slurmctld no longer lists it
end_of() {
	local e
	e=$(scontrol -o show job "$1" 2>/dev/null | grep -o ' EndTime=[^ ]*' | cut -d= -f2)
	[[ -n $e && $e != Unknown && $e != None ]] && date -d "$e" +%s 2>/dev/null
	return 0
}
# cmp_awk EXPR A B...: awk's verdict on EXPR over a, b, c (numbers)
cmp_awk() {
	awk -v a="$2" -v b="${3:-0}" -v c="${4:-0}" -v h="$HALF" "BEGIN { exit !($1) }"
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
# each job's end to the plugin), no pass needed; without limits by the
# next sweep (15 s), before slurmctld may purge it (30 s after its end)
sleep 2
if [[ $NL == 1 && $PLUGIN == ours ]]; then
	end=$((SECONDS + MIN_AGE / 2 + 5))
	until (($(usage e u4) > 10)) || ((SECONDS > end)); do sleep 1; done
fi
u0=$(usage e u4) t0=$(date +%s)
prev=$(usage b u1)
# without limits upstream's plugin charges no ended job: nothing to read
if [[ $NL == 0 || $PLUGIN == ours ]]; then
	check "1: e/u4 holds X's usage ($u0)" test "$u0" -gt 10
fi
say "1: plugin=$PLUGIN mode=$MODE e/u4 U0=$u0, b/u1 $prev after $((t0 - a_start)) s of A"

# 2. the steps; after each, the next tick (up to 80 s: the passes come
# every 60 s), b/u1 read
ticks=0 fell=0 over=0 z_job="" phase=0
for s in -3600 +0 +3600 +0; do
	phase=$((phase + 1))
	if [[ $s == +3600 ]]; then
		# (b) Z starts a few seconds before the step forward, which
		# comes right after a pass, and ends some 15 s after it: before
		# the next pass (with limits slurmctld reports its end to the
		# plugin; without, a sweep 15 or 30 s after the pass finds it)
		z_job=$(sbatch --parsable --uid=u5 -A f -n 1 -t 4:00:00 -D /tmp -o /dev/null --wrap "sleep 20")
		end=$((SECONDS + 30))
		until [[ $(squeue -h -j "$z_job" -t R | wc -l) -eq 1 ]] || ((SECONDS > end)); do sleep 1; done
		check "2: (b) job Z ($z_job) runs before the step forward" \
			test "$(squeue -h -j "$z_job" -t R | wc -l)" -eq 1
		sleep 2
	fi
	step "$s"
	sleep 2
	c=$(ctld_time) now=$(date +%s)
	check "2: slurmctld's clock is off by $s s (${c:-?} at $now)" \
		cmp_awk 'a != "" && (a - b - c) * (a - b - c) < 100' "$c" "$now" "$s"
	if [[ $NL == 1 && $phase == 1 ]]; then
		# (a) X still listed, its end ahead of slurmctld's clock now
		xe=$(end_of "$x_job")
		check "2: (a) slurmctld still lists X, its end (${xe:-none}) in the future of its clock (${c:-?})" \
			cmp_awk 'a != "" && b != "" && a > b' "$xe" "$c"
	fi
	if tick_by "$now" 80; then ticks=$((ticks + 1)); tick="a tick"; else tick="no tick"; fi
	if [[ $NL == 1 && $phase == 1 ]]; then
		# the clock held back over the two sweeps after that pass
		sleep 30
		say "2: (a) after a pass and two sweeps at -3600: e/u4 $(usage e u4) (U0 $u0), X still listed: $([[ -n $(end_of "$x_job") ]] && echo yes || echo no)"
	fi
	u=$(usage b u1) ran=$(($(date +%s) - a_start))
	say "2: plugin=$PLUGIN mode=$MODE release=$SLURM_VERSION step $s: $tick in 80 s, b/u1 $u after $ran s of A, e/u4 $(usage e u4)${z_job:+, f/u5 $(usage f u5)}"
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
# without limits, A's end is charged by the next sweep (within 15 s)
if [[ $NL == 1 ]]; then
	end=$((SECONDS + MIN_AGE / 2 + 3))
	until (($(usage b u1) > prev)) || ((SECONDS > end)); do sleep 1; done
	sleep 1
fi
u1=$(usage e u4) t1=$(date +%s) ua=$(usage b u1) ux=$u1
wa=$(worth "$a_job") wx=$(worth "$x_job")
ra=$(awk -v u="$ua" -v w="$wa" 'BEGIN { printf "%.3f", w ? u / w : 0 }')
rx=$(awk -v u="$ux" -v w="$wx" 'BEGIN { printf "%.3f", w ? u / w : 0 }')
keep=$(awk -v e="$((t1 - t0))" -v h="$HALF" 'BEGIN { printf "%.4f", 2 ^ (-e / h) }')
say "fault-clock: plugin=$PLUGIN mode=$MODE release=$SLURM_VERSION job A usage $ua sacct $wa ratio $ra; job X usage $ux sacct $wx ratio $rx; idle e/u4 $u0 -> $u1 over $((t1 - t0)) s (at most decay x$keep allowed); ticks after the 4 steps $ticks; b/u1 fell $fell, over the real time $over"
check "3: sacct has both jobs' CPU-seconds ($wa, $wx)" cmp_awk 'a > 0 && b > 0' "$wa" "$wx"
if [[ -n $z_job ]]; then
	# (b) Z: sacct's CPU-seconds run from its start before the step to its
	# end after it, in slurmctld's clock: the step and the real run
	uz=$(usage f u5) wz=$(worth "$z_job")
	rz=$((wz - 3600))
	say "fault-clock: plugin=$PLUGIN mode=$MODE release=$SLURM_VERSION job Z usage $uz sacct $wz (real run $rz s, the 3600 s step less)"
	check "3: (b) job Z ran across the step forward (sacct $wz = 3600 + a real run of $rz s, about 20)" \
		cmp_awk 'a >= 10 && a <= 40' "$rz"
fi
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
	if [[ -n $z_job ]]; then
		check "3: (b) f/u5 holds Z's real run within 10%, not the step ($uz for $rz s)" \
			cmp_awk 'a >= 0.9 * b - 2 && a <= 1.1 * b + 2' "$uz" "$rz"
	fi
	check "3: each step named once in the log" \
		test "$(tail -n +"$((${m0#*:} + 1))" "$LOG" | grep -c 'mfprio: slurmctld.s clock moved by')" -eq 4
fi
check "3: the controller runs" ctld_alive
finish

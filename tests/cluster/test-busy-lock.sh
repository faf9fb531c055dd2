#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-busy-lock.sh: a decay pass made to wait more than 5 s on slurmctld's
# job write lock must charge every running job in full.  No test hook in
# the plugin: the lock is held by slurmctld itself.  gdb, attached in
# non-stop mode, stops one RPC thread at the entry of update_job_str (what
# `scontrol update job=...` runs with the job write lock held) a few
# seconds before a pass is due, and lets it go HOLD seconds later.  Every
# other thread keeps running: the decay thread starts its pass on time and
# waits for the lock (`scontrol ping` answers meanwhile, `squeue` cannot).
#
# A pass that waited L seconds for its first lock must not read the wait
# as a step of slurmctld's clock (it is not one: wall and monotonic time
# both moved by L), nor charge running jobs L seconds too much at that
# pass and L too little at the next.
#
# One cluster, the jobs in a partition whose CPUs are shared
# (OverSubscribe=FORCE, so that three jobs fit a 2-CPU machine; billing is
# still the CPUs each job was given):
#   A  b/u1, 2 CPUs: runs throughout;
#   B  c/u2, 2 CPUs: starts after pass P1 (the one before the hold), runs
#      through P2 (the held pass) and P3 (the next one);
#   C  e/u4, 1 CPU: starts after P1, ends between P2 and P3.
# Checks:
#   - the hold: one thread stopped, in update_job_str; the controller
#     answers a ping; squeue gets no answer; P2 began during the hold and
#     was written only after it (the state file's time against the pass's
#     own time), by more than 5 s;
#   - (ours) right after P2, each association holds its job's CPUs x the
#     time from its start to P2's time, not more (no over-charge);
#   - at the end (A and B cancelled after P3, a pass after that): each
#     association holds its job's CPU-seconds as sacct has them
#     (CPUTimeRAW: billing = CPUs here) within 2% + 2 s x CPUs
#     (PriorityDecayHalfLife=7-0: the decay of the few minutes is < 0.1%),
#     no other user association holds usage, the log has no "clock moved"
#     line, the controller is up.
#
# MFPRIO_FAULT_PLUGIN=ours (default): all of the above asserted.
# MFPRIO_FAULT_PLUGIN=upstream: the release's own plugin; the figures are
# printed and only the scenario is asserted (the hold, the jobs' times,
# the controller up).  MFPRIO_ACCT_ENFORCE=associations (cluster.sh):
# slurmctld reports no job's end to the plugin, C is charged by P3.
# MFPRIO_BUSY_HOLD: seconds the lock is held (default 30, 17 to 50; it
# begins 5 s before P2 is due).
#
# MFPRIO_BUSY_OVERRUN=1: the overrun case instead (issue 35), a task of its
# own in the matrix (about 10 minutes, against the default's 5 and a half,
# most of it its own waits: the hold and four periods).  The lock is
# held MFPRIO_BUSY_HOLD s (default 200, 190 to 290) from 5 s before P2 is
# due: P2 waits for it over more than three periods.  Once it is let go, P2
# ends, ONE pass (P2b) follows at once, and the next (P3) a period after
# P2b; the decay thread used to keep its ticks on the old grid and run one
# pass for every tick due during the hold, back to back.  C ends 20 s after
# the release.  The passes are counted by the plugin's own counter (cycle
# in StateSaveLocation/mfprio_stats: back-to-back passes end within the
# same second, too close for the state file's writes to tell apart).
# Checks:
#   - no pass ended during the hold, while DUE (>= 4) were due;
#   - in the 40 s after the release the counter moved by exactly 2 (P2 and
#     P2b; the old thread: DUE), and the last of them began within 5 s of
#     the release;
#   - P3 began a period (-1..+5 s) after P2b, the first pass counted after
#     those 40 s;
#   - 15 s after the release, each association holds its job's CPUs x the
#     time from its start to the last pass's own time;
#   - at the end, as above (sacct, no other association, no "clock moved").
# Ours only (the counter is our plugin's).  SlurmdTimeout=600: the node's
# pings also wait for the job lock.  DebugFlags +Priority and SlurmctldDebug
# verbose: the plugin's lines of the passes after the release are printed
# (not asserted).
# Environment otherwise as the other tests (plugin-lib.sh).
# shellcheck disable=SC2317 # (functions run through check and the trap)
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

PLUGIN=${MFPRIO_FAULT_PLUGIN:-ours}
OVERRUN=${MFPRIO_BUSY_OVERRUN:-0}
LEAD=5                          # the hold begins LEAD s before P2 is due
PERIOD=60                       # PriorityCalcPeriod=1 (cluster.sh)
OBSERVE=40                      # (overrun) the passes counted this long after the release
case $PLUGIN in
ours | upstream) ;;
*) say "MFPRIO_FAULT_PLUGIN=$PLUGIN: ours or upstream"; echo "0 passed, 1 failed"; exit 1 ;;
esac
case $OVERRUN in
0) HOLD=${MFPRIO_BUSY_HOLD:-30} hold_min=$((LEAD + 12)) hold_max=50 ;;
1) HOLD=${MFPRIO_BUSY_HOLD:-200} hold_min=$((3 * PERIOD + LEAD + 5)) hold_max=290 ;;
*) say "MFPRIO_BUSY_OVERRUN=$OVERRUN: 0 or 1"; echo "0 passed, 1 failed"; exit 1 ;;
esac
if ((OVERRUN)) && [[ $PLUGIN != ours ]]; then
	say "MFPRIO_BUSY_OVERRUN=1 counts the passes with our plugin's counter: MFPRIO_FAULT_PLUGIN=ours only"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! command -v gdb >/dev/null; then
	say "no gdb (tests/install-deps installs it)"
	echo "0 passed, 1 failed"
	exit 1
fi
if [[ ! $HOLD =~ ^[0-9]+$ ]] || ((HOLD < hold_min || HOLD > hold_max)); then
	say "MFPRIO_BUSY_HOLD=$HOLD: $hold_min to $hold_max s"
	echo "0 passed, 1 failed"
	exit 1
fi
# CPUs of A, B, C (billing = CPUs: no TRESBillingWeights)
ca=2 cb=2 cc=1
(($(nproc) >= 2)) || ca=1 cb=1

# gdb, driven through a FIFO: the test says when the hold ends
gdb_pid=
g() { printf '%s\n' "$*" >&8; }
gdb_attach() {
	mkfifo "$out/gdb.in" || return 1
	gdb -q -nx <"$out/gdb.in" >"$out/gdb.log" 2>&1 &
	gdb_pid=$!
	exec 8>"$out/gdb.in"
	g 'set pagination off'
	g 'set confirm off'
	g 'set non-stop on'
	# attach&: in non-stop mode the threads are not stopped
	g "attach $1 &"
	g 'break update_job_str'
	# any thread that was stopped all the same runs again
	g 'continue -a &'
	g 'echo MFPRIO-ATTACHED\n'
}
# gdb_done: the breakpoint removed, slurmctld let go, gdb gone
gdb_done() {
	local end=$((SECONDS + 20))
	[[ -n $gdb_pid ]] || return 0
	if kill -0 "$gdb_pid" 2>/dev/null; then
		g 'delete'
		g 'detach'
		g 'quit'
	fi
	exec 8>&-
	while kill -0 "$gdb_pid" 2>/dev/null && ((SECONDS < end)); do sleep 1; done
	kill "$gdb_pid" 2>/dev/null
	wait "$gdb_pid" 2>/dev/null
	gdb_pid=
}
busy_cleanup() {
	gdb_done
	cleanup
}
trap busy_cleanup EXIT
# gdb_says PATTERN LIMIT: PATTERN (grep -E) in gdb's output within LIMIT s
gdb_says() {
	local end=$((SECONDS + $2))
	until grep -qE -- "$1" "$out/gdb.log" 2>/dev/null; do
		((SECONDS < end)) || return 1
		sleep 0.2
	done
}

# the partition whose CPUs the jobs share
echo "PartitionName=busy Nodes=$NODE OverSubscribe=FORCE:4 MaxTime=INFINITE State=UP" >"$out/extra.conf"
# (overrun) a hold of up to 290 s must not take the node for a dead one
((OVERRUN)) && echo "SlurmdTimeout=600" >>"$out/extra.conf"
export MFPRIO_CONF_EXTRA=$out/extra.conf
use_plugin "$PLUGIN"
start_cluster "$here/priority-default.conf"
m0=$(log_mark)
if [[ $PLUGIN == ours ]]; then
	check "our plugin is loaded" loaded_is "$plugin_so"
else
	check "upstream's plugin is loaded" loaded_is "$UPSTREAM_SO"
fi
enforce=$(scontrol show config | awk -F'= *' '/^AccountingStorageEnforce/ { print $2 }')
if ((OVERRUN)); then
	# the plugin's lines of each pass (DebugFlags' lines are verbose ones)
	{ scontrol setdebugflags +Priority && scontrol setdebug verbose; } ||
		say "(scontrol setdebugflags +Priority, setdebug verbose: failed; no pass lines in the log)"
fi

sub() { # ACCOUNT USER CPUS SECONDS
	sbatch --parsable --uid="$2" --gid="$2" -A "$1" -p busy -n "$3" -t 1:00:00 \
		-D /tmp -o /dev/null --wrap "sleep $4" | cut -d';' -f1
}
# running JOB...: all of them run, within 30 s
running() {
	local j end=$((SECONDS + 30))
	for j in "$@"; do
		until [[ $(squeue -h -j "$j" -o %T 2>/dev/null) == RUNNING ]]; do
			((SECONDS < end)) || return 1
			sleep 1
		done
	done
}
# start_of JOB, end_of JOB: its start, its end (epoch s, sacct)
start_of() { date -d "$(sacct -n -P -X -j "$1" -o Start | head -n 1)" +%s 2>/dev/null || echo 0; }
end_of() { date -d "$(sacct -n -P -X -j "$1" -o End | head -n 1)" +%s 2>/dev/null || echo 0; }
gone() { [[ -z $(squeue -h -j "$1" 2>/dev/null) ]]; }
# c_ends: C's job gone from squeue (60 s at most); its end (c_end) and its
# association's usage then (uc4)
c_ends() {
	wait_until 60 gone "$c_job"
	sleep 2
	c_end=$(end_of "$c_job")
	uc4=$(raw_usage e u4)
}
# stamp: the state file's time (when a pass wrote it)
stamp() { stat -c %Y "$STATE/priority_last_decay_ran" 2>/dev/null || echo 0; }
# pass_after T LIMIT: a pass whose own time (the file's last decay) is
# after T has written the state file, within LIMIT s
pass_after() {
	local end=$((SECONDS + $2))
	until (($(last_ran) > $1)); do
		((SECONDS < end)) || return 1
		sleep 0.5
	done
}
# fits VALUE EXPECTED CPUS: VALUE is EXPECTED within 2% + 2 s x CPUS
fits() {
	awk -v v="$1" -v e="$2" -v c="$3" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(e > 0 && d <= e * 0.02 + 2 * c) }'
}
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$out/p2.stats" 2>/dev/null; }
# counter: "CYCLE TIME", the plugin's count of its passes and the last one's
# own time (mfprio_stats, written after each pass; "0 0" before any)
counter() {
	cp "$STATE/mfprio_stats" "$out/now.stats" 2>/dev/null || { echo "0 0"; return 0; }
	awk '$1 == "cycle" { c = $2 } $1 == "cycle_time" { t = $2 } END { print c + 0, t + 0 }' "$out/now.stats"
}
# watch_passes UNTIL: till the time UNTIL (epoch s), every step of the
# counter noted in $out/passes as "CYCLE TIME SEEN-AT" (passes back to back
# are one step of several)
watch_passes() {
	local c t last
	last=$(tail -n 1 "$out/passes" 2>/dev/null | cut -d' ' -f1)
	while (($(date +%s) < $1)); do
		read -r c t <<<"$(counter)"
		if [[ $c != "${last:-}" ]]; then
			echo "$c $t $(date +%s.%N)" >>"$out/passes"
			last=$c
		fi
		sleep 0.5
	done
}
# counted_past C LIMIT: the counter is past C within LIMIT s
counted_past() {
	local c t end=$((SECONDS + $2))
	while :; do
		read -r c t <<<"$(counter)"
		((c > $1)) && return 0
		((SECONDS < end)) || return 1
		sleep 0.5
	done
}

# 1. A, then P1
a_job=$(sub b u1 "$ca" 3000)
check "1: job A ($a_job, b/u1, $ca CPUs) runs" running "$a_job"
pass_after "$(date +%s)" $((PERIOD + 30))
p1=$(last_ran)
check "1: pass P1 came ($p1)" test "$p1" -gt 0
if ((OVERRUN)); then
	# the counter of that pass (written just after the state file)
	end=$((SECONDS + 10))
	until read -r c1 t1 <<<"$(counter)" && ((t1 == p1)) || ((SECONDS > end)); do sleep 0.5; done
	check "1: the plugin counted P1 (pass $c1, its time $t1)" test "$c1" -gt 0 -a "$t1" -eq "$p1"
fi

# 2. B and C start between P1 and P2 (in a later second than P1's time);
# C ends 40 s after P2 is due (after the hold, before P3), or (overrun)
# 20 s after the release (after P2b, before P3)
sleep 1
b_job=$(sub c u2 "$cb" 3000)
if ((OVERRUN)); then
	c_job=$(sub e u4 "$cc" $((p1 + PERIOD - LEAD + HOLD + 20 - $(date +%s))))
else
	c_job=$(sub e u4 "$cc" $((p1 + PERIOD + 40 - $(date +%s))))
fi
check "2: jobs B ($b_job, c/u2, $cb CPUs) and C ($c_job, e/u4, $cc CPU) run" running "$b_job" "$c_job"
a_start=$(start_of "$a_job") b_start=$(start_of "$b_job") c_start=$(start_of "$c_job")
check "2: B and C started after P1 ($b_start, $c_start > $p1)" \
	test "$b_start" -gt "$p1" -a "$c_start" -gt "$p1"

# 3. the hold: from LEAD s before P2 is due, HOLD s
gdb_attach "$(ctld_pid)"
check "3: gdb attached, the breakpoint set" gdb_says 'MFPRIO-ATTACHED' 60
check "3: ... on update_job_str" grep -q '^Breakpoint 1 at' "$out/gdb.log"
check "3: ... before the hold is due ($(date +%s) < $((p1 + PERIOD - LEAD)))" \
	test "$(date +%s)" -lt $((p1 + PERIOD - LEAD))
while (($(date +%s) < p1 + PERIOD - LEAD)); do sleep 0.2; done
timeout $((HOLD + 30)) scontrol update job="$a_job" comment=mfprio-busy-lock >"$out/update.out" 2>&1 &
upd=$!
gdb_says 'hit Breakpoint 1' 10
h0=$(date +%s)
check "3: an RPC thread stopped in update_job_str, the job write lock held ($h0)" \
	grep -qE 'hit Breakpoint 1, (0x[0-9a-f]+ in )?update_job_str ' "$out/gdb.log"
sleep 3
g 'info threads'
g 'echo MFPRIO-THREADS\n'
gdb_says 'MFPRIO-THREADS' 10
# the threads listed, the one not running
stopped=$(awk '/Target Id/ { on = 1; next } /MFPRIO-THREADS/ { on = 0 } on && /^[* ] +[0-9]+ +Thread/ && !/\(running\)/' \
	"$out/gdb.log")
check "3: non-stop: one thread stopped ($(echo "$stopped" | grep -c .)), every other runs" \
	test "$(echo "$stopped" | grep -c 'update_job_str')" -eq 1 -a "$(echo "$stopped" | grep -c .)" -eq 1
check "3: during the hold the controller answers a ping" \
	bash -c 'timeout 8 scontrol ping | grep -q "is UP"'
check "3: ... and squeue gets no answer (the job lock is held)" \
	bash -c "timeout 4 squeue -h -j $a_job >/dev/null 2>&1; test \$? -eq 124"
while (($(date +%s) < h0 + HOLD)); do sleep 0.2; done
rel=$(date +%s)
# (overrun) the count so far: no pass can end before the lock is let go
((OVERRUN)) && read -r crel _ <<<"$(counter)" && m_rel=$(log_mark)
gdb_done
wait "$upd" 2>/dev/null
check "3: gdb let slurmctld go ($rel), the controller answers" ctld_alive
if ((OVERRUN)); then
	# the passes due during the hold (P2's time, and every period after it
	# up to the release): as many passes back to back on the old grid
	due=$(((rel - p1) / PERIOD))
	check "3: no pass ended during the hold (the counter: $c1 at P1, $crel at the release; $due due)" \
		test "$crel" -eq "$c1" -a "$due" -ge 4
	# 15 s after the release (no pass due then, old grid or new):
	# every job charged to the last pass's own time
	: >"$out/passes"
	watch_passes $((rel + 15))
	read -r cu tu <<<"$(counter)"
	ua2=$(raw_usage b u1) ub2=$(raw_usage c u2) uc2=$(raw_usage e u4)
	read -r cu2 _ <<<"$(counter)"
	ea2=$((ca * (tu - a_start))) eb2=$((cb * (tu - b_start))) ec2=$((cc * (tu - c_start)))
	# the passes that follow the release
	watch_passes $((rel + OBSERVE))
	read -r cw p2b <<<"$(counter)"
	n=$((cw - c1))
	check "3: $n passes in the $OBSERVE s after the release: 2 (P2, which waited, and P2b at once), not one for each of the $due due" \
		test "$n" -eq 2
	check "3: ... the last of them began at once (its time $p2b, released $rel)" \
		test "$p2b" -ge "$rel" -a "$p2b" -le $((rel + 5))
	check "3: no pass while the usage was read (pass $cu, then $cu2)" test "$cu" -eq "$cu2"
	check "3: 15 s after the release, A's association holds A's run to the last pass, $tu ($ua2, expected $ea2)" fits "$ua2" "$ea2" "$ca"
	check "3: ... B's holds B's run ($ub2, expected $eb2)" fits "$ub2" "$eb2" "$cb"
	check "3: ... C's holds C's run ($uc2, expected $ec2)" fits "$uc2" "$ec2" "$cc"

	# 4. C ends (20 s after the release); P3, a period after P2b
	c_ends
	counted_past "$cw" $((PERIOD + 30))
	read -r c3 p3 <<<"$(counter)"
	check "4: the next pass P3 (pass $c3) began a period after P2b ($p3 - $p2b = $((p3 - p2b)) s)" \
		test $((p3 - p2b)) -ge $((PERIOD - 1)) -a $((p3 - p2b)) -le $((PERIOD + 5))
	check "4: C ended between P2b and P3 ($p2b < $c_end < $p3)" test "$c_end" -gt "$p2b" -a "$c_end" -lt "$p3"
	check "4: A and B ran through P3" running "$a_job" "$b_job"
	ua3=$(raw_usage b u1) ub3=$(raw_usage c u2) uc3=$(raw_usage e u4)
	say "busy-lock: the counter after the release (pass, its time, seen at): $(tr '\n' ';' <"$out/passes")"
	tail -n +"$((${m_rel#*:} + 1))" "$LOG" |
		grep -E 'mfprio: (cycle [0-9]+:|the decay pass overran|decay over)' | head -n 12 |
		sed "s/^/$test_name: logged: /"
else
	# P2: the pass that waited
	pass_after "$p1" 30
	p2=$(last_ran) p2_end=$(stamp)
	# (ours) the plugin's figures of that pass, written just after
	end=$((SECONDS + 10))
	until cp "$STATE/mfprio_stats" "$out/p2.stats" 2>/dev/null && [[ $(stat_of cycle_time) == "$p2" ]] ||
		[[ $PLUGIN != ours ]] || ((SECONDS > end)); do sleep 0.5; done
	waited=$((p2_end - p2))
	check "3: pass P2 began during the hold ($h0 <= $p2 < $rel)" test "$p2" -ge "$h0" -a "$p2" -lt "$rel"
	check "3: ... and was written after it ($p2_end >= $rel): it waited $waited s for the lock" \
		test "$p2_end" -ge "$rel" -a "$waited" -gt 5
	# right after P2: every job charged up to P2's time
	ua2=$(raw_usage b u1) ub2=$(raw_usage c u2) uc2=$(raw_usage e u4)
	ea2=$((ca * (p2 - a_start))) eb2=$((cb * (p2 - b_start))) ec2=$((cc * (p2 - c_start)))
	if [[ $PLUGIN == ours ]]; then
		check "3: the plugin's figures: P2's own time ($(stat_of cycle_time)), wall $(stat_of wall_ms) ms, longest hold of its own $(stat_of job_lock_longest_ms) ms" \
			awk -v t="$(stat_of cycle_time)" -v p="$p2" -v w="$(stat_of wall_ms)" \
			-v l="$(stat_of job_lock_longest_ms)" -v r="$rel" \
			'BEGIN { exit !(t == p && w >= (r - p - 1) * 1000 && l < 1000) }'
		check "3: after P2, A's association holds A's run to P2 ($ua2, expected $ea2)" fits "$ua2" "$ea2" "$ca"
		check "3: after P2, B's association holds B's run to P2 ($ub2, expected $eb2)" fits "$ub2" "$eb2" "$cb"
		check "3: after P2, C's association holds C's run to P2 ($uc2, expected $ec2)" fits "$uc2" "$ec2" "$cc"
	fi

	# 4. C ends; P3
	c_ends
	pass_after "$p2" $((PERIOD + 30))
	p3=$(last_ran)
	check "4: C ended between P2 and P3 ($p2_end < $c_end < $p3)" test "$c_end" -gt "$p2_end" -a "$c_end" -lt "$p3"
	check "4: A and B ran through P3" running "$a_job" "$b_job"
	ua3=$(raw_usage b u1) ub3=$(raw_usage c u2) uc3=$(raw_usage e u4)
fi

# 5. A and B end; a pass after
scancel "$a_job" "$b_job"
end=$((SECONDS + 60))
until [[ -z $(squeue -h -j "$a_job,$b_job" 2>/dev/null) ]] || ((SECONDS > end)); do sleep 1; done
check "5: A and B ended" test -z "$(squeue -h -j "$a_job,$b_job" 2>/dev/null)"
pass_after "$p3" $((PERIOD + 30))
p4=$(last_ran)
sleep 1
ua=$(raw_usage b u1) ub=$(raw_usage c u2) uc=$(raw_usage e u4)
wa=$(cpu_secs "$a_job") wb=$(cpu_secs "$b_job") wc=$(cpu_secs "$c_job")
others=$(sshare -n -P -a -o Account,User,RawUsage | tr -d ' ' |
	awk -F'|' '$2 != "" && !($1 "|" $2 ~ /^(b\|u1|c\|u2|e\|u4)$/) && $3 > 0 { printf "%s/%s=%s ", $1, $2, $3 }')
moved=$(tail -n +"$((${m0#*:} + 1))" "$LOG" | grep 'mfprio: slurmctld.s clock moved by')
if ((OVERRUN)); then
	say "busy-lock: overrun: plugin=$PLUGIN release=$SLURM_VERSION enforce=$enforce: lock held $h0..$rel ($((rel - h0)) s), P1 $p1 (pass $c1), $due due during the hold; $n passes in the $OBSERVE s after the release, the last (P2b) at $p2b (pass $cw); P3 $p3 (pass $c3, $((p3 - p2b)) s after P2b), P4 $p4"
	say "busy-lock: 15 s after the release (to $tu): A $ua2 (expected $ea2), B $ub2 ($eb2), C $uc2 ($ec2); C's end $c_end: e/u4 $uc4; after P3: A $ua3, B $ub3, C $uc3"
else
	say "busy-lock: plugin=$PLUGIN release=$SLURM_VERSION enforce=$enforce: lock held $h0..$rel ($((rel - h0)) s), P1 $p1, P2 $p2 written $p2_end (waited $waited s), P3 $p3, P4 $p4"
	say "busy-lock: after P2 (to $p2): A $ua2 (expected $ea2), B $ub2 ($eb2), C $uc2 ($ec2); C's end $c_end: e/u4 $uc4; after P3: A $ua3, B $ub3, C $uc3"
fi
say "busy-lock: at the end: A usage $ua sacct $wa ($((ua - wa))), B usage $ub sacct $wb ($((ub - wb))), C usage $uc sacct $wc ($((uc - wc))); other associations: ${others:-none}"
[[ -n $moved ]] && printf '%s\n' "$moved" | sed "s/^/$test_name: logged: /"
check "5: sacct has the three jobs' CPU-seconds ($wa, $wb, $wc)" test "$wa" -gt 0 -a "$wb" -gt 0 -a "$wc" -gt 0
if [[ $PLUGIN == ours ]]; then
	check "5: A's association holds A's CPU-seconds ($ua, sacct $wa)" fits "$ua" "$wa" "$ca"
	check "5: B's association holds B's CPU-seconds ($ub, sacct $wb)" fits "$ub" "$wb" "$cb"
	check "5: C's association holds C's CPU-seconds ($uc, sacct $wc)" fits "$uc" "$wc" "$cc"
	check "5: no other association holds usage (${others:-none})" test -z "$others"
	check "5: the wait was not taken for a step of the clock (no 'clock moved' logged)" test -z "$moved"
fi
check "5: the controller runs" ctld_alive
finish

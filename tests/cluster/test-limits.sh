#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-limits.sh: the usage limits are enforced on are the plugin's figures
# (each TRES's decayed usage for GrpTRESMins, each TRES's reserved run time
# for GrpTRESRunMins); jobs run into those limits under upstream's plugin
# and under ours, each from a fresh cluster, and are held at the same point
# for the same reason.
#
#   GrpTRESRunMins first (below), then GrpTRESMins=cpu=2 on account c
#   (120 CPU-seconds): 2-CPU jobs of 25 s
#   (50 CPU-seconds) of u2, one after the other; the first two leave 100,
#   under the limit, the third takes it past: the fourth is held
#   (AssocGrpCPUMinutesLimit) and stays held.  Same job, same reason, and
#   GrpTRESRaw's cpu (whole minutes) to 2% and RawUsage to 5% (each job's
#   length differs by a second or two).
#
#   GrpTRESRunMins=cpu=5 on account e: a 1-CPU job X of u4 with a 4-minute
#   limit runs (4 CPU-minutes reserved); a 1-CPU job Y with a 2-minute limit
#   would make 6: it is held (AssocGrpCPURunMinutesLimit) with TRESRunMins
#   cpu=4 (sshare); each decay tick gives back what X used, so Y starts
#   while X still runs, after a tick that came after X started (seen: 46
#   to 76 s after X, PriorityCalcPeriod 1 minute, both plugins).  (Run
#   after the GrpTRESMins jobs, the same job Y was seen to start at once
#   under either plugin, three times out of four: whatever slurmctld does
#   then, it is not the plugin's figure, which was the same.)
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

reason() { squeue -h -j "$1" -o %r 2>/dev/null; }
state() { squeue -h -j "$1" -o %T 2>/dev/null; }
# sshare_field ACCOUNT USER COLUMN
sshare_field() {
	sshare -n -P -a -o "Account,User,$3" | tr -d ' ' |
		awk -F'|' -v a="$1" -v u="$2" '$1 == a && $2 == u { print $3 }'
}
cpu_of() { sed -n 's/.*cpu=\([0-9.]*\).*/\1/p' <<<"$1"; }

# limit_shown ACCOUNT TEXT: slurmctld's record of ACCOUNT shows TEXT
limit_shown() {
	scontrol show assoc_mgr flags=assoc accounts="$1" 2>/dev/null |
		grep -A9 "Account=$1 UserName= " | grep -qF -- "$2"
}
# wait_for WHAT CMD...: CMD true within 60 s, else a failed check
wait_for() {
	local what=$1 end=$((SECONDS + 60))
	shift
	until "$@"; do
		((SECONDS < end)) || { not_ok "$what: not within 60 s"; return 1; }
		sleep 1
	done
}

# run_plugin WHICH: the two cases on a fresh cluster; writes OUT/WHICH.*
run_plugin() {
	local w=$1 i id held="" t0 x y xs ys tick
	use_plugin "$w"
	start_cluster "$here/priority-default.conf"
	if [[ $w == ours ]]; then
		check "$w: our plugin is loaded" loaded_is "$plugin_so"
	else
		check "$w: upstream's plugin is loaded" loaded_is "$UPSTREAM_SO"
	fi
	sacctmgr -i modify account where name=c set GrpTRESMins=cpu=2 >/dev/null
	sacctmgr -i modify account where name=e set GrpTRESRunMins=cpu=5 >/dev/null
	# slurmctld has the limits once slurmdbd has sent them
	wait_for "$w: slurmctld has e's GrpTRESRunMins" limit_shown e "GrpTRESRunMins=cpu=5("
	wait_for "$w: slurmctld has c's GrpTRESMins" limit_shown c "GrpTRESMins=cpu=2("

	x=$(sbatch --parsable --uid=u4 -A e -n 1 -t 4 -D /tmp -o /dev/null --wrap 'sleep 230')
	t0=$SECONDS
	until [[ $(state "$x") == RUNNING ]] || ((SECONDS > t0 + 30)); do sleep 1; done
	xs=$(date +%s)
	wait_for "$w: X's 4 CPU-minutes are reserved" limit_shown e "GrpTRESRunMins=cpu=5(4)"
	y=$(sbatch --parsable --uid=u4 -A e -n 1 -t 2 -D /tmp -o /dev/null --wrap 'sleep 5')
	sleep 5
	echo "$(state "$y") $(reason "$y") $(cpu_of "$(sshare_field e u4 TRESRunMins)")" >"$out/$w.run"
	until [[ $(state "$y") == RUNNING || -z $(state "$y") ]] || ((SECONDS > t0 + 200)); do sleep 1; done
	ys=$(date +%s)
	# the last decay tick before Y started (the plugin's stamp, written
	# at each tick by upstream's plugin and by ours)
	tick=$(stat -c %Y "$STATE/priority_last_decay_ran" 2>/dev/null || echo 0)
	echo "$(state "$y") $(state "$x") $((ys - xs)) $((tick - xs)) $((ys - tick))" >"$out/$w.run2"
	say "$w: GrpTRESRunMins: Y at submit: $(cat "$out/$w.run"); then: $(cat "$out/$w.run2")"
	scancel "$x" "$y" 2>/dev/null
	t0=$SECONDS
	until [[ -z $(squeue -h) ]] || ((SECONDS > t0 + 30)); do sleep 1; done

	for i in 1 2 3 4; do
		id=$(sbatch --parsable --uid=u2 -A c -n 2 -D /tmp -o /dev/null --wrap 'sleep 25')
		t0=$SECONDS
		until [[ $(state "$id") == RUNNING || -z $(state "$id") ]] || ((SECONDS > t0 + 20)); do sleep 1; done
		if [[ $(state "$id") == PENDING ]]; then
			held="$i $(reason "$id")"
			scancel "$id"
			break
		fi
		until [[ -z $(state "$id") ]] || ((SECONDS > t0 + 90)); do sleep 1; done
		sleep 1
	done
	echo "${held:-none}" >"$out/$w.mins"
	sshare_field c u2 GrpTRESRaw >"$out/$w.raw"
	sshare_field c u2 RawUsage >"$out/$w.rawusage"
	say "$w: GrpTRESMins: held ${held:-none}; c/u2 GrpTRESRaw $(cat "$out/$w.raw")"
}

run_plugin upstream
run_plugin ours

read -r un ur <"$out/upstream.mins"
read -r on or <"$out/ours.mins"
check "GrpTRESMins: upstream's plugin holds job $un for $ur" \
	test "$un" == 4 -a "$ur" == AssocGrpCPUMinutesLimit
check "GrpTRESMins: ours holds the same job for the same reason ($on $or)" \
	test "$on" == "$un" -a "$or" == "$ur"
ucpu=$(cpu_of "$(cat "$out/upstream.raw")")
ocpu=$(cpu_of "$(cat "$out/ours.raw")")
check "GrpTRESMins: c/u2's GrpTRESRaw cpu, upstream $ucpu, ours $ocpu, within 2%" \
	awk -v a="${ucpu:-0}" -v b="${ocpu:--1}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a * 0.02) }'
# GrpTRESRaw is in whole minutes: RawUsage, in CPU-seconds, is the finer
uraw=$(cat "$out/upstream.rawusage")
oraw=$(cat "$out/ours.rawusage")
check "GrpTRESMins: c/u2's RawUsage, upstream $uraw, ours $oraw, within 5%" \
	awk -v a="${uraw:-0}" -v b="${oraw:--1}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a * 0.05) }'
read -r us ur uc <"$out/upstream.run"
read -r os or oc <"$out/ours.run"
check "GrpTRESRunMins: upstream holds Y at submit ($us $ur), TRESRunMins cpu $uc" \
	test "$us" == PENDING -a "$ur" == AssocGrpCPURunMinutesLimit
# X's reserved CPU-minutes are there to compare (two empty cells would be
# "equal"): a whole number above 0 on both sides
check "GrpTRESRunMins: upstream's TRESRunMins cpu at Y's submit is X's reservation ($uc)" \
	grep -qE '^[1-9][0-9]*$' <<<"$uc"
check "GrpTRESRunMins: ours holds Y the same ($os $or), TRESRunMins cpu $oc, as upstream's $uc" \
	test "$os" == "$us" -a "$or" == "$ur" -a "$oc" == "$uc"
# Y starts once a tick has given back what X used: a tick came after X
# started, and Y started after it, while X runs (without that tick Y would
# wait for X's end), within 90 s of it: nothing wakes slurmctld's scheduler
# when a tick lowers TRESRunMins, so Y waits for its periodic pass
# (sched_interval, 60 s by default; seen 0 to 31 s)
read -r uy ux ut utk uty <"$out/upstream.run2"
read -r oy ox ot otk oty <"$out/ours.run2"
check "GrpTRESRunMins: under upstream Y starts while X runs, after a tick ($uy, X $ux, ${ut}s after X, tick ${utk}s after X, Y ${uty}s after the tick)" \
	test "$uy" == RUNNING -a "$ux" == RUNNING -a "$utk" -gt 0 -a "$uty" -ge 0 -a "$uty" -le 90
check "GrpTRESRunMins: under ours too ($oy, X $ox, ${ot}s after X, tick ${otk}s after X, Y ${oty}s after the tick)" \
	test "$oy" == RUNNING -a "$ox" == RUNNING -a "$otk" -gt 0 -a "$oty" -ge 0 -a "$oty" -le 90
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-conf-garbage.sh: garbage in the priority settings of slurm.conf, on a
# live 22.05 slurmctld, with our plugin and with upstream's; each row of
# doc/config-errors.md's slurmctld columns is asserted here.
#
# 1. Values slurmctld's own parser refuses: it does not start, whatever the
#    plugin (slurmctld -D on the bad file; its message is checked); through
#    `scontrol reconfigure` the command itself refuses and the controller
#    keeps running its settings.
# 2. Values slurmctld accepts and passes on (several per reconfigure): our
#    plugin logs one error line per bad key naming key, value and what it
#    uses, slurmctld stays the same process, answers, and sprio/squeue show
#    no NaN, negative or wrapped figure; at a restart the same.
# 3. Upstream's plugin on the same values: a bad PriorityWeightTRES ends
#    slurmctld at start and at reconfigure.
# 4. SIGHUP with a refused value: slurmctld ends (Slurm's own behaviour).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

ETC=$DIR/etc
# set_conf KEY=VALUE...: the default settings with these in place of their
# keys, written at once (clients read the file too)
set_conf() {
	local drop=() kv
	for kv in "$@"; do drop+=(-e "^${kv%%=*}="); done
	{
		if ((${#drop[@]})); then grep -v "${drop[@]}" "$here/priority-default.conf"
		else cat "$here/priority-default.conf"; fi
		printf '%s\n' "$@"
	} >"$ETC/priority.conf.new"
	chmod 644 "$ETC/priority.conf.new"
	mv -f "$ETC/priority.conf.new" "$ETC/priority.conf"
}

# reconf LABEL: scontrol reconfigure, then a second for the reply
reconf() {
	scontrol reconfigure >"$out/$1.reconf" 2>&1 || { say "$1: reconfigure failed: $(cat "$out/$1.reconf")"; return 1; }
	sleep 2
}

# sane LABEL: sprio -l answers with every pending job, and neither sprio nor
# squeue's priority shows NaN, inf, a negative or a wrapped (0) figure
# (sprio sums the weighted factors itself, in floating point: its PRIORITY
# may exceed 4294967295; the job's own priority, squeue's %Q, may not)
sane() {
	sprio -l >"$out/$1.sprio" 2>"$out/$1.sprio.err" || return 1
	squeue -h -t PD -o '%i %Q' >"$out/$1.squeue" 2>"$out/$1.squeue.err" || return 1
	[[ $(awk 'NR > 1' "$out/$1.sprio" | wc -l) -ge 3 ]] || return 1
	! grep -qiE 'nan|inf|-[0-9]' "$out/$1.sprio" || return 1
	awk '$2 !~ /^[0-9]+$/ || $2 < 1 || $2 > 4294967295 { b = 1 } END { exit b }' "$out/$1.squeue"
}

# logged MARK TEXT: TEXT (fixed string) in the slurmctld log after MARK
logged() { log_has "$1" "$(printf '%s' "$2" | sed 's/[][\.*^$+?(){}|]/\\&/g')"; }

# count_logged MARK TEXT: how many times
count_logged() {
	local ino=${1%%:*} n=${1#*:}
	[[ $(stat -c %i "$LOG" 2>/dev/null || echo 0) == "$ino" ]] || n=0
	tail -n +"$((n + 1))" "$LOG" | grep -cF -- "$2"
}

same_ctld() { [[ $(ctld_pid) == "$1" ]] && ctld_alive; }

use_plugin ours
start_cluster "$here/priority-default.conf" 0
check "our plugin is loaded" loaded_is "$plugin_dir/priority_multifactor.so"
# pending jobs: the node drained, three jobs wait (one in each partition,
# one in both)
drain mfprio-conf-garbage
jobs=("$(sub --uid=u1 -A b -p debug)" "$(sub --uid=u2 -A c -p big)" "$(sub --uid=u4 -A e -p debug,big)")
for _ in $(seq 60); do
	[[ $(sprio -h | wc -l) -ge 4 ]] && break
	sleep 1
done
check "sprio lists the pending jobs" sane start
pid0=$(ctld_pid)

# 2. accepted by slurmctld, checked by our plugin
TRES_UNKNOWN="PriorityWeightTRES=CPU=500,GRES/nosuch=100"
B1=(PriorityWeightPartition=4294967295 PriorityWeightQOS=4294967295
	FairShareDampeningFactor=0 PriorityDecayHalfLife=0 "$TRES_UNKNOWN"
	PriorityFlags=NO_FAIR_TREE,BOGUS)
# the weights: Age 1000 + Assoc 0 + Fairshare 10000 + JobSize 1000 +
# Partition 4294967295 + QOS 4294967295 = 8589946590
L_SUM="mfprio: the PriorityWeight* settings add up to 8589946590, more than 4294967295: high priorities will be clamped"
L_DAMP="mfprio: FairShareDampeningFactor=0: 0 would divide by zero; using 1"
L_HL="mfprio: PriorityDecayHalfLife=0: with no decay and no PriorityUsageResetPeriod usage only grows; going on"
L_TRES="mfprio: $TRES_UNKNOWN: TRES weight 'GRES/nosuch=100': 'gres/nosuch' is not a configured TRES; no TRES weights used"
m=$(log_mark)
set_conf "${B1[@]}"
check "ours, reconfigure with six bad keys: accepted" reconf b1
check "ours: slurmctld is the same process and answers" same_ctld "$pid0"
check "ours: slurmctld's own line on the weights" logged "$m" "PriorityWeight values too high, job priority value may overflow"
for l in "$L_SUM" "$L_DAMP" "$L_HL" "$L_TRES"; do
	check "ours: logged once: $l" test "$(count_logged "$m" "$l")" -eq 1
done
check "ours: sprio and squeue sane with weights over 2^32" sane b1
check "slurmctld drops PriorityFlags' unknown word without a word" log_lacks "$m" BOGUS
check "ours: PriorityFlags' unknown word never reaches the plugin (fair-share classic)" \
	logged "$m" "fair-share algorithm fair_tree -> classic"

m=$(log_mark)
set_conf PriorityWeightTRES=CPU=abc PriorityDecayHalfLife=-1 PriorityMaxAge=1-99:99:99
check "ours, reconfigure with a non-numeric TRES weight: accepted" reconf b2
check "ours: logged: PriorityWeightTRES=CPU=abc" \
	logged "$m" "mfprio: PriorityWeightTRES=CPU=abc: TRES weight 'CPU=abc': 'abc' is not a number; no TRES weights used"
check "slurmctld converts PriorityDecayHalfLife=-1 to 49710-06:27:16" \
	bash -c "scontrol show config | grep -qE '^PriorityDecayHalfLife *= 49710-06:27:16'"
check "slurmctld converts PriorityMaxAge=1-99:99:99 to 5-04:41:00" \
	bash -c "scontrol show config | grep -qE '^PriorityMaxAge *= 5-04:41:00'"
check "ours: sane after b2" sane b2

m=$(log_mark)
set_conf PriorityWeightTRES=CPU=-5
check "ours, reconfigure with a negative TRES weight: accepted" reconf b3
check "ours: logged once: PriorityWeightTRES=CPU=-5" test "$(count_logged "$m" \
	"mfprio: PriorityWeightTRES=CPU=-5: the weight of cpu is negative; no TRES weights used")" -eq 1
m=$(log_mark)
set_conf PriorityWeightTRES=CPU
check "ours, reconfigure with a TRES weight without '=': accepted" reconf b4
check "ours: logged: PriorityWeightTRES=CPU" logged "$m" \
	"mfprio: PriorityWeightTRES=CPU: TRES weight entry 'CPU' is not TYPE=VALUE; no TRES weights used"
check "ours: slurmctld is still the same process after four reconfigures" same_ctld "$pid0"
check "ours: sane after b4" sane b4

# 1b. a value the parser refuses, through scontrol reconfigure
set_conf PriorityWeightAge=abc
scontrol reconfigure >"$out/refused.reconf" 2>&1
rc=$?
check "scontrol reconfigure with PriorityWeightAge=abc refuses (rc $rc)" \
	bash -c "[[ $rc -ne 0 ]] && grep -qF 'PriorityWeightAge value (abc) is not a valid number' '$out/refused.reconf'"
set_conf
check "slurmctld kept running its settings" same_ctld "$pid0"

# at a restart, the same lines (the start path)
m=$(log_mark)
set_conf "${B1[@]}"
check "ours: slurmctld restarts with the six bad keys" restart_ctld r1
for l in "$L_SUM" "$L_DAMP" "$L_HL" "$L_TRES"; do
	check "ours at start: logged once: $l" test "$(count_logged "$m" "$l")" -eq 1
done
check "ours: sane after the restart" sane r1
# the jobs' priorities are set anew by the first pass after the start: the
# job in partition big (PriorityJobFactor 20, the highest: factor 1) has
# Partition 4294967295 x 1 alone, so its sum is above 2^32: clamped to the
# top, not wrapped
check "ours: the job in big is at 4294967295, not wrapped" \
	test "$(squeue -h -j "${jobs[1]}" -o %Q 2>/dev/null)" = 4294967295

# 3. upstream's plugin
use_plugin upstream
m=$(log_mark)
set_conf "${B1[@]:0:4}" PriorityFlags=NO_FAIR_TREE,BOGUS PriorityWeightTRES=CPU=-5
check "upstream: restarts with four of those keys and a negative TRES weight" restart_ctld u1
check "upstream's plugin is loaded" loaded_is "$UPSTREAM_SO"
check "upstream: no line of its own on them" log_lacks "$m" "FairShareDampeningFactor|PriorityDecayHalfLife|CPU=-5"
check "upstream: sprio answers" bash -c "sprio -l >'$out/u1.sprio' 2>/dev/null"
pid1=$(ctld_pid)
m=$(log_mark)
set_conf "$TRES_UNKNOWN"
scontrol reconfigure >"$out/u2.reconf" 2>&1
for _ in $(seq 20); do kill -0 "$pid1" 2>/dev/null || break; sleep 0.5; done
check "upstream: reconfigure with an unknown TRES weight ends slurmctld" \
	bash -c "! kill -0 $pid1 2>/dev/null"
check "upstream: its message" logged "$m" "fatal: failed to parse tres weights str 'CPU=500,GRES/nosuch=100'"

# 1. refused by slurmctld's parser: slurmctld -D on each (it stops at once);
# the plugin is not loaded yet, so this is the same for both
stop_ctld
# refused SETTING MESSAGE [SLURM.CONF]: slurmctld -D exits non-zero with
# MESSAGE on stderr within 20 s
refused() {
	local conf=${3:-$SLURM_CONF} p rc
	# a TRESBillingWeights case is in CONF, with the default settings
	if [[ $1 == TRESBillingWeights=* ]]; then set_conf; else set_conf "$1"; fi
	env SLURM_CONF="$conf" "$SLURM_SBIN/slurmctld" -D -f "$conf" </dev/null >"$out/refused.err" 2>&1 &
	p=$!
	for _ in $(seq 80); do kill -0 "$p" 2>/dev/null || break; sleep 0.25; done
	if kill -0 "$p" 2>/dev/null; then
		kill "$p"; wait "$p"
		not_ok "slurmctld refuses $1: it started"
		return
	fi
	wait "$p"
	rc=$?
	if ((rc != 0)) && grep -qF -- "$2" "$out/refused.err"; then
		ok "slurmctld refuses to start on $1: $2"
	else
		not_ok "slurmctld refuses to start on $1 with '$2' (rc $rc): $(grep -E 'error|fatal' "$out/refused.err" | head -3)"
	fi
}
for k in Age Assoc Fairshare JobSize Partition QOS; do
	refused "PriorityWeight$k=-1" "PriorityWeight$k value (-1) is less than zero"
	refused "PriorityWeight$k=4294967296" "PriorityWeight$k value (4294967296) is greater than 4294967295"
	refused "PriorityWeight$k=12x" "PriorityWeight$k value (12x) is not a valid number"
	refused "PriorityWeight$k=" "\"PriorityWeight$k=\""
done
for k in PriorityMaxAge PriorityDecayHalfLife PriorityCalcPeriod; do
	refused "$k=abc" "Bad value \"abc\" for $k"
	refused "$k=" "\"$k=\""
done
refused PriorityMaxAge=-5 'Bad value "-5" for PriorityMaxAge'
refused PriorityCalcPeriod=0 'Bad value "0" for PriorityCalcPeriod'
refused PriorityCalcPeriod=-3 'Bad value "-3" for PriorityCalcPeriod'
refused PriorityCalcPeriod=99999999999 'Bad value "99999999999" for PriorityCalcPeriod'
refused PriorityUsageResetPeriod=FORTNIGHTLY 'Bad value "FORTNIGHTLY" for PriorityUsageResetPeriod'
refused PriorityUsageResetPeriod= '"PriorityUsageResetPeriod="'
refused PriorityFavorSmall=maybe '"maybe" is not a valid option for "PriorityFavorSmall"'
refused PriorityFavorSmall= '"PriorityFavorSmall="'
refused PriorityFlags= '"PriorityFlags="'
refused FairShareDampeningFactor=-1 'FairShareDampeningFactor value (-1) is less than zero'
refused FairShareDampeningFactor=70000 'FairShareDampeningFactor value (70000) is greater than 65535'
refused FairShareDampeningFactor=abc 'FairShareDampeningFactor value "abc" is not a valid number'
refused PriorityWeightTRES= '"PriorityWeightTRES="'
# upstream's plugin refuses a bad PriorityWeightTRES at start
refused "$TRES_UNKNOWN" "fatal: failed to parse tres weights str 'CPU=500,GRES/nosuch=100'"
refused PriorityWeightTRES=CPU=abc "fatal: failed to parse tres weights str 'CPU=abc'"
refused PriorityWeightTRES=CPU "fatal: failed to parse tres weights str 'CPU'"
# TRESBillingWeights of a partition (slurm.conf's PartitionName line)
for w in CPU=abc GRES/nosuch=1 CPU; do
	sed "s|^PartitionName=debug .*|& TRESBillingWeights=$w|" "$SLURM_CONF" >"$ETC/slurm-bad.conf"
	chmod 644 "$ETC/slurm-bad.conf"
	refused "TRESBillingWeights=$w" "failed to parse tres weights str '$w'" "$ETC/slurm-bad.conf"
done
rm -f "$ETC/slurm-bad.conf"

# 4. SIGHUP with a refused value: Slurm's own reconfigure ends slurmctld
use_plugin ours
set_conf
check "ours: slurmctld starts again" restart_ctld r2
pid2=$(ctld_pid)
m=$(log_mark)
set_conf PriorityWeightAge=abc
kill -HUP "$pid2"
for _ in $(seq 20); do kill -0 "$pid2" 2>/dev/null || break; sleep 0.5; done
check "SIGHUP with PriorityWeightAge=abc: slurmctld ends (Slurm's parser)" \
	bash -c "! kill -0 $pid2 2>/dev/null"
check "its message" logged "$m" "fatal: Unable to process configuration file"
set_conf
finish

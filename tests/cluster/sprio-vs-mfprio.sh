#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sprio-vs-mfprio.sh: `mfprio priority` on dumps of a real cluster against
# that cluster's live `sprio -l`.  Exits 0 when every row matches, 1 on any
# difference (each one shown), 2 when the cluster could not be set up; ends
# with "N passed, M failed" (the comparisons), as the release matrix wants.
#
# Usage: sprio-vs-mfprio.sh [--save DIR] [--keep] [--quick]
#   --save DIR   also copy the dumps (slurm.conf, priority.conf, jobs, qos,
#                assoc, assoc-prio, usage, now, sprio, sprio-P) of each
#                variant V to DIR/V as fixtures
#   --keep       leave the cluster running (default: stop it at the end)
#   --quick      the default settings only, not the flag variants
#
# Variants (PriorityFlags and settings added to the default ones; slurmctld
# is restarted for each, on the same jobs and usage):
#   fairtree   the defaults: Fair Tree, every weight, TRES weights
#   classic    NO_FAIR_TREE,NO_NORMAL_ALL, PriorityFavorSmall=YES
#   oblivious  DEPTH_OBLIVIOUS,SMALL_RELATIVE_TO_TIME,ACCRUE_ALWAYS,MAX_TRES,
#              FairShareDampeningFactor=3
# Each variant is compared twice: `sprio -l` (whose TRES column is cut at
# 20 characters) against `mfprio priority`, and sprio with every column in
# full, '|'-separated, against `mfprio priority -P`.
#
# It starts the cluster (tests/cluster/cluster.sh) with a priority.conf of
# its own: every weight non-zero, TRES weights with a unit and a license,
# a third partition with another tier and TRESBillingWeights; adds QOS with
# priorities and association priorities; runs short jobs for usage; drains
# the node and submits pending jobs of every kind (one or several
# partitions, QOS, nice, memory, licenses, time limits, a dependency, a
# future begin time, a held job); waits for a priority calculation; dumps
#   scontrol -o show job, sacctmgr ... qos / assoc, scontrol show assoc_mgr
# (usage with two decimals: sshare rounds RawUsage to whole numbers) and
# sprio -l, checking that no calculation ran between the dumps; and runs
# mfprio priority --now <time of that calculation> on them.
#
# Environment: MFPRIO (the mfprio binary; default the build tree's),
# MFPRIO_PLUGIN_DIR (to test our plugin instead of upstream's; passed to
# cluster.sh), MFPRIO_CLUSTER_INSTANCE, MFPRIO_CLUSTER_DIR,
# MFPRIO_SLURM_PREFIX (which cluster and Slurm release: instance.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
MFPRIO=${MFPRIO:-$top/mfprio}
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
NODE=$(hostname -s)
save=""
keep=0
quick=0

while [[ $# -gt 0 ]]; do
	case $1 in
	--save) save=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--quick) quick=1; shift ;;
	*) echo "usage: $0 [--save DIR] [--keep] [--quick]" >&2; exit 2 ;;
	esac
done

say_name=sprio-vs-mfprio die_status=2
# shellcheck source=say-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/say-lib.sh"

[[ -x $MFPRIO ]] || die "no mfprio at $MFPRIO (build first, or set MFPRIO)"

# The cluster is shared: hold its lock for the whole run.
if [[ -r $here/cluster-lock.sh ]]; then
	# shellcheck source=cluster-lock.sh
	. "$here/cluster-lock.sh"
	cluster_lock sprio-vs-mfprio
else
	exec 9>>"$CLUSTER_LOCK"
	flock -w 1800 9 || die "cannot take $CLUSTER_LOCK"
fi

work=$(mktemp -d /tmp/sprio-vs-mfprio-XXXXXX)
chmod 755 "$work"
ids=()

cleanup() {
	local rc=$?
	if [[ ${#ids[@]} -gt 0 ]]; then
		scancel "${ids[@]}" 2>/dev/null || true
	fi
	scontrol update nodename="$NODE" state=resume 2>/dev/null || true
	if [[ $keep == 0 ]]; then
		"$here/cluster.sh" stop >/dev/null 2>&1 || true
	fi
	say "work files in $work"
	exit "$rc"
}
trap cleanup EXIT

# ------------------------------------------------------------ settings
cat >"$work/priority.conf" <<EOF
# Written by sprio-vs-mfprio.sh
AccountingStorageTRES=license/matlab
Licenses=matlab:4
PriorityDecayHalfLife=7-0
PriorityMaxAge=1-0
PriorityUsageResetPeriod=NONE
PriorityWeightAge=100000
PriorityWeightAssoc=1000
PriorityWeightFairshare=10000
PriorityWeightJobSize=1000
PriorityWeightPartition=2000
PriorityWeightQOS=3000
PriorityWeightTRES=CPU=500,Mem=1000G,License/matlab=700,Node=50
PartitionName=prio3 Nodes=$NODE PriorityJobFactor=5 PriorityTier=2 TRESBillingWeights=CPU=1000,Mem=0.5G MaxTime=2:00:00 State=UP
EOF

say "starting the cluster"
# fresh: the state and accounting of an earlier test on this instance (a
# job left running there would go on charging its user between the dumps)
MFPRIO_PRIORITY_CONF=$work/priority.conf MFPRIO_CLUSTER_FRESH=1 \
	"$here/cluster.sh" start >/dev/null 9>&- ||
	die "cluster.sh start failed"
"$here/cluster.sh" accounts "$here/layout-basic.txt" >/dev/null ||
	die "cluster.sh accounts failed"

say "QOS and association priorities"
for q in high:100 low:10; do
	sacctmgr -i add qos "${q%%:*}" >/dev/null 2>&1 || true
	sacctmgr -i modify qos where name="${q%%:*}" set priority="${q##*:}" >/dev/null
done
for u in u1 u2 u3 u4 u5 u6 u7; do
	sacctmgr -i modify user where name="$u" cluster="$CLUSTER_NAME" set qos+=high,low >/dev/null 2>&1 || true
done
sacctmgr -i modify user where name=u1 account=b cluster="$CLUSTER_NAME" set priority=10 >/dev/null
sacctmgr -i modify user where name=u5 account=f cluster="$CLUSTER_NAME" set priority=40 >/dev/null
# slurmctld picks up association changes as slurmdbd pushes them
sleep 2

# Usage is charged in billing units: in prio3 a CPU-second bills 1000, so
# that the two decimals of `scontrol show assoc_mgr` are 1e-7 of it (classic
# fair-share is continuous in usage; Fair Tree only ranks).
say "running jobs for usage"
"$here/run-jobs.sh" u1:b:12:2:prio3 u2:c:6:1:prio3 u4:e:9:1:prio3 \
	u5:f:3::big >/dev/null ||
	die "run-jobs.sh failed"

# ------------------------------------------------------------ pending jobs
say "draining $NODE and submitting pending jobs"
scontrol update nodename="$NODE" state=drain reason=sprio-vs-mfprio
# submit ARGS: one pending job; its id kept in ids (for the clean-up) and
# in last_id.  Not called in a subshell, so that ids keeps every job.
submit() {
	local out
	out=$(sbatch --parsable -D /tmp -o /dev/null --wrap 'sleep 30' "$@") ||
		die "sbatch $* failed"
	last_id=${out%%;*}
	ids+=("$last_id")
}
submit --uid=u1 -A b -p debug -q high -J v1
first=$last_id
submit --uid=u1 -A b -p big -q low --mem=500 -J v2
submit --uid=u2 -A c -p debug,big -n 2 -J v3
submit --uid=u3 -A c -p prio3,debug -t 30 -L matlab:2 -J v4
submit --uid=u4 -A e -p debug --nice=100 -J v5
submit --uid=u5 -A f -p big -n 2 --mem=1000 -t 10 -J v6
submit --uid=u6 -A b -p prio3 -q high -J v7
submit --uid=u7 -A z -p debug,big,prio3 -L matlab:1 -J v8
submit --uid=u4 -A e -p debug --dependency=afterok:"$first" -J v9
submit --uid=u5 -A f -p debug --begin=now+1hour -J v10
submit --uid=u2 -A c -p debug --hold -J v11
submit --uid=u3 -A c -p big -q low --nice=-50 -t 1-0 -J v12
submitted=$(date +%s)


# ------------------------------------------------------------ dumps
SPRIO_P='%i|%r|%u|%Y|%S|%A|%B|%F|%J|%P|%Q|%N|%T'
dump() {
	local d=$1
	scontrol -o show job >"$d/jobs"
	sacctmgr -P -n show qos format=Name,Priority >"$d/qos"
	sacctmgr -P -n show assoc where cluster="$CLUSTER_NAME" \
		format=Account,User,ParentName,Fairshare >"$d/assoc"
	sacctmgr -P -n show assoc where cluster="$CLUSTER_NAME" \
		format=Account,User,Priority >"$d/assoc-prio"
	scontrol -o show assoc_mgr flags=assoc |
		sed -n 's/.* Account=\([^ ]*\) UserName=\([^( ]*\)[^ ]* .*UsageRaw\/Norm\/Efctv=\([0-9.]*\)\/.*/\1|\2|\3/p' \
			>"$d/usage"
	sprio -l >"$d/sprio"
	sprio -o "$SPRIO_P" >"$d/sprio-P"
}

failed=0 compared=0
# check VARIANT: wait for a calculation after $since, dump, compare.
check() {
	local v=$1 d=$work/$1 before after try end
	mkdir -p "$d"
	say "$v: waiting for a priority calculation"
	end=$((SECONDS + 150))
	until (($(last_ran) > since)); do
		((SECONDS < end)) || die "$v: no priority calculation within 150s"
		sleep 2
	done
	if [[ ${2:-} == settle ]]; then
		# After a restart the first calculation runs at once, before the
		# scheduler's first pass (accrue times, assoc usage are still
		# settling): compare at the next one.
		since=$(last_ran)
		say "$v: and for the next one"
		end=$((SECONDS + 150))
		until (($(last_ran) > since)); do
			((SECONDS < end)) || die "$v: no second calculation within 150s"
			sleep 2
		done
	fi
	for try in 1 2 3; do
		before=$(last_ran)
		dump "$d"
		after=$(last_ran)
		[[ $before == "$after" ]] && break
		say "$v: a calculation ran during the dumps; again"
		[[ $try == 3 ]] && die "$v: could not dump between two calculations"
	done
	echo "$before" >"$d/now"
	sed "s|^Include .*priority.conf|Include priority.conf|" "$SLURM_CONF" >"$d/slurm.conf"
	cp "$DIR/etc/priority.conf" "$d/priority.conf"

	say "$v: mfprio priority --now $before"
	for mode in "" -P; do
		"$MFPRIO" priority --conf "$d/slurm.conf" --jobs "$d/jobs" \
			--qos "$d/qos" --assoc "$d/assoc" --usage "$d/usage" \
			--assoc-prio "$d/assoc-prio" --now "$before" $mode \
			>"$d/mfprio$mode" 2>"$d/mfprio.err" || {
			cat "$d/mfprio.err" >&2
			die "$v: mfprio priority failed"
		}
	done
	if [[ -n $save ]]; then
		mkdir -p "$save/$v"
		for f in slurm.conf priority.conf jobs qos assoc assoc-prio usage now sprio sprio-P; do
			cp "$d/$f" "$save/$v/$f"
		done
	fi
	compared=$((compared + 2))
	printf '%s sprio -l:      ' "$v"
	"$here/../cli/compare-sprio.sh" "$d/sprio" "$d/mfprio" || failed=$((failed + 1))
	printf '%s sprio (full):  ' "$v"
	"$here/../cli/compare-sprio.sh" "$d/sprio-P" "$d/mfprio-P" || failed=$((failed + 1))
}

since=$submitted
check fairtree

variant_lines() {
	case $1 in
	classic) printf '%s\n' "PriorityFlags=NO_FAIR_TREE,NO_NORMAL_ALL" \
		"PriorityFavorSmall=YES" ;;
	oblivious) printf '%s\n' \
		"PriorityFlags=DEPTH_OBLIVIOUS,SMALL_RELATIVE_TO_TIME,ACCRUE_ALWAYS,MAX_TRES" \
		"FairShareDampeningFactor=3" ;;
	esac
}
if [[ $quick == 0 ]]; then
	for v in classic oblivious; do
		{
			cat "$work/priority.conf"
			variant_lines "$v"
		} >"$DIR/etc/priority.conf"
		since=$(date +%s)
		say "$v: restarting slurmctld"
		MFPRIO_PRIORITY_CONF="" "$here/cluster.sh" restart-ctld >/dev/null 9>&- ||
			die "$v: cluster.sh restart-ctld failed"
		check "$v" settle
	done
fi
[[ -z $save ]] || say "dumps saved in $save"
# the summary line the release matrix reads (tests/cluster/matrix.sh)
if [[ $failed -gt 0 ]]; then
	say "$failed comparison(s) differ"
	echo "$((compared - failed)) passed, $failed failed"
	exit 1
fi
say "every comparison identical"
echo "$compared passed, 0 failed"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# collect-samples.sh: record what sacctmgr, sshare, sprio and scontrol print
# on the running test cluster under each fair-share algorithm.
#
# Usage: collect-samples.sh [OUTDIR]        (default /tmp/cluster-samples)
#
# Needs a cluster from `cluster.sh start` with associations and usage
# (`cluster.sh accounts layout-basic.txt`, `run-jobs.sh`). It drains the
# node, submits held jobs and releases them so that they pend with a
# priority, then for each variant below rewrites etc/priority.conf (the
# default settings plus the variant's lines), restarts slurmctld (shares are
# normalised only when associations load), waits for its first priority
# calculation and saves, for variant V:
#   V.assoc   sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare
#   V.usage   sshare -a -P -n -o Account,User,RawUsage
#   V.sshare  sshare -a -l -P
#   V.sprio   sprio -l          V.sprio-n  sprio -l -n (normalised factors)
#   V.sprio-w sprio -w          V.jobs     scontrol -o show job
#   V.config  the Priority* lines of scontrol show config
# At the end it restores the default settings, cancels its jobs and resumes
# the node. Holds the cluster's lock while it runs (cluster-lock.sh).  The
# cluster and Slurm release: MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cluster-lock.sh source-path=SCRIPTDIR disable=SC1091
. "$here/cluster-lock.sh"
OUT=${1:-/tmp/cluster-samples}
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
BASE=${MFPRIO_PRIORITY_CONF:-$here/priority-default.conf}
NODE=$(hostname -s)

VARIANTS=(fairtree classic depth-oblivious classic-damp2)
variant_lines() {
	case $1 in
	fairtree) ;;
	classic) echo "PriorityFlags=NO_FAIR_TREE" ;;
	depth-oblivious) echo "PriorityFlags=DEPTH_OBLIVIOUS" ;;
	classic-damp2) printf '%s\n' "PriorityFlags=NO_FAIR_TREE" "FairShareDampeningFactor=2" ;;
	esac
}

# Pending jobs: USER:ACCOUNT:PARTITION[:extra sbatch option]
PENDING=(
	u1:b:debug
	u1:b:big
	u2:c:debug
	'u3:c:debug,big'
	u4:e:debug:--nice=100
	u5:f:big:-n2
	u6:b:debug
	u7:z:debug
)

say_name=samples
# shellcheck source=say-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/say-lib.sh"

cluster_lock samples
scontrol ping 2>/dev/null | grep -q 'is UP' || die "slurmctld is not answering"
mkdir -p "$OUT"
stamp=$(scontrol show config | awk -F'= *' '/^StateSaveLocation/ { print $2 }')/priority_last_decay_ran

# wait_calc SINCE: wait for a priority calculation stamped after SINCE.
wait_calc() {
	local since=$1 end=$((SECONDS + 90))
	until (($(stat -c %Y "$stamp" 2>/dev/null || echo 0) > since)); do
		((SECONDS < end)) || die "no priority calculation within 90s"
		sleep 1
	done
	sleep 2
}

# eligible_count: how many of our jobs have an EligibleTime. sprio lists a
# pending job only once the scheduler has looked at it and set that time.
eligible_count() {
	scontrol -o show job | grep -F -f <(printf 'JobId=%s \n' "${ids[@]}") |
		grep -c -v 'EligibleTime=Unknown' || true
}

# listed_count: how many of our jobs sprio lists.
listed_count() {
	sprio -h -o %i 2>/dev/null | sort -u | grep -c -x -F -f <(printf '%s\n' "${ids[@]}") || true
}

# wait_count FUNCTION: wait up to 90 s until FUNCTION counts all our jobs.
wait_count() {
	local end=$((SECONDS + 90)) n
	while :; do
		n=$($1)
		((n >= ${#ids[@]})) && return 0
		if ((SECONDS >= end)); then
			say "warning: $1 is $n of ${#ids[@]} after 90s"
			return 0
		fi
		sleep 1
	done
}

set_priority_conf() {
	{
		echo "# Written by collect-samples.sh: $BASE plus variant '$1'"
		cat "$BASE"
		variant_lines "$1"
	} >"$DIR/etc/priority.conf"
}

say "draining $NODE and submitting held jobs"
scontrol update nodename="$NODE" state=drain reason=mfprio-samples
ids=()
for spec in "${PENDING[@]}"; do
	IFS=: read -r user account part extra <<<"$spec"
	opts=()
	[[ -z $extra ]] || opts=("$extra")
	id=$(sbatch --parsable --hold --uid="$user" --gid="$(id -gn "$user")" \
		-A "$account" -p "$part" \
		"${opts[@]}" -D /tmp -o /dev/null -J "sample-$user" --wrap 'sleep 5')
	ids+=("${id%%;*}")
done
scontrol release "$(
	IFS=,
	echo "${ids[*]}"
)"
say "pending jobs: ${ids[*]}; waiting for the scheduler to make them eligible"
wait_count eligible_count

for v in "${VARIANTS[@]}"; do
	say "variant $v"
	set_priority_conf "$v"
	since=$(date +%s)
	"$here/cluster.sh" restart-ctld
	wait_calc "$since"
	wait_count listed_count
	sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare >"$OUT/$v.assoc"
	sshare -a -P -n -o Account,User,RawUsage >"$OUT/$v.usage"
	sshare -a -l -P >"$OUT/$v.sshare"
	sprio -l >"$OUT/$v.sprio"
	sprio -l -n >"$OUT/$v.sprio-n"
	sprio -w >"$OUT/$v.sprio-w"
	scontrol -o show job >"$OUT/$v.jobs"
	scontrol show config | grep -E '^(Priority|FairShare|PluginDir)' >"$OUT/$v.config"
done

say "restoring default priority settings, cancelling jobs, resuming $NODE"
set_priority_conf fairtree
"$here/cluster.sh" restart-ctld
scancel "${ids[@]}"
scontrol update nodename="$NODE" state=resume
say "samples in $OUT"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-jobs.sh: give the users of the test cluster real, different usage.
#
# Usage: run-jobs.sh [USER:ACCOUNT:SECONDS[:COUNT[:PARTITION]]]...
#
# Submits COUNT (default 1) one-CPU jobs `sleep SECONDS` as USER under
# ACCOUNT (partition default: the default one), waits until all of them have
# ended, checks that they completed, then waits for the first priority
# calculation (PriorityCalcPeriod tick) that starts after the last one ended,
# so that the usage read afterwards is settled. Without arguments a set
# matching layout-basic.txt is used.
#
# Environment: MFPRIO_CLUSTER_INSTANCE, MFPRIO_CLUSTER_DIR, MFPRIO_SLURM_PREFIX
# (instance.sh): the cluster and the Slurm release whose clients are used.
# SLURM_CONF, when set and neither MFPRIO_CLUSTER_INSTANCE nor
# MFPRIO_CLUSTER_DIR is, names the cluster instead. Holds the cluster's lock
# while it runs (see cluster-lock.sh).
set -euo pipefail

# shellcheck source=cluster-lock.sh source-path=SCRIPTDIR disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/cluster-lock.sh"

if [[ -n ${MFPRIO_CLUSTER_INSTANCE:-}${MFPRIO_CLUSTER_DIR:-} ]]; then
	export SLURM_CONF=$CLUSTER_DIR/etc/slurm.conf
else
	export SLURM_CONF=${SLURM_CONF:-$CLUSTER_DIR/etc/slurm.conf}
fi

DEFAULT_SPECS=(
	u1:b:20:2
	u2:c:10
	u3:c:30
	u4:e:15:2
	u5:f:25::big
	u6:b:10
	u7:z:5
)

say_name=run-jobs
# shellcheck source=say-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/say-lib.sh"

cluster_lock run-jobs
[[ -e $SLURM_CONF ]] || die "no $SLURM_CONF; start the cluster first (cluster.sh start)"
scontrol ping 2>/dev/null | grep -q 'is UP' || die "slurmctld is not answering"

specs=("$@")
[[ ${#specs[@]} -gt 0 ]] || specs=("${DEFAULT_SPECS[@]}")

ids=()
total=0
for spec in "${specs[@]}"; do
	IFS=: read -r user account secs count part extra <<<"$spec"
	[[ -n $user && -n $account && $secs =~ ^[0-9]+$ && -z ${extra:-} ]] ||
		die "bad job spec '$spec' (USER:ACCOUNT:SECONDS[:COUNT[:PARTITION]])"
	count=${count:-1}
	[[ $count =~ ^[0-9]+$ ]] || die "bad count in '$spec'"
	popt=()
	[[ -z ${part:-} ]] || popt=(-p "$part")
	for ((i = 0; i < count; i++)); do
		id=$(sbatch --parsable --uid="$user" --gid="$(id -gn "$user")" \
			-A "$account" "${popt[@]}" \
			-n 1 -D /tmp -o /dev/null -J "mfprio-$user" --wrap "sleep $secs")
		id=${id%%;*}
		ids+=("$id")
		total=$((total + secs))
	done
done
say "submitted ${#ids[@]} jobs (${total} CPU-seconds): ${ids[*]}"

# Wait until none of our jobs is still known as active.
cpus=$(nproc)
limit=$((total / cpus + 120))
end=$((SECONDS + limit))
while :; do
	active=$(squeue -h -o %i | grep -xF -f <(printf '%s\n' "${ids[@]}") || true)
	[[ -n $active ]] || break
	if ((SECONDS >= end)); then
		squeue >&2
		die "jobs still active after ${limit}s: $(echo "$active" | tr '\n' ' ')"
	fi
	sleep 2
done
done_at=$(date +%s)
say "all jobs ended"

bad=0
for id in "${ids[@]}"; do
	line=$(scontrol -o show job "$id" 2>/dev/null || true)
	state=$(grep -o 'JobState=[A-Z_]*' <<<"$line" | cut -d= -f2 || true)
	if [[ $state != COMPLETED ]]; then
		say "job $id ended ${state:-(unknown)}: $(grep -o 'Reason=[^ ]*' <<<"$line" || true)"
		bad=$((bad + 1))
	fi
done
[[ $bad -eq 0 ]] || die "$bad of ${#ids[@]} jobs did not complete"

# Wait for a priority calculation that starts after the last job ended. The
# multifactor plugin stamps StateSaveLocation/priority_last_decay_ran at each.
conf=$(scontrol show config)
period=$(awk -F'= *' '/^PriorityCalcPeriod/ { print $2 }' <<<"$conf")
IFS=: read -r h m s <<<"$period"
period_s=$((10#$h * 3600 + 10#$m * 60 + 10#$s))
statedir=$(awk -F'= *' '/^StateSaveLocation/ { print $2 }' <<<"$conf")
stamp=$statedir/priority_last_decay_ran
if [[ -e $stamp ]]; then
	say "waiting for the next priority calculation (period ${period_s}s)"
	end=$((SECONDS + period_s + 30))
	until (($(stat -c %Y "$stamp" 2>/dev/null || echo 0) > done_at)); do
		((SECONDS < end)) ||
			die "$stamp not updated within $((period_s + 30))s"
		sleep 1
	done
	sleep 1
else
	say "no $stamp; sleeping one period (${period_s}s)"
	sleep $((period_s + 2))
fi
say "usage settled"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sample-run.sh: the whole cluster round trip, holding the cluster lock:
# deps, a fresh start, the basic layout, real usage, samples of the client
# outputs under each algorithm, stop, a second start on the state left
# behind, stop.
#
# Usage: sample-run.sh [OUTDIR]          (default /tmp/cluster-samples)
#
# MFPRIO_CLUSTER_FRESH defaults to 1 here (wipe state and database first);
# set it to 0 to keep an earlier run's usage. Stops what it started, also on
# failure.  The cluster instance and Slurm release: MFPRIO_CLUSTER_INSTANCE,
# MFPRIO_SLURM_PREFIX (instance.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cluster-lock.sh source-path=SCRIPTDIR disable=SC1091
. "$here/cluster-lock.sh"
OUT=${1:-/tmp/cluster-samples}
export SLURM_CONF=$CLUSTER_DIR/etc/slurm.conf

t0=$SECONDS
step() {
	printf '\nsample-run: [%3ds] == %s\n' $((SECONDS - t0)) "$*" >&2
}

cluster_lock sample-run
started=0
cleanup() {
	if [[ $started == 1 ]]; then
		step "cleanup: cluster.sh stop"
		"$here/cluster.sh" stop || true
	fi
}
trap cleanup EXIT

step "cluster.sh deps"
"$here/cluster.sh" deps
step "cluster.sh start (MFPRIO_CLUSTER_FRESH=${MFPRIO_CLUSTER_FRESH:-1})"
started=1
MFPRIO_CLUSTER_FRESH=${MFPRIO_CLUSTER_FRESH:-1} "$here/cluster.sh" start
step "cluster.sh accounts layout-basic.txt"
"$here/cluster.sh" accounts "$here/layout-basic.txt"
step "cluster.sh accounts layout-basic.txt (again: must change nothing)"
"$here/cluster.sh" accounts "$here/layout-basic.txt"
step "run-jobs.sh"
"$here/run-jobs.sh"
step "collect-samples.sh $OUT"
"$here/collect-samples.sh" "$OUT"
step "cluster.sh start over the running cluster (leftover daemons)"
"$here/cluster.sh" start
step "cluster.sh stop"
"$here/cluster.sh" stop
step "cluster.sh stop (again: nothing to do)"
"$here/cluster.sh" stop
step "cluster.sh start (reusing state and database)"
"$here/cluster.sh" start
"$here/cluster.sh" status
sshare -a -P -n -o Account,User,RawUsage >"$OUT/restarted.usage"
step "cluster.sh stop"
started=0
"$here/cluster.sh" stop
step "done; samples in $OUT"

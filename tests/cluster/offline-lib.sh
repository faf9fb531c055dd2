# SPDX-License-Identifier: GPL-2.0-or-later
# offline-lib.sh: the frame of the cluster tests that hold the mfprio
# command against a live cluster running upstream's plugin (test-why,
# test-snapshot, test-part-assoc, test-jobs-json).  Sourced as
#     . "$here/offline-lib.sh" NAME
# it needs MFPRIO (the mfprio binary), takes the instance of
# MFPRIO_CLUSTER_INSTANCE (instance.sh) and its lock, and sets
#   DIR SLURM_CONF NODE   the instance's directory, config, node name
#   out                   a fresh directory for the outputs (mode 755)
#   pass fail ids         counters; ids: jobs to cancel at the end
#   say ok bad finish     messages, counted checks, the end
# The exit trap cancels ids, resumes the node and stops the cluster.
#   start_live [CONF]     a fresh cluster (upstream's plugin; priority
#                         settings CONF, default priority-default.conf)
#                         with the associations of layout-basic.txt
#   last_ran              (instance.sh) the time of the last priority
#                         calculation
#   wait_calc T           until a calculation later than T has run (150 s
#                         at most; 1 when it did not)
#   classic_conf          writes $out/priority.conf: the default settings
#                         under NO_FAIR_TREE, after checking that they still
#                         have the weights W_FS, W_AGE and the PriorityMaxAge
#                         (7 days) the caller computes with
# shellcheck shell=bash disable=SC2034
: "${MFPRIO:?set MFPRIO to the mfprio binary}"
_offline_name=${1:?offline-lib.sh NAME}
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
NODE=$(hostname -s)
out=$(mktemp -d "/tmp/mfprio-${_offline_name#test-}-XXXXXX")
chmod 755 "$out"
pass=0 fail=0
ids=()

say() { printf '%s: %s\n' "$_offline_name" "$*"; }
ok() { say "ok: $*"; pass=$((pass + 1)); }
bad() { say "FAIL: $*"; fail=$((fail + 1)); }
finish() { say "files in $out"; echo "$pass passed, $fail failed"; [[ $fail -eq 0 ]]; exit; }

exec 9>"$CLUSTER_LOCK"
flock 9

# shellcheck disable=SC2317  # run by the trap
_offline_cleanup() {
	if [[ ${#ids[@]} -gt 0 ]]; then
		scancel "${ids[@]}" 2>/dev/null || true
	fi
	scontrol update nodename="$NODE" state=resume 2>/dev/null || true
	"$here/cluster.sh" stop >/dev/null 2>&1 || true
}
trap _offline_cleanup EXIT

start_live() {
	unset MFPRIO_PLUGIN_DIR          # upstream's plugin: this checks mfprio
	if [[ -n ${1:-} ]]; then
		export MFPRIO_PRIORITY_CONF=$1
	else
		unset MFPRIO_PRIORITY_CONF
	fi
	MFPRIO_CLUSTER_FRESH=1 "$here/cluster.sh" start >"$out/start.log" 2>&1 ||
		{ tail "$out/start.log"; bad "cluster.sh start"; finish; }
	"$here/cluster.sh" accounts "$here/layout-basic.txt" >/dev/null ||
		{ bad "cluster.sh accounts"; finish; }
}

classic_conf() {
	{
		cat "$here/priority-default.conf"
		echo "PriorityFlags=NO_FAIR_TREE"
	} >"$out/priority.conf"
	if ! grep -q "^PriorityWeightFairshare=$W_FS$" "$out/priority.conf" ||
		! grep -q "^PriorityWeightAge=$W_AGE$" "$out/priority.conf" ||
		! grep -q "^PriorityMaxAge=7-0$" "$out/priority.conf"; then
		bad "priority-default.conf changed: update W_FS, W_AGE, MAX_AGE"; finish
	fi
}

# (last_ran is instance.sh's)
wait_calc() {
	local end=$((SECONDS + 150))
	until (($(last_ran) > $1)); do
		((SECONDS < end)) || return 1
		sleep 1
	done
	sleep 1
}

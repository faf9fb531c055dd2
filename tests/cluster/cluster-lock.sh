# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# cluster-lock.sh: sourced by scripts that drive the shared test cluster, so
# that only one of them uses it at a time. Not run on its own.
#
# cluster_lock NAME: take the instance's lock file (flock) on fd 9,
# /tmp/mfprio-cluster.lock for instance 0, /tmp/mfprio-cluster-N.lock for
# MFPRIO_CLUSTER_INSTANCE=N (instance.sh; MFPRIO_CLUSTER_LOCK overrides),
# waiting up to ${MFPRIO_CLUSTER_LOCK_WAIT:-1800} seconds. Goes on without it
# when an ancestor of this process has the file open (a driver script holds
# it for the whole sequence), or only cluster daemons that inherited a
# descriptor do. Exits non-zero if the wait times out.  Instances have
# separate locks: they do not share ports, directories or databases.

# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$(dirname "${BASH_SOURCE[0]}")/instance.sh"
MFPRIO_CLUSTER_LOCK=${MFPRIO_CLUSTER_LOCK:-$CLUSTER_LOCK}

# _openers: pids of the processes that have the lock file open.
_openers() {
	local f real
	real=$(readlink -f "$MFPRIO_CLUSTER_LOCK")
	find /proc/[0-9]*/fd -maxdepth 1 -lname "$real" 2>/dev/null |
		while read -r f; do
			f=${f#/proc/}
			echo "${f%%/*}"
		done
}

# _is_ancestor PID: PID is an ancestor of this process.
_is_ancestor() {
	local p=$PPID stat
	while [[ -n $p && $p -gt 1 ]]; do
		[[ $p == "$1" ]] && return 0
		stat=$(cat "/proc/$p/stat" 2>/dev/null) || return 1
		stat=${stat##*) }
		read -r _ p _ <<<"$stat"
	done
	return 1
}

cluster_lock() {
	local name=$1 h comm wait=${MFPRIO_CLUSTER_LOCK_WAIT:-1800}
	local -a others=()
	exec 9>>"$MFPRIO_CLUSTER_LOCK"
	flock -n 9 && return 0
	exec 9>&-
	# The lock is taken. Who has the file open (flock(1) leaves no pid to
	# ask /proc/locks for: the lock belongs to an open file, not a process)?
	for h in $(_openers | sort -u); do
		_is_ancestor "$h" && return 0
		comm=$(cat "/proc/$h/comm" 2>/dev/null || true)
		case $comm in
		slurmctld | slurmd | slurmdbd | slurmstepd | slurmscriptd | mariadbd | munged) ;;
		*) others+=("$h($comm)") ;;
		esac
	done
	if [[ ${#others[@]} -eq 0 ]]; then
		printf '%s: only cluster daemons hold %s (inherited); going on\n' \
			"$name" "$MFPRIO_CLUSTER_LOCK" >&2
		return 0
	fi
	printf '%s: waiting for %s (open in %s)\n' "$name" "$MFPRIO_CLUSTER_LOCK" "${others[*]}" >&2
	exec 9>>"$MFPRIO_CLUSTER_LOCK"
	flock -w "$wait" 9 || {
		printf '%s: error: %s still held after %ss\n' "$name" "$MFPRIO_CLUSTER_LOCK" "$wait" >&2
		exit 1
	}
}

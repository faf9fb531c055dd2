#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fs-kept.sh: our plugin keeps its association tree from one decay
# cycle to the next and builds it anew only when the associations change.
# A kept tree must give what a new one gives.
#
# With usage from real jobs (no job runs afterwards, so usage only decays,
# which leaves every figure but RawUsage as it is), each step below ends
# with a decay cycle on the kept tree; sshare -a -l -P then, and after a
# restart of slurmctld (a tree built from nothing), must agree in every
# column but RawUsage; mfprio_stats must say whether the step's cycle
# built the tree (fairshare_tree_built):
#   1. nothing changed                          kept
#   2. u2's FairShare 1 -> 5; a new account g under d with u3 in it
#                                               built
#   3. nothing changed (after the restart)      kept
#   4. u6 (FairShare=parent) removed from b; g moved under a
#                                               built
#   5. NO_FAIR_TREE by `scontrol reconfigure` (the kept tree, classic now)
#                                               kept
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

cols=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS

use_plugin ours
start_cluster "$here/priority-default.conf"
say "running jobs for usage"
"$here/run-jobs.sh" >"$out/run-jobs.log" 2>&1 || {
	tail -n 30 "$out/run-jobs.log"
	echo "0 passed, 1 failed"
	exit 1
}
restart_ctld start || { echo "0 passed, 1 failed"; exit 1; }

stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$STATE/mfprio_stats" 2>/dev/null; }
# capture NAME: sshare's figures.  After a switch to classic by
# reconfigure, root's own row and LevelFS are left out: they are
# slurmctld's (root) or the last Fair Tree cycle's (classic never writes
# LevelFS, with upstream's plugin as with ours) until a restart clears them.
capture() {
	if [[ $classic == 1 ]]; then
		sshare -a -l -P -o "${cols%,LevelFS}" 2>&1 | grep -v '^root|' >"$out/$1.sshare"
	else
		sshare -a -l -P -o "$cols" >"$out/$1.sshare" 2>&1
	fi
}
classic=0

# step N WANT: a cycle on whatever the step changed; the tree WANT (built
# or kept) by that cycle; its sshare against a restarted slurmctld's.
step() {
	local n=$1 want=$2 got
	wait_tick "$(date +%s)" || { not_ok "$n: a decay cycle"; return; }
	got=$([[ $(stat_of fairshare_tree_built) == 1 ]] && echo built || echo kept)
	check "$n: the cycle's tree $want ($got; $(stat_of fairshare_tree_builds) built since start)" \
		test "$got" = "$want"
	capture "$n.kept"
	restart_ctld "$n" || { not_ok "$n: slurmctld restarted"; return; }
	check "$n: the restart built its tree ($(stat_of fairshare_tree_builds) built since start)" \
		test "$(stat_of fairshare_tree_builds)" = 1
	capture "$n.new"
	check "$n: sshare on the kept tree = on a new one (but RawUsage)" \
		"$here/compare-tables.py" "$n" "$out/$n.new.sshare" "$out/$n.kept.sshare" \
		RawUsage=1e-2r --sep='|'
}

# has_assoc ACCOUNT USER PATTERN: slurmctld's record of that association
# (scontrol show assoc_mgr) exists and matches PATTERN (grep -E)
has_assoc() {
	scontrol show assoc_mgr flags=assoc accounts="$1" ${2:+users="$2"} 2>/dev/null |
		tr '\n' ' ' | sed 's/ClusterName=/\n&/g' |
		grep -E "Account=$1 UserName=$2(\([0-9]+\))? " | grep -qE -- "$3"
}
lacks_assoc() {
	! scontrol show assoc_mgr flags=assoc accounts="$1" users="$2" 2>/dev/null |
		grep -qE "Account=$1 UserName=$2(\([0-9]+\))? "
}
# settled WHAT CMD...: CMD true within 60 s (slurmctld takes association
# changes as slurmdbd sends them); fails the step's check otherwise
settled() {
	local what=$1 end=$((SECONDS + 60))
	shift
	until "$@"; do
		((SECONDS < end)) || { not_ok "slurmctld did not get $what within 60 s"; return 1; }
		sleep 1
	done
}

step 1-unchanged kept

sacctmgr -i modify user where name=u2 account=c set fairshare=5 >/dev/null
sacctmgr -i add account g parent=d fairshare=5 >/dev/null
sacctmgr -i add user u3 account=g fairshare=2 >/dev/null
settled "u2's new shares" has_assoc c u2 'SharesRaw/Norm/Level/Factor=5/'
settled "u3 in the new account g" has_assoc g u3 'SharesRaw/Norm/Level/Factor=2/'
step 2-shares-and-new built

step 3-unchanged kept

sacctmgr -i delete user where name=u6 account=b >/dev/null
sacctmgr -i modify account where name=g set parent=a >/dev/null
settled "u6's removal from b" lacks_assoc b u6
settled "g's move under a" has_assoc g "" 'ParentAccount=a\('
step 4-removed-and-moved built

say "NO_FAIR_TREE by reconfigure"
echo "PriorityFlags=NO_FAIR_TREE" >>"$DIR/etc/priority.conf"
scontrol reconfigure >/dev/null 2>&1
sleep 2
classic=1
step 5-classic-by-reconfigure kept
check "slurmctld still up" ctld_alive
finish

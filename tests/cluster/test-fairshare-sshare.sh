#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-fairshare-sshare.sh: `mfprio fairshare` against reality.
#
# On a real cluster running UPSTREAM's priority/multifactor plugin, with
# real jobs giving real usage, dump the associations and usage as an admin
# would (sacctmgr, sshare), and check that `mfprio fairshare` on the dump
# prints what the live `sshare -a -l -P` prints, under Fair Tree, classic
# (NO_FAIR_TREE), classic with FairShareDampeningFactor=2, and
# DEPTH_OBLIVIOUS.  Factors must agree to 1e-6; users' RawUsage exactly;
# an account's RawUsage to within the number of users (it is summed from
# users' rows, each printed truncated).
#
# The jobs run under a QOS with UsageFactor=1000000 so that usage is large
# and sshare's whole-number RawUsage loses nothing at six decimals.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh, on the
# instance and Slurm release of MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${MFPRIO:?set MFPRIO to the mfprio binary}"
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"
DIR=$CLUSTER_DIR
export SLURM_CONF=$DIR/etc/slurm.conf
out=$(mktemp -d /tmp/mfprio-fs-XXXXXX)
pass=0 fail=0
cols=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS

say() { printf 'test-fairshare-sshare: %s\n' "$*"; }

# Only one test drives a cluster instance at a time.
exec 9>"$CLUSTER_LOCK"
flock 9

cleanup() {
	unset MFPRIO_PLUGIN_DIR
	"$here/cluster.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

unset MFPRIO_PLUGIN_DIR          # upstream's plugin: this checks the core
export MFPRIO_PRIORITY_CONF=$here/priority-default.conf
MFPRIO_CLUSTER_FRESH=1 "$here/cluster.sh" start || { echo "0 passed, 1 failed"; exit 1; }
"$here/cluster.sh" accounts "$here/layout-basic.txt" || { echo "0 passed, 1 failed"; exit 1; }

# A QOS that makes usage large, open to every user of the layout.
users=$(awk '$1 == "user" { print $3 }' "$here/layout-basic.txt" | sort -u | paste -sd,)
if sacctmgr -n -P show qos format=Name | grep -qx fsbig; then
	sacctmgr -i modify qos fsbig set UsageFactor=1000000 >/dev/null
else
	sacctmgr -i add qos fsbig UsageFactor=1000000 >/dev/null
fi
sacctmgr -i modify user where name="$users" set qos+=fsbig >/dev/null
SBATCH_QOS=fsbig "$here/run-jobs.sh" || { echo "0 passed, 1 failed"; exit 1; }

# wait_tick T: wait until the plugin's decay thread has run after time T.
wait_tick() {
	local stamp=$DIR/state/priority_last_decay_ran end=$((SECONDS + 150))
	until [[ -e $stamp ]] && (($(stat -c %Y "$stamp") > $1)); do
		((SECONDS < end)) || { say "no decay tick after $1"; return 1; }
		sleep 1
	done
	sleep 2
}

# compare NAME LIVE OURS: field by field
compare() {
	awk -F'|' -v name="$1" '
	function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR { live[FNR] = $0; n = FNR; if ($2 != "" && FNR > 1) users++; next }
	{
		m = FNR
		split(live[FNR], a, "|"); k = split($0, b, "|")
		for (i = 1; i <= k; i++) {
			if (a[i] == b[i]) continue
			tol = (i != 5) ? 1.01e-6 : (b[2] == "" ? users : 0)
			if (isnum(a[i]) && isnum(b[i]) && abs(a[i] - b[i]) <= tol) {
				if (i != 5 && abs(a[i] - b[i]) > maxd) maxd = abs(a[i] - b[i])
				continue
			}
			printf "%s: line %d field %d: sshare \"%s\", mfprio \"%s\"\n",
				name, FNR, i, a[i], b[i]
			bad++
		}
	}
	END {
		if (m != n) { printf "%s: sshare %d lines, mfprio %d\n", name, n, m; bad++ }
		printf "%s: %d lines, largest factor difference %g\n", name, n, maxd
		exit bad > 0
	}' "$2" "$3"
}

cases=(
	"fair_tree|"
	"classic|PriorityFlags=NO_FAIR_TREE"
	"classic_damp2|PriorityFlags=NO_FAIR_TREE
FairShareDampeningFactor=2"
	"depth_oblivious|PriorityFlags=DEPTH_OBLIVIOUS"
)
for c in "${cases[@]}"; do
	name=${c%%|*}
	extra=${c#*|}
	{ cat "$here/priority-default.conf"; printf '%s\n' "$extra"; } >"$out/$name.conf"
	t=$(date +%s)
	if ! MFPRIO_PRIORITY_CONF="$out/$name.conf" "$here/cluster.sh" restart-ctld \
		>"$out/$name.restart" 2>&1 || ! wait_tick "$t"; then
		say "$name: slurmctld did not come back"; tail "$out/$name.restart"
		fail=$((fail + 1)); continue
	fi
	# the daemon really runs with these settings (else this test proves
	# nothing)
	flags=$(scontrol show config | awk -F'= *' '/^PriorityFlags/ { print $2 }')
	damp=$(scontrol show config | awk -F'= *' '/^FairShareDampeningFactor/ { print $2 }')
	want_flags=$(sed -n 's/^PriorityFlags=//p' "$out/$name.conf")
	want_damp=$(sed -n 's/^FairShareDampeningFactor=//p' "$out/$name.conf")
	if [[ $flags != *"${want_flags:-}"* || ( -z $want_flags && $flags == *NO_FAIR_TREE* ) ||
	      $damp != "${want_damp:-1}" ]]; then
		say "$name: slurmctld runs PriorityFlags='$flags' damp='$damp'"
		fail=$((fail + 1)); continue
	fi
	# Classic and DEPTH_OBLIVIOUS compute accounts in the decay tick and
	# users on demand (an sshare), each from its siblings' usage_norm as
	# last computed: right after a restart some are still unset.  So:
	# one sshare (every user's usage_norm set), one more full tick
	# (accounts from settled siblings, users marked for recomputing),
	# and only then read.
	sshare -a -l -P -o "$cols" >/dev/null
	t=$(date +%s)
	wait_tick "$t" || { fail=$((fail + 1)); continue; }
	sacctmgr -P -n show assoc format=Account,User,ParentName,Fairshare >"$out/$name.assoc"
	sshare -a -P -n -o Account,User,RawUsage >"$out/$name.usage"
	sshare -a -l -P -o "$cols" >"$out/$name.live"
	sshare -a -P -n -o Account,User,RawUsage | cmp -s - "$out/$name.usage" || {
		say "$name: usage changed while dumping (a decay tick); retrying once"
		sleep 3
		sshare -a -P -n -o Account,User,RawUsage >"$out/$name.usage"
		sshare -a -l -P -o "$cols" >"$out/$name.live"
	}
	# the release of the live cluster: sshare's empty cells are its own
	if ! "$MFPRIO" fairshare -o "$cols" --assoc "$out/$name.assoc" --usage "$out/$name.usage" \
		--conf "$SLURM_CONF" --release "$(cut -d. -f1,2 <<<"$SLURM_VERSION")" >"$out/$name.mfprio" 2>"$out/$name.err"; then
		say "$name: mfprio failed: $(cat "$out/$name.err")"
		fail=$((fail + 1)); continue
	fi
	if compare "$name" "$out/$name.live" "$out/$name.mfprio"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		say "$name: live:"; cat "$out/$name.live"
		say "$name: mfprio:"; cat "$out/$name.mfprio"
	fi
done

# back to the default settings for whoever uses the cluster next
cp "$here/priority-default.conf" "$DIR/etc/priority.conf"
# MFPRIO_SAVE_FIXTURE=DIR keeps the dumps for tests/cli/fairshare-live.sh
if [[ -n ${MFPRIO_SAVE_FIXTURE:-} && $fail -eq 0 ]]; then
	mkdir -p "$MFPRIO_SAVE_FIXTURE"
	for c in "${cases[@]}"; do
		n=${c%%|*}
		cp "$out/$n.assoc" "$out/$n.usage" "$out/$n.live" "$MFPRIO_SAVE_FIXTURE/"
	done
fi
say "dumps kept in $out"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

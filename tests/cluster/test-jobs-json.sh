#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-jobs-json.sh: `mfprio priority --jobs FILE` over the JSON job dumps
# of a live cluster gives the same rows as over the one-line dump taken
# with them.  On a drained node (every job pending) it submits: a plain
# job (then nice -50 by scontrol), a job for two partitions with 2 CPUs,
# an array with a throttle, a job named 'x QOS=high' with nice 100, a
# held job, a job with a time limit whose priority the admin sets, a job
# with QOS high (priority 100), a dependent job and an array of two
# tasks.  Then `mfprio snapshot`, at once `squeue --json` and (where the
# release has it, 23.02 on) `scontrol show job --json`, and compares:
#   - the rows over each JSON dump with the rows over the snapshot's
#     one-line dump (as printed, now and three days on, and -l);
#   - the job/partition pairs with the live `sprio` (held and dependent
#     jobs are in neither).
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance and release of MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh).  About a minute.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-jobs-json

start_live
sacctmgr -i add qos high priority=100 >/dev/null &&
	sacctmgr -i modify user u1 set qos+=high >/dev/null ||
	{ bad "sacctmgr: QOS high for u1"; finish; }
scontrol update nodename="$NODE" state=drain reason=test-jobs-json

# sub USER ACCOUNT SBATCH-OPTIONS...: submit, keep the id in $id
sub() {
	local u=$1 a=$2
	shift 2
	id=$(sbatch --parsable --uid="$u" --gid="$(id -gn "$u")" -A "$a" \
		-D /tmp -o /dev/null "$@" --wrap 'sleep 30') ||
		{ bad "sbatch as $u $*"; finish; }
	id=${id%%;*}
	ids+=("$id")
}
sub u1 b -p debug -J plain
plain=$id
sub u2 c -p debug,big -n 2 -J 'multi part'
sub u3 c -p debug --array=1-5%2 -J arr
sub u4 e -p big --nice=100 -J 'x QOS=high'
sub u5 f -p debug -H -J held
sub u1 b -p debug -t 10 -J lim
admin=$id
sub u1 b -p debug,big --qos=high -J 'hi QOS=normal Account=x'
sub u2 c -p big --dependency=afterok:"$plain" -J dep
sub u4 e -p debug --array=7,9 -J arr2
scontrol update jobid="$admin" priority=5000 || bad "scontrol: priority"
scontrol update jobid="$plain" nice=-50 || bad "scontrol: nice"
# sprio lists a job once the scheduler has made it eligible
for _ in $(seq 30); do
	[[ $(sprio -h -o '%i' | sort -u | wc -l) -ge 6 ]] && break
	sleep 1
done

"$MFPRIO" snapshot "$out/snap" 2>"$out/snapshot.err" ||
	{ cat "$out/snapshot.err"; bad "mfprio snapshot"; finish; }
squeue --json >"$out/squeue.json" 2>"$out/squeue.err" ||
	{ cat "$out/squeue.err"; bad "squeue --json"; finish; }
dumps=(squeue.json)
if scontrol show job --json >"$out/scontrol.json" 2>"$out/scontrol.err"; then
	dumps+=(scontrol.json)
else
	say "$(head -n1 "$out/scontrol.err") (this release's scontrol has no --json)"
fi
sprio -h -o '%i %r' | awk '{ print $1, $2 }' | sort >"$out/sprio.pairs"

# the rows over the one-line dump and over each JSON dump
now=$(cat "$out/snap/time")
for args in "" "--now $((now + 259200))" "-l"; do
	# shellcheck disable=SC2086
	"$MFPRIO" priority --snapshot "$out/snap" $args >"$out/line.out" \
		2>"$out/line.err" || { cat "$out/line.err"; bad "priority $args"; continue; }
	for d in "${dumps[@]}"; do
		# shellcheck disable=SC2086
		if "$MFPRIO" priority --snapshot "$out/snap" --jobs "$out/$d" $args \
			>"$out/$d.out" 2>"$out/$d.err" &&
			cmp -s "$out/line.out" "$out/$d.out"; then
			ok "$d: the one-line rows (priority $args)"
		else
			cat "$out/$d.err"; diff "$out/line.out" "$out/$d.out" | head
			bad "$d: the one-line rows (priority $args)"
		fi
	done
done

# the jobs and partitions sprio lists
"$MFPRIO" priority --snapshot "$out/snap" --jobs "$out/squeue.json" \
	2>/dev/null | awk 'NR > 1 { print $1, $2 }' | sort >"$out/mfprio.pairs"
if [[ -s $out/sprio.pairs ]] && cmp -s "$out/sprio.pairs" "$out/mfprio.pairs"; then
	ok "the jobs and partitions of sprio ($(wc -l <"$out/sprio.pairs") rows)"
else
	diff "$out/sprio.pairs" "$out/mfprio.pairs"; bad "the jobs and partitions of sprio"
fi
finish

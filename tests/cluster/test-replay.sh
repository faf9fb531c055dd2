#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-replay.sh: `mfprio replay` of a live cluster's own history gives the
# cluster's own sshare.
#
# A fresh cluster (zero usage) with our plugin, PriorityDecayHalfLife=5
# (minutes) and PriorityCalcPeriod=1 (cluster.sh), Fair Tree, limits
# enforced (the job's end is charged when it ends): 24 jobs of 1 or 2 CPUs,
# 3 to 12 s each, of six users in five accounts, all submitted at once (two
# CPUs: most wait), run over about three ticks.  After the tick that
# follows the last end: sacct (the documented command), sshare, the
# association and QOS dumps, and the last tick's time (priority_last_decay_ran).
# `mfprio replay --conf slurm.conf --assoc ... --from F --to LAST`, F the
# last tick less a whole number of minutes before the first submission,
# must end with, for every association sshare lists:
#
#   RawUsage within 1% of sshare's, plus 1 (usage units: billing-seconds;
#   sshare prints whole units, cut short)
#   FairShare (users) within 0.001
#
# Why the bound.  The replay puts its ticks exactly 60 s apart, ending at
# the real last tick; slurmctld's ticks run late by the time the decay
# thread takes to wake and to get the job lock (about a second, seen up
# to 2 s on this machine; the script records every tick it sees and prints
# the largest lateness).  A tick late by d seconds moves the boundary
# between two charges by d: the charge on each side of it is billing x d
# more or less, which cancels up to the decay between the two sides,
# D^60 = 0.87 with a 5-minute half-life, i.e. at most 0.13 x billing x d
# per tick a job runs through; plus the whole tick's decay applied to a
# piece of d seconds: billing x d x (1 - D^60).  With billing <= 2 and
# d <= 2, under 1 unit per job and tick, against usage of hundreds to
# thousands per association: 1% plus the unit sshare cuts off holds it.  The one larger effect would be a job ending between the replay's
# tick and the real one (its stretch decayed once more on one side, up to
# 13% of one tick's charge): jobs here run 3-12 s and end at random
# points of the minute, so with 24 ends and d <= 2 s the chance of one is
# small, and its error (<= 2 x 60 x 0.13 = 16) would show: the check
# names the association that misses, for a look.  Fair Tree's factor is a rank: usage this close
# cannot swap two siblings whose usage per share differ by more than 2%:
# the workload gives every account a clearly different share of the work.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"
MFPRIO=${MFPRIO:-${MFPRIO_BUILD:-$top}/mfprio}
[[ -x $MFPRIO ]] || { say "no mfprio at $MFPRIO (build first, or set MFPRIO)"; echo "0 passed, 1 failed"; exit 1; }

sed -e 's/^PriorityDecayHalfLife=.*/PriorityDecayHalfLife=5/' \
	"$here/priority-default.conf" >"$out/priority.conf"
use_plugin ours
start_cluster "$out/priority.conf"
check "our plugin is loaded ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"

# the ticks slurmctld makes, as priority_last_decay_ran records them
# (without the cluster's lock, and ending with this script however it ends)
(
	exec 9>&-
	while kill -0 $$ 2>/dev/null; do last_ran; sleep 1; done
) >"$out/ticks.polled" 2>/dev/null &
poll=$!
trap 'kill $poll 2>/dev/null; cleanup' EXIT

wait_tick "$(date +%s)" || { echo "$pass passed, $((fail + 1)) failed"; exit 1; }
t0=$(date +%s)
# user account cpus seconds, 24 jobs: u1 and u2 work most, u7 least
jobs="u1 b 2 12
u2 c 1 10
u4 e 2 9
u5 f 1 7
u3 c 1 5
u7 z 1 3
u1 b 1 11
u2 c 2 8
u4 e 1 6
u5 f 2 5
u1 b 2 10
u3 c 1 4
u2 c 1 12
u4 e 1 8
u1 b 1 9
u5 f 1 3
u2 c 2 7
u1 b 2 6
u4 e 2 4
u3 c 1 3
u1 b 1 12
u2 c 1 11
u5 f 1 6
u7 z 1 3"
ids=()
while read -r u a c s; do
	id=$(sbatch --parsable --uid="$u" -A "$a" -n "$c" -D /tmp -o /dev/null \
		--wrap "sleep $s" 2>>"$out/sbatch.err") && ids+=("$id")
done <<<"$jobs"
check "24 jobs submitted (${#ids[@]})" test "${#ids[@]}" -eq 24
end=$((SECONDS + 300))
while [[ -n $(squeue -h -o %i 2>/dev/null) ]] && ((SECONDS < end)); do sleep 2; done
check "every job ended ($((SECONDS)) s into the test)" test -z "$(squeue -h -o %i 2>/dev/null)"
sleep 1
wait_tick "$(date +%s)" || not_ok "a tick after the last end"
last=$(last_ran)
# the dumps, before the next tick
sshare -a -P -n -o Account,User,RawUsage,FairShare >"$out/sshare"
fields=JobIDRaw,User,Account,Partition,QOS,Submit,Eligible,Start,End,State,AllocTRES,ReqTRES
sacct -a -P -n -X -S "$(date -d "@$((t0 - 60))" +%Y-%m-%dT%H:%M:%S)" \
	-E "$(date -d "@$last" +%Y-%m-%dT%H:%M:%S)" -o "$fields" >"$out/sacct" 2>"$out/sacct.err"
check "the next tick has not come during the dumps" test "$(last_ran)" -eq "$last"
sacctmgr -P -n show assoc where cluster="$CLUSTER_NAME" \
	format=Account,User,ParentName,Fairshare >"$out/assoc"
sacctmgr -P -n show qos format=Name,Priority >"$out/qos"
kill $poll 2>/dev/null
uniq "$out/ticks.polled" >"$out/ticks"
check "sacct has the 24 jobs ($(wc -l <"$out/sacct"))" test "$(wc -l <"$out/sacct")" -eq 24

# ticks: how late each was behind the schedule of the last one
awk -v last="$last" '$1 > 0 { d = (last - $1) % 60; if (d > 30) d = 60 - d;
	if (d > m) m = d } END { print "ticks seen: " NR ", largest lateness " m + 0 " s" }' \
	"$out/ticks" | while read -r l; do say "$l"; done

n=$(((last - t0 + 59) / 60 + 1))
from=$((last - 60 * n))
if "$MFPRIO" replay --conf "$SLURM_CONF" --assoc "$out/assoc" --qos "$out/qos" \
	--from "$from" --to "$last" --table final "$out/sacct" \
	>"$out/replay" 2>"$out/replay.err"; then
	ok "mfprio replay ran ($n ticks)"
else
	not_ok "mfprio replay: $(head -n 3 "$out/replay.err")"
fi
check "replay: charged at the job's end, as with limits enforced (--json says so)" \
	bash -c "'$MFPRIO' replay --conf '$SLURM_CONF' --assoc '$out/assoc' --from $from --to $last --json '$out/sacct' 2>/dev/null |
		python3 -c 'import json,sys; d = json.load(sys.stdin); sys.exit(not d[\"before\"][\"charge_at_end\"])'"

# compare, both ways: every association sshare lists (root's row included)
# is in the replay's final table, and every row of that table is in sshare's;
# each pair within the bound above: |usage - sshare's| <= 1 + 1% of sshare's,
# and for users the fair-share factors within 0.001 (or empty on both
# sides).  Fewer than 10 pairs (a replay or an sshare of a root alone) fails:
# layout-basic.txt makes 16 (root, root/root, seven accounts, seven users).
# final_vs_sshare SSHARE-FLAT REPLAY: prints ok/BAD/MISSING/EXTRA lines and
# "compared N"; exits 1 on any but ok, or when N < 10.
final_vs_sshare() {
	awk 'function abs(x) { return x < 0 ? -x : x }
	NR == FNR { k = $1 "/" $2; u[k] = $3; f[k] = $4; next }
	/^#/ || ($1 == "account" && $2 == "user") { next }
	{ k = $1 "/" $2; seen[k] = 1
	  if (!(k in u)) { print "EXTRA (not in sshare)", k; bad++; next }
	  good = abs(u[k] - $3) <= 1 + u[k] * 0.01
	  if ($2 != "" && (f[k] != "" || $4 != ""))
		good = good && f[k] != "" && $4 != "" && abs(f[k] - $4) <= 0.001
	  printf "%s %s usage %s sshare %s fs %s sshare %s\n", good ? "ok" : "BAD", k, $3, u[k], $4, f[k]
	  if (!good) bad++; n++ }
	END { for (k in u) if (!(k in seen)) { print "MISSING (sshare has it)", k; bad++ }
	  print "compared", n + 0; exit bad > 0 || n < 10 }' \
		FS='|' "$1" FS=, "$2"
}
tr -d ' ' <"$out/sshare" >"$out/sshare.flat"
final_vs_sshare "$out/sshare.flat" "$out/replay" >"$out/compare"
cmp=$?
sed 's/^/    /' "$out/compare"
check "every association's usage and fair-share as sshare's, both ways ($(grep -c '^ok' "$out/compare") agree)" \
	test "$cmp" -eq 0
# shellcheck disable=SC2016
check "the replay has usage (the workload was charged)" \
	awk -F, '$1 == "root" && $2 == "" { f = $3 > 100 } END { exit !f }' "$out/replay"
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-no-dbd.sh: slurmctld without slurmdbd.  The age and fair-share
# weights are dropped at start (a log line says so for each), and a
# reconfigure reads the weights from slurm.conf again: from then on a job's
# priority, recomputed when the job is updated, has its age term again.
# Upstream's plugin and mfprio's must agree.
#
# The cluster starts as usual; then etc/priority.conf (included at the end
# of slurm.conf, where a key given twice takes its last value) adds
# AccountingStorageType=accounting_storage/none, PriorityMaxAge=1 (minute)
# and ACCRUE_ALWAYS (age counts from submission).  The node is drained; jobs
# pend.  For upstream's plugin, then ours (same job state):
#   restart slurmctld: the log names both weights as ignored; sprio -l shows
#     AGE 0 and FAIRSHARE 0 for every job (jobs older than PriorityMaxAge by
#     then: with the weight, AGE would be the full 1000);
#   scontrol reconfigure: jobs keep the priority they had (nothing
#     recomputes them yet), AGE still 0;
#   scontrol update of each job (a comment): recomputed, AGE 1000 for each
#     (full age, the weight back), FAIRSHARE still 0 (no fair-share without
#     slurmdbd);
#   the two plugins' sprio -l at each step compared (equal to 1).
# slurmctld answers throughout.
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

use_plugin upstream
start_cluster "$here/priority-default.conf"
scontrol update nodename="$NODE" state=drain reason=mfprio-no-dbd
{
	cat "$here/priority-default.conf"
	echo "AccountingStorageType=accounting_storage/none"
	echo "PriorityMaxAge=1"
	echo "PriorityFlags=ACCRUE_ALWAYS"
} >"$DIR/etc/priority.conf"

# restart LABEL: slurmctld again (no decay pass to wait for without slurmdbd)
restart() {
	"$here/cluster.sh" restart-ctld >"$out/$1.restart" 2>&1 || {
		say "$1: slurmctld did not come back"
		tail -n 20 "$out/$1.restart"
		return 1
	}
}

# capture LABEL: sprio -l, the job id replaced by the user (the same
# jobs in every capture: one each)
capture() {
	sprio -l >"$out/$1.raw"
	{
		head -n 1 "$out/$1.raw"
		tail -n +2 "$out/$1.raw" | awk '{ $1 = $3; print }' | sort
	} >"$out/$1.sprio"
}

# column LABEL NAME: the values of sprio's column NAME, one a line
column() {
	awk -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		c { print $c }' "$out/$1.sprio"
}

# all LABEL NAME VALUE: every job's NAME is VALUE (and there are jobs)
all() {
	local v
	v=$(column "$1" "$2" | sort -u)
	[[ -n $v && $v == "$3" ]] || { say "$1: $2 is '$(tr "\n" " " <<<"$v")', not $3"; return 1; }
}

m=$(log_mark)
restart upstream-start || not_ok "upstream: restart without slurmdbd"
check "upstream: slurmctld up without slurmdbd" ctld_alive
check "upstream: plugin loaded ($(loaded_so))" loaded_is "$UPSTREAM_SO"
check "upstream: slurmctld uses no accounting storage" \
	test "$(scontrol show config | awk -F'= *' '/^AccountingStorageType/ { print $2 }')" = accounting_storage/none
for spec in u1:b u2:c u4:e; do
	sbatch --parsable --uid="${spec%%:*}" -A "${spec#*:}" -n 1 -D /tmp -o /dev/null \
		--wrap 'sleep 60' >>"$out/pending.ids" 2>>"$out/pending.err"
done
check "3 jobs pending ($(paste -sd' ' "$out/pending.ids"))" test "$(wc -l <"$out/pending.ids")" -eq 3
submitted=$(date +%s)

# steps PLUGIN: start (already done), reconfigure, update
steps() {
	local p=$1 m=$2 id
	check "$p: the log says PriorityWeightAge is ignored" \
		log_has "$m" 'PriorityWeightAge.*SlurmDBD.*ignoring'
	check "$p: the log says PriorityWeightFairshare is ignored" \
		log_has "$m" 'PriorityWeightFairshare.*SlurmDBD.*ignoring'
	# older than PriorityMaxAge before the first capture
	while (($(date +%s) < submitted + 65)); do sleep 1; done
	capture "$p-start"
	check "$p: at start AGE 0 for every job" all "$p-start" AGE 0
	check "$p: at start FAIRSHARE 0 for every job" all "$p-start" FAIRSHARE 0
	scontrol reconfigure
	sleep 2
	check "$p: slurmctld up after reconfigure" ctld_alive
	capture "$p-reconfigured"
	check "$p: after reconfigure, before any update, AGE still 0" all "$p-reconfigured" AGE 0
	for id in $(cut -d';' -f1 "$out/pending.ids"); do
		scontrol update jobid="$id" comment="mfprio-$p" ||
			not_ok "$p: scontrol update job $id"
	done
	capture "$p-updated"
	check "$p: updated jobs have the full AGE, 1000" all "$p-updated" AGE 1000
	check "$p: FAIRSHARE still 0 (no fair-share without slurmdbd)" all "$p-updated" FAIRSHARE 0
	check "$p: slurmctld up" ctld_alive
}
steps upstream "$m"

use_plugin ours
m=$(log_mark)
restart ours-start || not_ok "ours: restart without slurmdbd"
check "ours: slurmctld up without slurmdbd" ctld_alive
check "ours: plugin loaded ($(loaded_so))" loaded_is "$plugin_dir/priority_multifactor.so"
steps ours "$m"

for s in start reconfigured updated; do
	check "$s: sprio -l of both plugins" "$here/compare-tables.py" "$s/sprio" \
		"$out/upstream-$s.sprio" "$out/ours-$s.sprio" PRIORITY=1 AGE=1 FAIRSHARE=1 \
		JOBSIZE=1 PARTITION#2=1 QOS=1 TRES=1 SITE=1 ASSOC=1 NICE=1
done

scancel $(cut -d';' -f1 "$out/pending.ids") 2>/dev/null
scontrol update nodename="$NODE" state=resume 2>/dev/null
finish

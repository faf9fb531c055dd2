#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-why-start.sh: `mfprio why JOBID`'s "When it may start" against the
# live cluster (upstream's plugin, sched/backfill as cluster.sh writes it,
# the users of layout-basic.txt).  As user u1, a job that takes the whole
# node for its time limit of 10 minutes, then a second job of 1 CPU
# behind it: backfill plans the second at the first's end.  Once
# `squeue --start` shows a start time for it (a backfill pass, every
# bf_interval), `mfprio why` run live by u1 (runuser, no privilege) must
# give that same time, which must also be the first job's EndTime (its
# StartTime + 10 min, as scontrol shows it: backfill's assumption that a
# running job runs to its limit); --json's start.time the same in
# seconds.  A job submitted held: no start time, and why says a hold
# keeps it out of the plan.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance of MFPRIO_CLUSTER_INSTANCE (instance.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-why-start

chmod 711 "$out"
if ! install -D -m 755 "$MFPRIO" "$out/bin/mfprio"; then
	bad "a copy of $MFPRIO the users can run"
	finish
fi
umf=$out/bin/mfprio

# shellcheck disable=SC2119  # the default priority settings
start_live
# sbatch as u1: its job id, kept for the cancel at the end
submit() {
	local id
	id=$(cd /tmp && runuser -u u1 -- sbatch --parsable -A b -p debug \
		-D /tmp -o /dev/null -J why-start "$@") || return 1
	ids+=("${id%%;*}")
	echo "${id%%;*}"
}
big=$(submit --exclusive -N 1 -t 10 --wrap 'sleep 900') ||
	{ bad "sbatch of the whole-node job"; finish; }
for _ in $(seq 60); do
	[[ $(squeue -h -j "$big" -o %T) == RUNNING ]] && break
	sleep 2
done
[[ $(squeue -h -j "$big" -o %T) == RUNNING ]] ||
	{ bad "job $big running"; finish; }
small=$(submit -n 1 -t 5 --wrap 'sleep 30') ||
	{ bad "sbatch of the job behind it"; finish; }
held=$(submit -H -n 1 -t 5 --wrap 'sleep 30') ||
	{ bad "sbatch of a held job"; finish; }
# a backfill pass places it (bf_interval 30 s by default)
want=N/A
for _ in $(seq 75); do
	want=$(squeue --start -h -j "$small" -o %S)
	[[ $want != N/A && -n $want ]] && break
	sleep 2
done
if [[ $want == N/A || -z $want ]]; then
	bad "squeue --start shows no start time for job $small in 150 s"
	finish
fi
end=$(scontrol -o show job "$big" | grep -o ' EndTime=[^ ]*' | cut -d= -f2)
say "job $big ends by its limit at $end; squeue --start for $small: $want"
runuser -u u1 -- "$umf" why "$small" >"$out/why.out" 2>"$out/why.err"
rc=$?
tr -s '\n ' '  ' <"$out/why.out" >"$out/why.flat"
got=$(grep -o "Slurm's estimate: in [^(]*([0-9T:-]*)" "$out/why.flat" |
	sed 's/.*(\(.*\))/\1/')
if [[ $rc == 0 && $got == "$want" ]]; then
	ok "why --live as u1: start $got, as squeue --start"
else
	cat "$out/why.out" "$out/why.err"
	bad "why --live as u1: start '$got', squeue --start '$want'"
fi
if [[ $got == "$end" ]]; then
	ok "the estimate is job $big's end at its time limit ($end)"
else
	bad "the estimate '$got' is not job $big's EndTime '$end'"
fi
if grep -qF "It assumes every running job runs to its time limit" "$out/why.flat"; then
	ok "why says what the estimate assumes"
else
	bad "why says what the estimate assumes"
fi
runuser -u u1 -- "$umf" why "$small" --json >"$out/why.json" 2>"$out/why.err"
jt=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["start"]["time"])' "$out/why.json" 2>/dev/null)
if [[ -n $jt && $jt == "$(date -d "$want" +%s)" ]]; then
	ok "why --json: start.time $jt, squeue's in seconds"
else
	bad "why --json: start.time '$jt', squeue's $(date -d "$want" +%s)"
fi
runuser -u u1 -- "$umf" why "$held" >"$out/held.out" 2>&1
tr -s '\n ' '  ' <"$out/held.out" >"$out/held.flat"
if [[ $(squeue --start -h -j "$held" -o %S) == N/A ]] &&
	grep -qF "Slurm gives it no start time (StartTime=Unknown): its scheduler plans no job that a hold" "$out/held.flat"; then
	ok "a held job: no start time, and why says why"
else
	cat "$out/held.out"; bad "a held job: no start time, and why says why"
fi
finish

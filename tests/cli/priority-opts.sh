#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio priority` with the options people type to sprio (-j, -u, -p, -S,
# -w, -l) and the what-ifs --set and --flags, on the hand-computed small
# fixture (tests/data/priority/small/expected.txt): rows 101/short 4423,
# 102/short 8858, 102/long 10058, 106/long 6810; weights age 1000,
# fair-share 10000, job size 1000, partition 2000, QOS 3000, cpu 400.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
S="$TOP_SRCDIR/tests/data/priority/small"

pr() {
	"$MFPRIO" priority --conf "$S/slurm.conf" --jobs "$S/jobs.txt" \
		--qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" \
		--now 1700000000 -P -n "$@" >"$out" 2>"$err"
}
# rows NAME WANT ARGS...: the job|partition|priority of each row, in order
rows() {
	name=$1 want=$2; shift 2
	pr "$@"
	got=$(cut -d'|' -f1,2,4 "$out" | tr '\n' ' ')
	if [ "$got" = "$want" ]; then ok "$name"; else echo "# got: $got"; echo "# wanted: $want"; bad "$name"; fi
}

rows "default: by job id" "101|short|4423 102|short|8858 102|long|10058 106|long|6810 "
rows "-S -y: by priority, highest first" "102|long|10058 102|short|8858 106|long|6810 101|short|4423 " -S -y
rows "-S r,-y: by partition, then priority" "102|long|10058 106|long|6810 102|short|8858 101|short|4423 " -S r,-y
rows "-u bob" "102|short|8858 102|long|10058 106|long|6810 " -u bob
rows "-p long" "102|long|10058 106|long|6810 " -p long
rows "-j101,106 (attached, as sprio)" "101|short|4423 106|long|6810 " -j101,106
rows "-l taken" "101|short|4423 102|short|8858 102|long|10058 106|long|6810 " -l
# QOS off: 102 loses its 3000 (QOS high, 100 of 100) in both partitions
rows "--set PriorityWeightQOS=0" "101|short|4423 102|short|5858 102|long|7058 106|long|6510 " --set PriorityWeightQOS=0
# under Fair Tree the fair-share term is Fair Tree's.  By hand: account a
# holds both users, 1 share each; alice's LevelFS 0.5 / (300/400) =
# 0.666667, bob's 0.5 / (100/400) = 2: bob ranks first, 2 of 2 users
# (factor 1.0, 10000), alice 1 of 2 (0.5, 5000); classic gave 2973, 4204
pr --flags FAIR_TREE; rc=$?
got=$(cut -d'|' -f1,2,8 "$out" | tr '\n' ' ')
want="101|short|5000 102|short|10000 102|long|10000 106|long|10000 "
if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]
then ok "--flags FAIR_TREE: Fair Tree's fair-share term"
else echo "# rc=$rc, got: $got"; echo "# wanted: $want"; bad "--flags FAIR_TREE: Fair Tree's fair-share term"; fi

"$MFPRIO" priority --conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$S/qos.txt" \
	--assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000 \
	--explain 102 --set PriorityWeightQOS=0 >"$out" 2>"$err"
if grep -qxF "  --set PriorityWeightQOS=0 (what-if, in place of the conf's)" "$out" &&
   grep -q '^  qos  *0.0000000  *0 ' "$out"
then ok "--explain names the settings used, and uses them"
else bad "--explain names the settings used, and uses them"; fi

# why and check take --set and --flags too (input_opts): QOS off, 102 is
# ahead of 101 by its fair-share and size only: 8858 - 3000 = 5858
"$MFPRIO" why 101 102 --conf "$S/slurm.conf" --jobs "$S/jobs.txt" --qos "$S/qos.txt" \
	--assoc "$S/assoc.txt" --usage "$S/usage.txt" --now 1700000000 \
	--set PriorityWeightQOS=0 >"$out" 2>"$err"
if grep -qF "priority 5858 against 4423" "$out" && ! grep -q "^  qos " "$out"
then ok "why --set PriorityWeightQOS=0"; else bad "why --set PriorityWeightQOS=0"; fi

pr -w
if grep -qxF "Weights||||1|1000|0|10000|1000|2000|3000||cpu=400" "$out" && [ "$(wc -l <"$out")" -eq 1 ]
then ok "-w: the weights, no job"; else bad "-w: the weights, no job"; fi

pr -S z; rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "-S 'z'" "$err"; then ok "-S of an unknown field: refused"
else echo "# rc=$rc"; bad "-S of an unknown field: refused"; fi
pr --set Foo=1; rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "--set 'Foo=1'" "$err"; then ok "--set of a key not a priority key: refused"
else echo "# rc=$rc"; bad "--set of a key not a priority key: refused"; fi

finish

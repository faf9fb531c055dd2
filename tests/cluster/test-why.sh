#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-why.sh: `mfprio why`, `mfprio check` and `mfprio tree` on the
# snapshot of a real cluster (upstream's plugin, Fair Tree, the weights of
# priority-default.conf, the layout of layout-basic.txt, the usage of
# run-jobs.sh), against what the live cluster says:
#   why    for the first and the last job of partition debug in the live
#          `sprio -l` (the largest gap): the job it says runs first is
#          sprio's first, and the deciding factor it names is the sprio
#          column (AGE, FAIRSHARE, ...) with the largest difference in that
#          job's favour.
#   check  every pending job is submitted with QOS normal and 1 CPU on 1
#          node: the QOS and job size factors are the same for all, so it
#          must report both as `constant` (exit 3), and nothing about
#          overflow or the fair-share weight (10000, above the 8 user
#          associations).
#   tree   one line per association of `sshare -a -P` (same count, every
#          user named), and --svg parses as XML.
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance of MFPRIO_CLUSTER_INSTANCE (instance.sh).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-why

start_live
"$here/run-jobs.sh" 2>"$out/run-jobs.log" ||
	{ tail "$out/run-jobs.log"; bad "run-jobs.sh"; finish; }

scontrol update nodename="$NODE" state=drain reason=test-why
for spec in u1:b u2:c u3:c u4:e u5:f u7:z; do
	IFS=: read -r u a <<<"$spec"
	id=$(sbatch --parsable --uid="$u" --gid="$(id -gn "$u")" -A "$a" \
		-p debug --qos=normal -n 1 -D /tmp -o /dev/null -J why \
		--wrap 'sleep 30') || { bad "sbatch as $u"; finish; }
	ids+=("${id%%;*}")
done
# a priority calculation after the submissions (PriorityCalcPeriod)
sleep 65
"$MFPRIO" snapshot "$out/snap" 2>"$out/snapshot.err" ||
	{ cat "$out/snapshot.err"; bad "mfprio snapshot"; finish; }
sprio -p debug -o '%i|%Y|%A|%F|%J|%P|%Q' -h >"$out/live.sprio"
sshare -a -P -n -o Account,User >"$out/live.sshare"

# ---- why: sprio's first and last job of debug
sort -t'|' -k2,2nr -k1,1n "$out/live.sprio" >"$out/sorted"
first=$(head -n1 "$out/sorted" | cut -d'|' -f1 | tr -d ' ')
last=$(tail -n1 "$out/sorted" | cut -d'|' -f1 | tr -d ' ')
# the column with the largest difference in the first job's favour
want=$(awk -F'|' 'NR == 1 { for (i = 3; i <= 7; i++) f[i] = $i }
	END { split("x x age fairshare jobsize partition qos", n, " ");
	      best = 0; for (i = 3; i <= 7; i++) if (f[i] - $i > best) {
	      best = f[i] - $i; name = n[i] } print name }' "$out/sorted")
say "sprio: job $first first, job $last last; largest term: $want"
"$MFPRIO" why "$last" "$first" --snapshot "$out/snap" >"$out/why.out" 2>"$out/why.err"
rc=$?
if [[ $rc == 0 ]] && grep -q "^Job $first runs before job $last in partition debug" "$out/why.out"; then
	ok "why: job $first before job $last, as sprio"
else
	cat "$out/why.out" "$out/why.err"; bad "why: the order"
fi
if [[ -n $want ]] && grep -q "^The deciding factor is $want:" "$out/why.out"; then
	ok "why: deciding factor $want"
else
	cat "$out/why.out"; bad "why: deciding factor, wanted '$want'"
fi

# ---- check
"$MFPRIO" check --snapshot "$out/snap" >"$out/check.out" 2>"$out/check.err"
rc=$?
if [[ $rc == 3 ]] && grep -q "^constant: .* QOS factor" "$out/check.out" &&
	grep -q "^constant: .* job size factor" "$out/check.out" &&
	! grep -q "^overflow:\|^fs-weight:" "$out/check.out"; then
	ok "check: QOS and job size constant, exit 3"
else
	echo "exit $rc"; cat "$out/check.out" "$out/check.err"; bad "check"
fi

# ---- tree
"$MFPRIO" tree --snapshot "$out/snap" >"$out/tree.out" 2>"$out/tree.err"
rc=$?
n_live=$(wc -l <"$out/live.sshare")
n_tree=$(($(wc -l <"$out/tree.out") - 2))
missing=$(cut -d'|' -f2 "$out/live.sshare" | sort -u | grep . |
	while read -r u; do grep -q "^ *$u " "$out/tree.out" || echo "$u"; done)
if [[ $rc == 0 && $n_live == "$n_tree" && -z $missing ]]; then
	ok "tree: $n_tree associations, as sshare"
else
	echo "exit $rc, sshare $n_live, tree $n_tree, missing: $missing"; bad "tree"
fi
if "$MFPRIO" tree --snapshot "$out/snap" --svg "$out/tree.svg" 2>"$out/svg.err" &&
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$out/tree.svg"; then
	ok "tree --svg parses as XML"
else
	cat "$out/svg.err"; bad "tree --svg"
fi
finish

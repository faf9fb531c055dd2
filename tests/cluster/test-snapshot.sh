#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-snapshot.sh: `mfprio snapshot DIR`, then `mfprio fairshare --snapshot
# DIR` and `mfprio priority --snapshot DIR` (no other option: --now is the
# snapshot's time) against the live `sshare -a -l -P` and `sprio -l` read
# right after it, on a real cluster running upstream's plugin with
# ORDINARY usage: the jobs of run-jobs.sh, about 150 CPU-seconds in all, no
# UsageFactor.  So the snapshot's usage is what `scontrol show assoc_mgr`
# prints, two decimals, and the check is that every figure is within what
# two decimals allow.
#
# The bound.  Fair-share is classic here (PriorityFlags=NO_FAIR_TREE):
# its factor moves with usage continuously, where Fair Tree only ranks.
# assoc_mgr prints each user's UsageRaw rounded to two decimals, so each
# figure mfprio reads is within d = 0.005 of the controller's; N user
# associations in all.  An account's usage is the sum over its users, so
# within N*d, and so is the root's: R' >= R - N*d >= D := R_sshare - N*d,
# R_sshare being the root's RawUsage sshare prints (truncated, <= R).
#   NormUsage n = u/R:  |u'/R' - u/R| <= |u'-u|/R' + (u/R)|R-R'|/R'
#                                     <= (N*d + N*d)/D = 2*N*d/D =: e
#   EffectvUsage (classic): the root's is 1; each other association's is
#     n + (parent's - n) * RawShares/(its siblings' RawShares, itself in),
#     a mean of n and the parent's weighted by w in [0,1]; so its error is
#     at most the larger of theirs: e, by induction down the tree.
#   FairShare F = 2^(-E/S), S the NormShares on the row: |2^-x - 2^-y| <=
#     ln2 |x - y| 2^-min(x,y) (the slope of 2^-x is largest at the smaller
#     x), so |F' - F| <= ln2 * e / S * max(F, F') (S = 0: F = 0 on both
#     sides, exactly).
#   sshare prints each to six decimals (both sides round): + 1e-6.
#   RawUsage: both print the whole part; a user's figures differ by < d,
#     an account's by <= N*d: the printed ones by at most 1 + N*d.
#   sprio -l: FAIRSHARE = W_fs * F, printed rounded: within
#     W_fs * B + 1, B the largest ln2 * e / S * max(F, F') of the users
#     with a pending job (from the two sshare tables); AGE = W_age * (t - accrue)/MaxAge: sprio's t is
#     the last priority calculation, mfprio's the snapshot's time, dt later:
#     within W_age * dt / MaxAge + 1; PRIORITY (the sum, truncated) within
#     the sum of both + 1.  Every other column and field: equal.
# Then, with sshare's whole-number usage (--usage DIR/usage, d = 1 as it
# truncates), the same figures: their largest error is shown next to the
# two-decimal one and must be the larger, when above print resolution
# (and is shown against the two-decimal bound, which it passes over when
# usage is small).
#
# No priority calculation may run between the snapshot and the live reads
# (it decays usage and recomputes every factor): the calculation stamp is
# read before and after, and the whole is taken again if it moved.
#
# MFPRIO_SAVE_FIXTURE=DIR: on success, copy the snapshot and the live
# tables there (tests/data/snapshot/live-22.05 came so).
#
# Needs: MFPRIO (the mfprio binary).  Uses tests/cluster/cluster.sh on the
# instance and Slurm release of MFPRIO_CLUSTER_INSTANCE, MFPRIO_SLURM_PREFIX
# (instance.sh); 22.05 is what it was written against.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/offline-lib.sh" test-snapshot
cols=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS
W_FS=10000 W_AGE=1000 MAX_AGE=604800

classic_conf

start_live "$out/priority.conf"
"$here/run-jobs.sh" 2>"$out/run-jobs.log" ||
	{ tail "$out/run-jobs.log"; bad "run-jobs.sh"; finish; }

# Pending jobs, one per user (two partitions for one), on a drained node.
scontrol update nodename="$NODE" state=drain reason=test-snapshot
for spec in u1:b:debug u2:c:debug,big u3:c:big u4:e:debug u5:f:debug \
	u6:b:big u7:z:debug; do
	IFS=: read -r u a p <<<"$spec"
	id=$(sbatch --parsable --uid="$u" --gid="$(id -gn "$u")" -A "$a" -p "$p" \
		-D /tmp -o /dev/null -J snap --wrap 'sleep 30') ||
		{ bad "sbatch as $u"; finish; }
	ids+=("${id%%;*}")
done


# Classic computes users' figures on demand from siblings' as last
# computed: one sshare, one more full calculation (test-fairshare-sshare.sh
# says why), which also gives the pending jobs their priorities.
sshare -a -l -P >/dev/null
wait_calc "$(date +%s)" || { bad "no priority calculation"; finish; }

snap=$out/snap
for try in 1 2 3 4; do
	before=$(last_ran)
	rm -rf "$snap"
	"$MFPRIO" snapshot "$snap" 2>"$out/snapshot.err" ||
		{ cat "$out/snapshot.err"; bad "mfprio snapshot"; finish; }
	sshare -a -l -P -o "$cols" >"$out/live.sshare"
	sprio -l >"$out/live.sprio"
	after=$(last_ran)
	rows=$(($(wc -l <"$out/live.sprio") - 1))
	if [[ $before == "$after" && $rows -ge ${#ids[@]} ]]; then
		break
	fi
	say "try $try: calculation $before -> $after, $rows sprio rows; again"
	[[ $try == 4 ]] && { bad "no quiet window for the snapshot"; finish; }
	wait_calc "$after" || { bad "no priority calculation"; finish; }
done
taken=$(cat "$snap/time")
dt=$((taken - before))
say "snapshot at $taken, $dt s after the calculation sprio shows"

# the snapshot holds what it should
for f in slurm.conf slurm-version time jobs qos assoc assoc-prio usage assoc-mgr config; do
	[[ -s $snap/$f ]] || bad "snapshot: no $f"
done
if grep -q '^Include include-1-priority.conf ' "$snap/slurm.conf" &&
	cmp -s "$snap/include-1-priority.conf" "$DIR/etc/priority.conf"; then
	ok "slurm.conf's Include copied and pointed at the copy"
else
	bad "slurm.conf's Include not copied"
fi
if [[ $(cat "$snap/slurm-version") == "$(scontrol --version)" ]]; then
	ok "slurm-version"
else
	bad "slurm-version: $(cat "$snap/slurm-version")"
fi
if ((dt >= 0 && dt < 90)); then ok "time: $taken"; else bad "time $taken, calculation $before"; fi

# ---------------------------------------------------------------- fairshare
"$MFPRIO" fairshare -o "$cols" --snapshot "$snap" >"$out/mfprio.sshare" 2>"$out/fs.err" ||
	{ cat "$out/fs.err"; bad "mfprio fairshare --snapshot"; finish; }
"$MFPRIO" fairshare -o "$cols" --snapshot "$snap" --usage "$snap/usage" \
	>"$out/whole.sshare" 2>>"$out/fs.err" ||
	{ cat "$out/fs.err"; bad "mfprio fairshare --usage usage"; finish; }

# N, D and e of the comment above
n_users=$(grep -c '^ClusterName=.* UserName=[^ (]' "$snap/assoc-mgr")
r_live=$(awk -F'|' 'NR == 2 { print $5 }' "$out/live.sshare")
read -r e e1 < <(awk -v n="$n_users" -v r="$r_live" \
	'BEGIN { printf "%.9g %.9g\n", 2 * n * 0.005 / (r - n * 0.005), 2 * n * 1 / (r - n) }')
say "N=$n_users users, root RawUsage $r_live: e = $e (with whole numbers: $e1)"
((n_users >= 7)) || bad "only $n_users user records in assoc-mgr"

# fs_check NAME LIVE MFPRIO D E: every row of the two sshare tables within
# the bounds; prints the largest NormUsage, EffectvUsage, FairShare errors.
fs_check() {
	awk -F'|' -v name="$1" -v d="$4" -v e="$5" '
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR { live[FNR] = $0; n = FNR; next }
	FNR == 1 { if ($0 != live[1]) { print name ": headers differ"; bad++ }; next }
	{
		m = FNR
		nu = split(live[FNR], a, "|"); k = split($0, b, "|")
		if (k != nu) { printf "%s: line %d: %d fields, sshare %d\n", name, FNR, k, nu; bad++; next }
		user = (b[2] != "")
		for (i = 1; i <= k; i++) {
			if (i == 6) tol = e + 1e-6
			else if (i == 7) tol = e + 1e-6
			else if (i == 8) tol = (a[4] > 0 ? log(2) * e / a[4] * \
				(a[8] > b[8] ? a[8] : b[8]) : 0) + 2e-6
			else if (i == 5) tol = 1 + (user ? d : nusers * d)
			else tol = -1
			if (a[i] == b[i]) continue
			if (tol >= 0 && a[i] ~ /^[0-9.]+$/ && b[i] ~ /^[0-9.]+$/) {
				x = abs(a[i] - b[i])
				if (x > worst[i]) worst[i] = x
				if (x <= tol) continue
				printf "%s: line %d field %d: sshare %s, mfprio %s: off by %g, bound %g\n",
					name, FNR, i, a[i], b[i], x, tol
			} else {
				printf "%s: line %d field %d: sshare \"%s\", mfprio \"%s\"\n",
					name, FNR, i, a[i], b[i]
			}
			bad++
		}
	}
	END {
		if (m != n) { printf "%s: sshare %d lines, mfprio %d\n", name, n, m; bad++ }
		printf "%g %g %g %d\n", worst[6] + 0, worst[7] + 0, worst[8] + 0, bad + 0 >"/dev/stderr"
		exit bad > 0
	}' nusers="$n_users" "$2" "$3"
}
if fs_check "fairshare --snapshot" "$out/live.sshare" "$out/mfprio.sshare" 0.005 "$e" \
	2>"$out/fs.worst"; then
	ok "fairshare --snapshot: every row within the two-decimal bounds (largest NormUsage, EffectvUsage, FairShare errors: $(cut -d' ' -f1-3 "$out/fs.worst"))"
else
	bad "fairshare --snapshot: see above"
	say "live:"; cat "$out/live.sshare"; say "mfprio:"; cat "$out/mfprio.sshare"
fi
fs_check "fairshare, whole-number usage" "$out/live.sshare" "$out/whole.sshare" 1 "$e1" \
	2>"$out/whole.worst" >"$out/whole.diff" || true
read -r _ _ fs2 _ <"$out/fs.worst"
read -r _ _ fs0 _ <"$out/whole.worst"
say "largest FairShare error: two decimals $fs2, whole numbers $fs0"
if awk -v a="$fs2" -v b="$fs0" 'BEGIN { exit !(b <= 2e-6 || b > a) }'; then
	ok "whole-number usage is off more than two decimals ($fs0 > $fs2) or within print resolution"
else
	bad "whole-number usage is off no more than two decimals ($fs0 <= $fs2)"
fi

# ---------------------------------------------------------------- priority
"$MFPRIO" priority --snapshot "$snap" >"$out/mfprio.sprio" 2>"$out/prio.err" ||
	{ cat "$out/prio.err"; bad "mfprio priority --snapshot"; finish; }
"$MFPRIO" priority --snapshot "$snap" --usage "$snap/usage" >"$out/whole.sprio" \
	2>>"$out/prio.err" || { cat "$out/prio.err"; bad "mfprio priority --usage usage"; finish; }
# S_min: the smallest NormShares of a user with a pending job
# B: the largest factor bound of a user with a pending job
awk 'NR > 1 { print $3 }' "$out/live.sprio" | sort -u >"$out/users"
b_fs=$(awk -F'|' -v e="$e" 'FILENAME == ARGV[1] { u[$1]; next }
	FILENAME == ARGV[2] { f[FNR] = $8; next }
	FNR > 1 && ($2 in u) && $4 > 0 {
		m = ($8 > f[FNR] ? $8 : f[FNR]) + 1e-6
		b = log(2) * e / $4 * m
		if (b > max) { max = b; who = $2 }
	}
	END { printf "%.6g %s\n", max, who }' "$out/users" "$out/mfprio.sshare" "$out/live.sshare")
read -r t_fs t_age < <(awk -v w="$W_FS" -v b="${b_fs% *}" -v wa="$W_AGE" \
	-v dt="$dt" -v ma="$MAX_AGE" \
	'BEGIN { printf "%.6g %.6g\n", w * b + 1, wa * dt / ma + 1 }')
t_prio=$(awk -v a="$t_fs" -v b="$t_age" 'BEGIN { printf "%.6g\n", a + b - 1 }')
say "sprio bounds: FAIRSHARE $t_fs (B $b_fs), AGE $t_age (dt ${dt}s), PRIORITY $t_prio"
python3 "$here/compare-tables.py" "priority --snapshot" "$out/live.sprio" "$out/mfprio.sprio" \
	"FAIRSHARE=$t_fs" "AGE=$t_age" "PRIORITY=$t_prio" >"$out/prio.cmp"
rc=$?
cat "$out/prio.cmp"
if [[ $rc == 0 && $(($(wc -l <"$out/live.sprio") - 1)) -ge ${#ids[@]} ]]; then
	ok "priority --snapshot: every sprio row within the bounds"
else
	bad "priority --snapshot: see above"
	say "live:"; cat "$out/live.sprio"; say "mfprio:"; cat "$out/mfprio.sprio"
fi
python3 "$here/compare-tables.py" "priority, whole-number usage" "$out/live.sprio" \
	"$out/whole.sprio" "FAIRSHARE=$t_fs" "AGE=$t_age" "PRIORITY=$t_prio" |
	tail -n 1 | sed 's/differences/outside the two-decimal bounds/'

# mfprio report --html --live: the page from the cluster itself (its own
# snapshot, taken into a temporary directory and removed); the page's
# fair-share rows (the JSON of mfprio fairshare it embeds) are the live
# sshare's associations, and its title names the cluster
if "$MFPRIO" report --html "$out/live.html" --live 2>"$out/report.err"; then
	python3 - "$out/live.html" "$out/live.sshare" "$CLUSTER_NAME" >"$out/report.cmp" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
rows = json.loads(re.search(r'id="data-fairshare">(.*?)</script>', page, re.S).group(1))["rows"]
got = sorted((r["account"], r["user"] or "") for r in rows)
live = [l.split("|") for l in open(sys.argv[2]).read().splitlines()[1:]]
want = sorted((f[0].strip(), f[1].strip()) for f in live)
title = re.search(r"<title>(.*?)</title>", page).group(1)
print(len(got), "rows,", len(want), "in sshare;", title)
sys.exit(0 if got == want and title.startswith(sys.argv[3] + ":") else 1)
PY
	[[ $? == 0 ]] && ok "report --html --live: $(cat "$out/report.cmp")" ||
		bad "report --html --live: $(cat "$out/report.cmp")"
else
	bad "report --html --live: $(cat "$out/report.err")"
fi

# MFPRIO_SAVE_FIXTURE=DIR keeps the snapshot and the live tables for
# tests/cli/snapshot.sh (tests/data/snapshot/live-22.05)
if [[ -n ${MFPRIO_SAVE_FIXTURE:-} && $fail -eq 0 ]]; then
	mkdir -p "$MFPRIO_SAVE_FIXTURE"
	(cd "$snap" && cp slurm.conf include-* slurm-version time jobs qos assoc \
		assoc-prio usage assoc-mgr "$MFPRIO_SAVE_FIXTURE/")
	cp "$out/live.sshare" "$out/live.sprio" "$MFPRIO_SAVE_FIXTURE/"
fi

finish

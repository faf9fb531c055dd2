#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio metrics` on the example snapshot: the Prometheus text of its
# fair-share and pending jobs, the same figures as `mfprio fairshare` and
# `mfprio priority` print, written atomically with --output, and clean for
# promtool when it is installed.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
EX="$TOP_SRCDIR/examples/snapshot"


"$MFPRIO" metrics --snapshot "$EX" >"$out" 2>"$err"
rc=$?
[ $rc -eq 0 ] && ok "metrics --snapshot: exit 0" || bad "metrics --snapshot: exit $rc"
for fam in mfprio_metrics_info mfprio_metrics_timestamp_seconds \
	mfprio_assoc_shares mfprio_assoc_shares_norm_ratio \
	mfprio_assoc_usage_raw_seconds mfprio_assoc_usage_effective_ratio \
	mfprio_assoc_fairshare_ratio mfprio_assoc_level_fairshare \
	mfprio_pending_jobs mfprio_pending_priority_summed \
	mfprio_pending_priority_highest mfprio_pending_oldest_wait_seconds \
	mfprio_pending_oldest_priority; do
	if grep -q "^# HELP $fam " "$out" && grep -qx "# TYPE $fam gauge" "$out"; then
		ok "family $fam: HELP and TYPE gauge"
	else
		bad "family $fam: HELP and TYPE gauge"
	fi
done
if grep -q '^mfprio_cycle' "$out"; then
	bad "no plugin cycle family from a snapshot"
else
	ok "no plugin cycle family from a snapshot"
fi
# the example's tree (examples/snapshot/assoc): chem 60 and physics 40 under
# root (0.6, 0.4 of the cluster), lab 10 of physics' 40; frank FairShare=
# parent (no raw shares); usage 1000 in all, dave 250 of it.  Pending: bob
# two jobs in batch, the others one.
has -x "figures of the example, with parent and depth labels" 0 \
	'mfprio_metrics_info{source="snapshot",algorithm="classic"} 1' \
	'mfprio_metrics_timestamp_seconds 1700000000' \
	'mfprio_assoc_shares{account="physics",parent="root",depth="1"} 40' \
	'mfprio_assoc_shares_norm_ratio{account="chem",parent="root",depth="1"} 0.6' \
	'mfprio_assoc_shares_norm_ratio{account="lab",parent="physics",depth="2"} 0.1' \
	'mfprio_assoc_usage_raw_seconds{account="root",depth="0"} 1000' \
	'mfprio_assoc_usage_raw_seconds{account="organic",user="dave",parent="organic",depth="3"} 250' \
	'mfprio_pending_jobs{account="lab",user="bob",partition="batch"} 2' \
	'mfprio_pending_jobs{account="theory",user="alice",partition="batch"} 1'
# the longest waiting: bob's 102 and 105 both submitted 2023-11-09T22:13:20,
# 5 days (432000 s) before the snapshot's 2023-11-14T22:13:20; the lower
# id first: 102, priority 8187; erin's 104 3.5 days
has -x "the longest-waiting job per association and partition" 0 \
	'mfprio_pending_oldest_wait_seconds{account="lab",user="bob",partition="batch"} 432000' \
	'mfprio_pending_oldest_priority{account="lab",user="bob",partition="batch"} 8187' \
	'mfprio_pending_oldest_wait_seconds{account="inorganic",user="erin",partition="batch"} 302400'
if grep -q 'mfprio_assoc_shares{account="inorganic",user="frank"' "$out"; then
	bad "FairShare=parent: no raw shares sample"
else
	ok "FairShare=parent: no raw shares sample"
fi

# every association's NormShares, EffectvUsage, FairShare and LevelFS as
# `mfprio fairshare` prints them (%f), empty fields having no sample
"$MFPRIO" fairshare -o "$FS9" --snapshot "$EX" >"$T/fs" 2>>"$err"
awk -F'|' -v M="$out" '
function key(a, u) { return a "|" u }
BEGIN {
	split("NormShares EffectvUsage FairShare LevelFS", cols, " ")
	fam["NormShares"] = "mfprio_assoc_shares_norm_ratio"
	fam["EffectvUsage"] = "mfprio_assoc_usage_effective_ratio"
	fam["FairShare"] = "mfprio_assoc_fairshare_ratio"
	fam["LevelFS"] = "mfprio_assoc_level_fairshare"
	while ((getline line < M) > 0) {
		if (line ~ /^#/) continue
		n = split(line, p, " ")
		name = p[1]; sub(/\{.*/, "", name)
		a = ""; u = ""
		if (match(line, /account="[^"]*"/)) a = substr(line, RSTART + 9, RLENGTH - 10)
		if (match(line, /user="[^"]*"/)) u = substr(line, RSTART + 6, RLENGTH - 7)
		v[name, key(a, u)] = p[n]
	}
}
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	a = $1; gsub(/ /, "", a); u = $2; rows++
	for (c in cols) {
		f = fam[cols[c]]; want = $(col[cols[c]])
		got = ((f, key(a, u)) in v) ? v[f, key(a, u)] : ""
		if (want == "" && got == "") continue
		if (want == "inf" && got == "+Inf") continue
		if (got == "" || sprintf("%f", got) != want) {
			printf "# %s %s/%s: metrics %s, fairshare %s\n", cols[c], a, u, got, want
			bad++
		}
	}
}
END { exit !(rows > 5 && !bad) }' "$T/fs" >"$T/cmp" 2>&1
if [ $? -eq 0 ]; then
	ok "every association's figures equal mfprio fairshare's"
else
	cat "$T/cmp"
	bad "every association's figures equal mfprio fairshare's"
fi

# pending jobs: the count and the highest priority per user and partition
# as `mfprio priority` lists them
"$MFPRIO" priority --snapshot "$EX" >"$T/prio" 2>>"$err"
awk -v M="$out" '
BEGIN {
	while ((getline line < M) > 0) {
		if (line !~ /^mfprio_pending_(jobs|priority_highest)\{/) continue
		n = split(line, p, " ")
		match(line, /user="[^"]*"/); u = substr(line, RSTART + 6, RLENGTH - 7)
		match(line, /partition="[^"]*"/); q = substr(line, RSTART + 11, RLENGTH - 12)
		if (line ~ /^mfprio_pending_jobs/) cnt[u "|" q] += p[n]
		else if (p[n] > hi[u "|" q]) hi[u "|" q] = p[n]
	}
}
NR == 1 { for (i = 1; i <= NF; i++) if (!(($i) in c)) c[$i] = i; next }
{
	k = $(c["USER"]) "|" $(c["PARTITION"]); cn[k]++
	if ($(c["PRIORITY"]) > m[k]) m[k] = $(c["PRIORITY"])
}
END {
	for (k in cn) if (cn[k] != cnt[k] || m[k] != hi[k]) {
		printf "# %s: priority lists %d, highest %s; metrics %d, %s\n", k, cn[k], m[k], cnt[k], hi[k]
		bad++
	}
	for (k in cnt) if (!(k in cn)) { printf "# %s: not in priority\n", k; bad++ }
	exit !(length(cn) > 0 && !bad)
}' "$T/prio" >"$T/cmp" 2>&1
if [ $? -eq 0 ]; then
	ok "pending jobs equal mfprio priority's rows"
else
	cat "$T/cmp"
	bad "pending jobs equal mfprio priority's rows"
fi

# --cluster: the label on every sample
"$MFPRIO" metrics --snapshot "$EX" --cluster c1 >"$T/c1" 2>"$err"
if [ "$(grep -v '^#' "$T/c1" | grep -vc 'cluster="c1"')" = 0 ]; then
	ok "--cluster c1 labels every sample"
else
	bad "--cluster c1 labels every sample"
fi

# --output: atomic, the same text, no temporary file left
"$MFPRIO" metrics --snapshot "$EX" --output "$T/m.prom" >"$T/o" 2>"$err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/o" ] && cmp -s "$T/m.prom" "$out" &&
	[ ! -e "$T/m.prom.tmp" ]; then
	ok "--output FILE: the same text, nothing on stdout, no FILE.tmp left"
else
	bad "--output FILE: the same text, nothing on stdout, no FILE.tmp left"
fi
"$MFPRIO" metrics --snapshot "$EX" --output "$T/no-such-dir/m.prom" >"$T/o" 2>"$err"
rc=$?
if [ $rc -eq 1 ] && grep -q "no-such-dir/m.prom.tmp: cannot create it" "$err"; then
	ok "--output into a missing directory: exit 1, the file named"
else
	bad "--output into a missing directory: exit 1 ($rc), the file named"
fi

# usage errors
"$MFPRIO" metrics >"$T/o" 2>"$err"
[ $? -eq 2 ] && grep -q "give --live or the inputs" "$err" &&
	ok "no input: usage error" || bad "no input: usage error"
"$MFPRIO" metrics --live --snapshot "$EX" >"$T/o" 2>"$err"
[ $? -eq 2 ] && ok "--live with --snapshot: usage error" ||
	bad "--live with --snapshot: usage error"
"$MFPRIO" metrics --help >"$T/o" 2>"$err"
[ $? -eq 0 ] && grep -q -- "--live" "$T/o" && ok "--help" || bad "--help"

if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$out" >"$T/pt" 2>&1; then
		ok "promtool check metrics: clean"
	else
		cat "$T/pt"
		bad "promtool check metrics: clean"
	fi
else
	echo "# promtool not installed: its check skipped"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio fairshare` against sshare output recorded on a real Slurm 22.05.8
# cluster running upstream's plugin (tests/cluster/test-fairshare-sshare.sh
# took these dumps; jobs ran under a QOS with UsageFactor=1000000 so that
# whole-number RawUsage keeps six decimals).  Factors must agree to 1e-6,
# users' RawUsage exactly, accounts' to within the number of users.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
D="$TOP_SRCDIR/tests/data/fairshare/live"
for c in "fair_tree:" "classic:--flags=NO_FAIR_TREE" \
	 "classic_damp2:--flags=NO_FAIR_TREE --damp=2" \
	 "depth_oblivious:--flags=DEPTH_OBLIVIOUS"; do
	name=${c%%:*} opts=${c#*:}
	if ! "$MFPRIO" fairshare -o "$FS9" --assoc "$D/$name.assoc" --usage "$D/$name.usage" \
		$opts >"$out"; then
		echo "not ok - $name: mfprio failed"; fail=$((fail + 1)); continue
	fi
	if awk -F'|' -v name="$name" '
	function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR { live[FNR] = $0; n = FNR; if ($2 != "" && FNR > 1) users++; next }
	{
		m = FNR; split(live[FNR], a, "|"); k = split($0, b, "|")
		for (i = 1; i <= k; i++) {
			if (a[i] == b[i]) continue
			tol = (i != 5) ? 1.01e-6 : (b[2] == "" ? users : 0)
			if (isnum(a[i]) && isnum(b[i]) && abs(a[i] - b[i]) <= tol) continue
			printf "# %s: line %d field %d: sshare \"%s\", mfprio \"%s\"\n", name, FNR, i, a[i], b[i]
			bad++
		}
	}
	END { if (m != n) bad++; exit bad > 0 }' "$D/$name.live" "$out"
	then echo "ok - $name matches the live sshare"; pass=$((pass + 1))
	else echo "not ok - $name"; fail=$((fail + 1)); fi
done
finish

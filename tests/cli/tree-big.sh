#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio tree` at a site's size: the generated site of bench/gen_site.py
# (200 accounts, 5,000 users, seed 1) drawn through its default view (users
# folded, five children per account), and each view option.
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "# no python3: the generated site cannot be made; skipped"
	exit 77
fi
S=$T/site
python3 "$TOP_SRCDIR/bench/gen_site.py" "$S" >"$err" 2>&1 || { bad "gen_site.py"; finish; }
TREE=(--assoc "$S/assoc" --usage "$S/usage" --conf "$S/slurm.conf" --color never)
"$MFPRIO" tree "${TREE[@]}" >"$out" 2>"$err"
rc=$?
n=$(wc -l <"$out")
if [ $rc = 0 ] && [ "$n" -le 60 ] &&
	grep -q '^5201 associations: users folded; under each account the 5 children' "$out"; then
	ok "default view: $n lines, the note says how it was chosen"
else
	bad "default view: exit $rc, $n lines, and its note"
fi
# grp036 has 515 users, the lowest u03373 (fixed by the seed)
if grep -qE '^    grp036 .*\[515 users\] fair-share lowest [0-9.]+ \(u03373\), mean [0-9.]+$' "$out"; then
	ok "default view: an account's users folded into a note"
else
	bad "default view: an account's users folded into a note"
fi
if [ "$(grep -c '^  dept' "$out")" = 5 ] && grep -q '^  +5 more accounts ([0-9]* users)' "$out"; then
	ok "default view: 5 of the 10 departments, the others summed"
else
	bad "default view: 5 of the 10 departments, the others summed"
fi
"$MFPRIO" tree "${TREE[@]}" --users show --top 0 >"$out" 2>"$err"
n=$(wc -l <"$out")
[ "$n" = 5203 ] && ok "--users show --top 0: every association ($n lines)" ||
	bad "--users show --top 0: every association ($n lines, wanted 5203)"
"$MFPRIO" tree "${TREE[@]}" --account grp036 --top 3 >"$out" 2>"$err"
if [ "$(grep -c '^  u' "$out")" = 3 ] && grep -q '^  +512 more users' "$out" &&
	head -3 "$out" | grep -q '^grp036 '; then
	ok "--account grp036 --top 3: three users and +512 more"
else
	bad "--account grp036 --top 3: three users and +512 more"
fi
"$MFPRIO" tree "${TREE[@]}" --account dept01 --depth 1 --top 2 >"$out" 2>"$err"
if grep -q '^    \[below: 2 accounts, 80 users\]' "$out" &&
	grep -q '^    \[below: 42 users\]' "$out"; then
	ok "--depth 1: what is deeper summed"
else
	bad "--depth 1: what is deeper summed"
fi
"$MFPRIO" tree "${TREE[@]}" --account nosuch >"$out" 2>"$err"
[ $? = 1 ] && grep -q "account nosuch: no such account" "$err" &&
	ok "--account of no account: exit 1" || bad "--account of no account: exit 1"
"$MFPRIO" tree "${TREE[@]}" --top x >"$out" 2>"$err"
[ $? = 2 ] && ok "--top x: usage error" || bad "--top x: usage error"

# SVG: XML, at least 1400 wide, no tree box under 50 pixels, accounts
# coloured (Fair Tree: by level fair-share, so no grey account box)
"$MFPRIO" tree "${TREE[@]}" --svg "$T/t.svg" >"$out" 2>"$err"
rc=$?
if [ $rc = 0 ] && python3 - "$T/t.svg" >"$err" 2>&1 <<'PY'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
svg = d.documentElement
assert float(svg.getAttribute("width")) >= 1420, svg.getAttribute("width")
boxes = [g for g in d.getElementsByTagName("g") if g.getElementsByTagName("title")]
assert len(boxes) > 40, len(boxes)
for g in boxes:
    r = g.getElementsByTagName("rect")[0]
    t = g.getElementsByTagName("title")[0].firstChild.data
    assert float(r.getAttribute("width")) >= 49.99, (t, r.getAttribute("width"))
    if t.startswith("grp") or t.startswith("dept"):
        assert r.getAttribute("fill") != "#bbbbbb", t
PY
then ok "--svg: readable boxes, accounts coloured"; else bad "--svg: readable boxes, accounts coloured"; fi
# issue 26: at 5,000 users the picture names at least 20 associations in
# visible text (a <text> that is a whole account or user name of the
# assoc file; "grp0…" or "[515 …" does not count).  34 when written.
n=$(python3 - "$T/t.svg" "$S/assoc" <<'PY'
import sys, xml.dom.minidom
names = set()
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("|")
    names.add(f[1] or f[0])
d = xml.dom.minidom.parse(sys.argv[1])
print(sum(1 for t in d.getElementsByTagName("text")
          if t.firstChild and t.firstChild.data in names))
PY
)
[ "${n:-0}" -ge 20 ] && ok "--svg: $n associations named in visible text" ||
	bad "--svg: ${n:-no} associations named in visible text (at least 20 wanted)"
finish

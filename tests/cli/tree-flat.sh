#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `mfprio tree` on a flat site (bench/gen_site.py --flat: 200 accounts
# directly under root, 25 users each, no departments): the accounts named
# are the ones whose usage is furthest from their shares, computed here
# from the input files (|usage part - shares part| among root's children,
# ties by name), named uncut in the terminal tree and in the SVG's text,
# in that order in the terminal tree, the others summed in one "+N more
# accounts (U users)".
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "# no python3: the generated site cannot be made; skipped"
	exit 77
fi
S=$T/site
python3 "$TOP_SRCDIR/bench/gen_site.py" --flat "$S" >"$err" 2>&1 || { bad "gen_site.py --flat"; finish; }
TREE=(--assoc "$S/assoc" --usage "$S/usage" --conf "$S/slurm.conf" --color never)
"$MFPRIO" tree "${TREE[@]}" >"$T/tree.txt" 2>"$err" || bad "tree: exit status"
"$MFPRIO" tree "${TREE[@]}" --svg "$T/t.svg" 2>"$err" || bad "tree --svg: exit status"
# the ranking, from the files alone: accounts' shares and their users' usage
python3 - "$S/assoc" "$S/usage" >"$T/rank" <<'PY'
import sys
shares, users, use = {}, {}, {}
for line in open(sys.argv[1]):
    acct, user, parent, fs = line.rstrip("\n").split("|")
    if not user and parent == "root":
        shares[acct] = int(fs)
    elif user:
        users[acct] = users.get(acct, 0) + 1
for line in open(sys.argv[2]):
    acct, user, raw = line.rstrip("\n").split("|")
    use[acct] = use.get(acct, 0) + int(raw)
ts, tu = sum(shares.values()), sum(use.values())
gap = {a: abs(use.get(a, 0) / tu - shares[a] / ts) for a in shares}
for a in sorted(shares, key=lambda a: (-gap[a], a)):
    print(a, users.get(a, 0))
PY
[ "$(wc -l <"$T/rank")" = 200 ] || bad "the ranking: $(wc -l <"$T/rank") accounts"
# the accounts the terminal tree names, whole, one per row under root
grep -oE '^  acct[0-9]+ ' "$T/tree.txt" | tr -d ' ' | sort >"$T/shown.txt"
k=$(wc -l <"$T/shown.txt")
head -n "$k" "$T/rank" | cut -d' ' -f1 | sort >"$T/want"
if [ "$k" -ge 20 ] && cmp -s "$T/shown.txt" "$T/want"; then
	ok "text: $k accounts named, the $k largest gaps"
else
	bad "text: $k accounts named, against the $k largest gaps:"
	diff "$T/want" "$T/shown.txt" | sed 's/^/#   /'
fi
# in rank order, as the page draws them (largest gap first)
grep -oE '^  acct[0-9]+ ' "$T/tree.txt" | tr -d ' ' >"$T/order.txt"
if head -n "$k" "$T/rank" | cut -d' ' -f1 | cmp -s - "$T/order.txt"; then
	ok "text: the $k accounts in rank order, largest gap first"
else
	bad "text: the accounts not in rank order:"
	head -n "$k" "$T/rank" | cut -d' ' -f1 | diff - "$T/order.txt" | head -n 6 | sed 's/^/#   /'
fi
top20=$(head -n 20 "$T/rank" | cut -d' ' -f1)
miss=0
for a in $top20; do grep -q "^  $a " "$T/tree.txt" || miss=$((miss + 1)); done
[ $miss = 0 ] && ok "text: the 20 largest gaps named" || bad "text: $miss of the 20 largest gaps not named"
n=$((200 - k))
u=$(tail -n "$n" "$T/rank" | awk '{ s += $2 } END { print s + 0 }')
if grep -q "^  +$n more accounts ($u users) " "$T/tree.txt"; then
	ok "text: +$n more accounts ($u users)"
else
	bad "text: +$n more accounts ($u users) wanted:"
	grep '^  +' "$T/tree.txt" | cut -c1-60 | sed 's/^/#   /'
fi
# the SVG: every account named is a whole <text>, the same set as the
# text's, and the summary's count
if python3 - "$T/t.svg" "$T/want" "$n" "$u" $top20 >"$err" 2>&1 <<'PY'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
want = set(open(sys.argv[2]).read().split())
named = {t for t in texts if t.startswith("acct")}
assert named == want, (sorted(named - want), sorted(want - named))
for a in sys.argv[5:]:
    assert a in texts, a
more = "+%s more accounts (%s users)" % (sys.argv[3], sys.argv[4])
assert more in texts, [t for t in texts if t.startswith("+")]
PY
then ok "--svg: the same $k accounts named whole, the 20 largest gaps among them, +$n more accounts"
else bad "--svg: the accounts named"; sed 's/^/#   /' "$err"; fi
finish

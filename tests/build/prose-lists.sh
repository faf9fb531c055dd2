#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# prose-lists.sh: the lists written in prose say what they describe.
#
#   releases   In README.md, doc/ and the sources, a range of releases that
#              starts at the first series of release/releases.tsv ("22.05
#              to 26.11") ends at its last series, or at the last series of
#              a plugin family (where what the range says may change), and
#              a list of three or more series ("22.05, 23.02, ...") names
#              every series of the table in its order, or every series of
#              one family.  A series added to
#              the table and not to the prose fails here.
#   harnesses  doc/robustness.md's table of fuzz harnesses names exactly
#              the tests/fuzz/fuzz_*.c files, and tests/fuzz/run.sh runs
#              exactly those.
#
# Run by make check (from any directory); needs bash, perl and the tree.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }

series=$(sh "$top/release/releases.sh" series) || { bad "release/releases.sh series"; series=; }
first=$(echo "$series" | head -n 1)
last=$(echo "$series" | tail -n 1)
# the last series of each family (where a range may end), and the series
# of each family as a list
ends=$(grep -v '^#' "$top/release/releases.tsv" | awk -F'\t' 'NF > 1 { e[$2] = $1 } END { for (f in e) print e[f] }')
families=$(grep -v '^#' "$top/release/releases.tsv" | awk -F'\t' 'NF > 1 { m[$2] = m[$2] (m[$2] == "" ? "" : " ") $1 } END { for (f in m) print m[f] }')

files=("$top/README.md" "$top"/doc/*.md "$top"/doc/*.1)
while IFS= read -r f; do files+=("$f"); done < <(find "$top/src" -name '*.[ch]' | sort)

# each file as one line of text: troff requests, C comment leaders and
# Markdown emphasis taken out, so that a list broken over lines reads whole
flat() {
	perl -0777 -pe 's/^\.[A-Z]+ ?//mg; s/^\s*\*\s?//mg; s/\\-/-/g; s/[*`]//g; s/\s+/ /g' "$1"
}

ranges=0 lists=0
want_list=$(echo "$series" | paste -sd' ')
for f in "${files[@]}"; do
	rel=${f#"$top"/}
	text=$(flat "$f")
	while read -r to; do
		[[ -z $to ]] && continue
		ranges=$((ranges + 1))
		if [[ $to != "$last" ]] && ! grep -qx "$to" <<<"$ends"; then
			bad "$rel: \"$first to $to\": the table's last series is $last"
		fi
	done < <(perl -ne 'while (/\Q'"$first"'\E (?:to|through) (\d\d\.\d\d)/g) { print "$1\n" }' <<<"$text")
	while read -r list; do
		[[ -z $list ]] && continue
		lists=$((lists + 1))
		have=$(perl -ne 'print join(" ", /(\d\d\.\d\d)/g)' <<<"$list")
		[[ $have == "$want_list" ]] || grep -qxF "$have" <<<"$families" ||
			bad "$rel: the list \"$list\" is not the table's ($want_list)"
	done < <(perl -ne 'while (/(\d\d\.\d\d(?:,? (?:and )?\d\d\.\d\d){2,})/g) { print "$1\n" }' <<<"$text")
done
[[ $fail -eq 0 ]] && ok "$ranges ranges from $first and $lists lists of releases in prose end at $last"

# the fuzz harnesses
on_disk=$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//' | sort)
in_doc=$(grep -o '^| `fuzz_[a-z_]*`' "$top/doc/robustness.md" | sed 's/^| `fuzz_//; s/`$//' | sort)
in_run=$(sed -n 's/^all=(\(.*\))$/\1/p' "$top/tests/fuzz/run.sh" | tr ' ' '\n' | sort)
n=$(echo "$on_disk" | wc -l)
if [[ $in_doc == "$on_disk" ]]; then
	ok "doc/robustness.md names the $n harnesses of tests/fuzz"
else
	bad "doc/robustness.md's harnesses differ from tests/fuzz/fuzz_*.c:"
	diff <(echo "$in_doc") <(echo "$on_disk")
fi
if [[ $in_run == "$on_disk" ]]; then
	ok "tests/fuzz/run.sh runs the $n harnesses of tests/fuzz"
else
	bad "tests/fuzz/run.sh's harnesses differ from tests/fuzz/fuzz_*.c:"
	diff <(echo "$in_run") <(echo "$on_disk")
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

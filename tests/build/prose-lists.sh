#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# prose-lists.sh: the lists written in prose say what they describe.
#
#   releases   In README.md, doc/, the sources and the comments and
#              READMEs of tests/ and bench/, a range of releases ("22.05 to
#              26.11", "23.02.8 to 26.11.0-0rc1", micro releases counted as
#              their series) goes from a series of release/releases.tsv to
#              its last series, or to the last series of a plugin family
#              (where what the range says may change), and a list of three
#              or more series ("22.05, 23.02, ...") names every series of
#              the table in its order, or every series of one family.  The
#              plugin's entry files (src/plugin/entry/family_*.c) name the
#              series of their family, and the change tables of
#              src/plugin/access/releases.h and sprio.h end at the last
#              series.  A series added to the table and not to the prose
#              fails here.
#   exits      mfprio(1)'s EXIT STATUS lists exactly the statuses of
#              src/input/exit_status.h's mf_exit_t, the one enum every command
#              returns.
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
last=$(echo "$series" | tail -n 1)
# the last series of each family (where a range may end), and the series
# of each family as a list
ends=$(grep -v '^#' "$top/release/releases.tsv" | awk -F'\t' 'NF > 1 { e[$2] = $1 } END { for (f in e) print e[f] }')
families=$(grep -v '^#' "$top/release/releases.tsv" | awk -F'\t' 'NF > 1 { m[$2] = m[$2] (m[$2] == "" ? "" : " ") $1 } END { for (f in m) print m[f] }')

files=("$top/README.md" "$top"/doc/*.md "$top"/doc/*.1)
while IFS= read -r f; do files+=("$f"); done < <(find "$top/src" -name '*.[ch]' | sort)
# the tests' and benchmarks' scripts (their comments) and READMEs, not
# their data
while IFS= read -r f; do files+=("$f"); done < <(find "$top/tests" "$top/bench" -path "$top/tests/data" -prune -o -type f \( -name '*.sh' -o -name '*.py' -o -name 'README*' -o -name '*.md' \) -print | sort)

# each file as one line of text: troff requests, C and shell comment
# leaders and Markdown emphasis taken out, so that a list broken over lines
# reads whole
flat() {
	perl -0777 -pe 's/^\.[A-Z]+ ?//mg; s/^\s*[*#]+\s?//mg; s/\\-/-/g; s/[*`]//g; s/\s+/ /g' "$1"
}

ranges=0 lists=0
want_list=$(echo "$series" | paste -sd' ')
for f in "${files[@]}"; do
	rel=${f#"$top"/}
	text=$(flat "$f")
	while read -r from to range; do
		[[ -z $to ]] && continue
		ranges=$((ranges + 1))
		if ! grep -qx "$from" <<<"$series"; then
			bad "$rel: \"$range\": $from is no series of release/releases.tsv"
		elif [[ $to != "$last" ]] && ! grep -qx "$to" <<<"$ends"; then
			bad "$rel: \"$range\": the table's last series is $last ($to ends no plugin family)"
		fi
	done < <(perl -ne 'while (/\b((\d\d\.\d\d)(?:\.\d+[-0-9a-z]*)? (?:to|through) (\d\d\.\d\d)(?:\.\d+[-0-9a-z]*)?)/g) { print "$2 $3 $1\n" }' <<<"$text")
	while read -r list; do
		[[ -z $list ]] && continue
		lists=$((lists + 1))
		have=$(perl -ne 'print join(" ", /(\d\d\.\d\d)/g)' <<<"$list")
		[[ $have == "$want_list" ]] || grep -qxF "$have" <<<"$families" ||
			bad "$rel: the list \"$list\" is not the table's ($want_list)"
	done < <(perl -ne 'while (/(\d\d\.\d\d(?:,? (?:and )?\d\d\.\d\d){2,})/g) { print "$1\n" }' <<<"$text")
done
[[ $fail -eq 0 ]] && ok "$ranges ranges and $lists lists of releases in prose end at $last or a family's end"

# the plugin's entry files: "family_2511: the entry points of Slurm 25.11,
# 26.05 and 26.11." names the series the table gives that family
fam_ok=0
for f in "$top"/src/plugin/entry/family_*.c; do
	fam=$(basename "$f" .c)
	fam=${fam#family_}
	fam=${fam:0:2}.${fam:2}
	want=$(grep -v '^#' "$top/release/releases.tsv" | awk -F'\t' -v f="$fam" 'NF > 1 && $2 == f { print $1 }' | paste -sd' ')
	have=$(flat "$f" | perl -ne 'print join(" ", /entry points of Slurm (\d\d\.\d\d(?:(?:,|,? and) \d\d\.\d\d)*)/ ? ($1 =~ /(\d\d\.\d\d)/g) : ())')
	if [[ -n $want && $have == "$want" ]]; then
		fam_ok=$((fam_ok + 1))
	else
		bad "${f#"$top"/}: names the series \"$have\"; release/releases.tsv gives family $fam \"$want\""
	fi
done
[[ $fam_ok -gt 0 ]] && ok "$fam_ok entry files name the series of their family"

# the change tables of the plugin's access layer end at the last series
for f in src/plugin/access/releases.h src/plugin/access/sprio.h; do
	end=$(grep -oE '^ \*( \|)? +[0-9]{2}\.[0-9]{2} ' "$top/$f" | grep -oE '[0-9]{2}\.[0-9]{2}' | tail -n 1)
	if [[ $end == "$last" ]]; then
		ok "$f: its table of releases ends at $last"
	else
		bad "$f: its table of releases ends at ${end:-nothing}, the table's last series is $last"
	fi
done

# the exit statuses: the enum's values, the man page's items
in_enum=$(perl -ne 'print "$1\n" if /^\s*MF_EXIT_[A-Z_]+ = (\d+),/' "$top/src/input/exit_status.h" | sort -n | paste -sd' ')
in_man=$(perl -0777 -ne 'if (/^\.SH EXIT STATUS\n(.*?)^\.SH /ms) { my $x = $1; print join(" ", sort { $a <=> $b } ($x =~ /^\.TP\n\.B (\d+)$/mg)) }' "$top/doc/mfprio.1")
if [[ -n $in_enum && $in_enum == "$in_man" ]]; then
	ok "mfprio(1)'s EXIT STATUS lists mf_exit_t's statuses ($in_enum)"
else
	bad "mfprio(1)'s EXIT STATUS lists \"$in_man\", src/input/exit_status.h's mf_exit_t \"$in_enum\""
fi

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

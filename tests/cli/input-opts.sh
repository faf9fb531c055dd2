#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The input options of every command are the one table of
# src/cmd/input_opts.def: each command accepts an input option exactly
# when its --help lists it, spelled as the table spells it (name and
# argument), and mfprio(1)'s INPUT OPTIONS section is the table's text.
#
#   tests/cli/input-opts.sh --man   prints that section as it should be
#                                   (to paste into doc/mfprio.1)
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"
DEF=$TOP_SRCDIR/src/cmd/input_opts.def
MAN=$TOP_SRCDIR/doc/mfprio.1
# every command that reads a snapshot's files (snapshot writes them)
CMDS="fairshare priority compare why check tree replay metrics report"

# the table: "name ARG" a line ("name" alone for an option without one)
sed -n 's/^MF_IOPT([A-Z_]*, "\([a-z-]*\)", \(NULL\|"\([^"]*\)"\),.*/\1 \3/p' "$DEF" |
	sed 's/ $//' >"$T/table"
n=$(wc -l <"$T/table")

# a value each argument takes without complaint before --help
sample() {
	case $1 in
	FILE) echo /dev/null ;; DIR) echo /nonexistent ;; TIME) echo now ;;
	VER) echo 23.11 ;; KEY=VALUE) echo PriorityWeightAge=1 ;;
	FLAGS) echo NO_FAIR_TREE ;; N) echo 2 ;; *) echo x ;;
	esac
}

# mfprio(1): the section between its markers, and what the table makes of
# it: each option's name and argument, then its help (from the --help of
# metrics, which takes them all) on one line
man_section() {
	while read -r name arg; do
		echo ".TP"
		if [ -n "$arg" ]; then
			echo ".BI \\-\\-$name \" $arg\"" | sed 's/\(\\-\\-[a-z]*\)-/\1\\-/'
		else
			echo ".B \\-\\-$name"
		fi
		# the help: the option's line and its continuation lines
		"$MFPRIO" metrics --help | awk -v opt="  --$name" '
			on && /^                     [^ ]/ { sub(/^ +/, ""); printf " %s", $0; next }
			on { exit }
			index($0, opt " ") == 1 || $0 == opt {
				on = 1; line = substr($0, 22); sub(/^ +/, "", line)
				if (line != "") printf "%s", line
			}
			END { print "" }' | sed 's/^ //; s/-/\\-/g'
	done <"$T/table"
}
if [ "${1:-}" = --man ]; then
	man_section
	exit 0
fi

[ "$n" -ge 13 ] && ok "input_opts.def: $n options" || bad "input_opts.def: $n options read"

for c in $CMDS; do
	"$MFPRIO" "$c" --help >"$T/help" 2>"$err" || bad "$c --help"
	while read -r name arg; do
		if [ -n "$arg" ]; then
			"$MFPRIO" "$c" "--$name" "$(sample "$arg")" --help >"$out" 2>"$err"
		else
			"$MFPRIO" "$c" "--$name" --help >"$out" 2>"$err"
		fi
		rc=$?
		accepted=no
		[ $rc -eq 0 ] && head -n 1 "$out" | grep -q '^Usage:' && accepted=yes
		listed=$(grep -c -- "^  --$name\( \|$\)" "$T/help")
		spelled=$(grep -c -- "^  --$name${arg:+ $arg}\( \|$\)" "$T/help")
		if [ "$accepted" = yes ] && [ "$listed" = 1 ] && [ "$spelled" = 1 ]; then
			ok "$c takes --$name${arg:+ $arg} and its --help says so"
		elif [ "$accepted" = no ] && [ "$listed" = 0 ] && [ "$rc" = 2 ]; then
			ok "$c refuses --$name and its --help does not list it"
		else
			echo "# accepted $accepted (exit $rc), listed $listed, spelled --$name${arg:+ $arg} $spelled"
			bad "$c --$name: accepted and --help disagree"
		fi
	done <"$T/table"
done

man_section >"$T/want"
sed -n '/^\.\\" input options: generated/,/^\.\\" end of the input options/p' "$MAN" |
	sed '1d;$d' | sed -n '/^\.TP$/,$p' >"$T/have"
if [ -s "$T/have" ] && cmp -s "$T/want" "$T/have"; then
	ok "mfprio(1)'s INPUT OPTIONS are input_opts.def's"
else
	diff "$T/have" "$T/want" | head -20 | sed 's/^/# /'
	bad "mfprio(1)'s INPUT OPTIONS differ from input_opts.def (tests/cli/input-opts.sh --man prints them)"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# outputs.sh: every command's output, byte for byte, against a record
# taken with another binary (the one before a refactoring).
#
# Usage: tests/cli/outputs.sh record DIR [BIG]
#        tests/cli/outputs.sh compare DIR [BIG]
#   DIR  where the record is (record: made, or emptied first)
#   BIG  a directory of bench/gen_jobs.py (slurm.conf, qos.txt, assoc.txt,
#        usage.txt, jobs.txt; 1M jobs: `python3 bench/gen_jobs.py BIG
#        1000000`): the commands of outputs-big.list are run on it too
# MFPRIO is the binary (default: mfprio in PATH).
#
# The invocations are those of outputs.list (every one that the tests of
# tests/cli make on tests/data and examples/ alone, and a few more) and, with
# BIG, outputs-big.list: lines of shell words, run from a scratch
# directory where data/ is tests/data, examples/ is examples/ and out/ is
# an empty directory for the files a command writes, with TZ=UTC and no
# stdin.  Of each: stdout, stderr, the exit status and every file under
# out/ (of BIG's: the SHA-256 of stdout, not stdout).  compare prints each
# invocation whose record differs, then "N same, M differ" and exits 1 if
# any differs.  Not run by make check: the record is of another binary.
#
# Run on 2026-12-07, the binary of 458e0db (before the one input path of
# issue 38, and before issue 36's page and wording) against main's: 1,184
# invocations, 982 the same, 202 differing, every one of them by design:
# the help and usage texts list the options every command now takes
# (--damp, --set, --cluster; 130 of them), a usage error is followed by
# the command's usage as in the other commands (check, compare, metrics,
# report), option values are refused before the inputs are read (--damp 0
# and --flags BOGUS with a bad --snapshot: exit 2, not 1), the one reader
# of the Priority* settings words its warnings one way for fairshare and
# tree alike, the page's style and script (issue 36) and why's wording
# (issue 36).  No figure of a table, tree, JSON or metrics file differs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mode=${1:-} dir=${2:-} big=${3:-}
case $mode in record | compare) ;; *)
	echo "usage: $0 record|compare DIR [BIG]" >&2
	exit 2
	;;
esac
[ -n "$dir" ] || { echo "$0: DIR is needed" >&2; exit 2; }
if [ -n "$big" ]; then
	big=$(cd "$big" && pwd) || exit 2
	[ -s "$big/jobs.txt" ] || { echo "$0: no $big/jobs.txt" >&2; exit 2; }
fi
# the binary: MFPRIO, else the one on PATH (the project's own command, not
# a package's)
prog=mfprio
mfprio=${MFPRIO:-$(command -v "$prog")}
case $mfprio in /*) ;; *) mfprio=$PWD/$mfprio ;; esac
[ -x "$mfprio" ] || { echo "$0: no mfprio binary (set MFPRIO)" >&2; exit 2; }
TZ=UTC
export TZ

S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT
ln -s "$top/tests/data" "$S/data"
ln -s "$top/examples" "$S/examples"
[ -z "$big" ] || ln -s "$big" "$S/big"
if [ "$mode" = record ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	rec=$dir
else
	[ -d "$dir/small" ] || { echo "$0: no record in $dir" >&2; exit 2; }
	rec=$S/new
fi
same=0 differ=0

# run KIND N WORDS: the invocation N of list KIND into $rec/KIND/N.*
run() {
	kind=$1 n=$2 words=$3 o=$rec/$1/$2
	rm -rf "$S/out"
	mkdir -p "$S/out" "$rec/$kind"
	printf '%s\n' "$words" >"$o.cmd"
	eval "set -- $words"
	if [ "$kind" = big ]; then
		{ (cd "$S" && "$mfprio" "$@" 2>"$o.err" </dev/null)
		  echo $? >"$o.rc"; } | sha256sum >"$o.out"
	else
		(cd "$S" && exec "$mfprio" "$@" >"$o.out" 2>"$o.err" </dev/null)
		echo $? >"$o.rc"
	fi
	(cd "$S/out" && find . -type f | sort | while IFS= read -r f; do
		echo "== $f"
		cat "$f"
	done) >"$o.files"
}

# check KIND N: the invocation's files against the record's
check() {
	d=
	for x in cmd out err rc files; do
		cmp -s "$rec/$1/$2.$x" "$dir/$1/$2.$x" || d="$d $x"
	done
	if [ -z "$d" ]; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "differs ($1 $2:$d): $(cat "$rec/$1/$2.cmd")"
	fi
}

each() {
	kind=$1 list=$2 n=0
	while IFS= read -r words; do
		case $words in '' | '#'*) continue ;; esac
		n=$((n + 1))
		run "$kind" "$n" "$words"
		[ "$mode" = compare ] && check "$kind" "$n"
	done <"$list"
}

each small "$here/outputs.list"
[ -z "$big" ] || each big "$here/outputs-big.list"
if [ "$mode" = record ]; then
	echo "recorded: $(find "$dir" -name "*.cmd" | wc -l) invocations in $dir"
	exit 0
fi
echo "$same same, $differ differ"
[ "$differ" -eq 0 ]

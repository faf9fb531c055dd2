#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report-html.sh: `mfprio report --html` opened in a real browser
# (Debian's chromium, headless, through chromium-driver and
# python3-selenium; tests/browser/report_html.py does the clicking), on
# the 12-association example snapshot and on a generated site of 200
# accounts, 5,000 users and 100,000 jobs (bench/gen_jobs.py), each page
# checked against `mfprio fairshare --json` and `mfprio priority --json`
# run apart on the same inputs; then the first view of that site and of
# its flat form (200 accounts under root) against figures computed from
# the input files (tests/browser/first_view.py); and one user's page
# (report --user, tests/browser/user_page.py); two controls that the first
# view's checks fail on inputs not the page's own; and the History section
# of report --history over snapshots of that site (tests/browser/history.py).
#
#   MFPRIO=BUILD/mfprio tests/browser/report-html.sh [SCREENSHOT]
#
# SCREENSHOT: where the first view of the big site at 1400x900 is written
# (default: none kept; doc/report-html.png is one).
# Exit 77 (skipped, the reason on the last line) when chromium,
# chromium-driver or python3-selenium is not installed
# (tests/install-deps installs them).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MFPRIO=${MFPRIO:-$top/mfprio}
py=/usr/bin/python3
for need in /usr/bin/chromium /usr/bin/chromedriver; do
	if [[ ! -x $need ]]; then
		echo "SKIPPED: $need is not installed (tests/install-deps installs chromium and chromium-driver)"
		exit 77
	fi
done
if ! "$py" -c 'import selenium' 2>/dev/null; then
	echo "SKIPPED: $py cannot import selenium (tests/install-deps installs python3-selenium)"
	exit 77
fi
[[ -x $MFPRIO ]] || { echo "report-html.sh: $MFPRIO: no mfprio built (set MFPRIO)" >&2; exit 2; }
T=$(mktemp -d /tmp/mfprio-browser.XXXXXX)
passes=0 fails=0
# the temporary directory is kept when a check failed (its pages and JSON)
trap '[[ $fails = 0 ]] && rm -rf "$T" || rm -rf "$T/site"' EXIT
shot=${1:-$T/report-html.png}
# the checks' tally, for the closing "N passed, M failed" (tests/run-all
# counts a run that ran no check as failed): this script's own checks
# (ok_, bad_) and every "ok - " / "not ok - " line of the checkers it runs
# (pyc); a checker that fails without a "not ok" line counts as one.  The
# run has failed when FAILS is not 0.
ok_() { echo "ok - $*"; passes=$((passes + 1)); }
bad_() { echo "not ok - $*"; fails=$((fails + 1)); }
pyc() {
	local log rc n
	log=$(mktemp "$T/checker.XXXXXX")
	"$py" "$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	passes=$((passes + $(grep -c '^ok - ' "$log")))
	n=$(grep -c '^not ok - ' "$log")
	((rc == 0 || n > 0)) || n=1
	fails=$((fails + n))
	rm -f "$log"
	return "$rc"
}
finish_() {
	echo "$passes passed, $fails failed"
	exit "$1"
}
# bounded NAME PAGE: PAGE within the issue's bound on a page's size
bounded() {
	local size
	size=$(stat -c %s "$2")
	if ((size <= 5000000)); then
		ok_ "$1: $size bytes (bound 5,000,000)"
	else
		bad_ "$1: $size bytes (bound 5,000,000)"
	fi
}
export TZ=UTC


# pages NAME TOP ARGS...: write $T/NAME.html, fairshare and priority JSON
pages() {
	local name=$1 top_n=$2; shift 2
	"$MFPRIO" report --html "$T/$name.html" --top "$top_n" "$@" &&
		"$MFPRIO" fairshare --json "$@" >"$T/$name-fs.json" &&
		"$MFPRIO" priority --json "$@" >"$T/$name-pr.json"
}
run() {
	echo "# $1"
	pyc "$top/tests/browser/report_html.py" "$T/$1.html" "$T/$1-fs.json" \
		"$T/$1-pr.json" "$2" ${3:+"$3"}
}

# fairshare takes no --jobs: the big site's inputs by option
ex="$top/examples/snapshot"
if pages example 200 --snapshot "$ex" 2>"$T/err"; then
	run example 200
else
	bad_ "report on the example snapshot: $(cat "$T/err")"
fi

"$py" "$top/bench/gen_jobs.py" "$T/site" 100000 1 >/dev/null || { bad_ "gen_jobs.py"; finish_ 1; }
S=$T/site
"$MFPRIO" report --html "$T/big.html" --top 200 --conf "$S/slurm.conf" \
	--jobs "$S/jobs.txt" --qos "$S/qos.txt" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" 2>"$T/err" || { bad_ "report on the big site: $(cat "$T/err")"; finish_ 1; }
# the issue's bound on the size (its time bound, 2 s to write, is measured
# by bench/bench_report.sh: this test runs beside the cluster tests)
bounded "big site (5,000 users, 100,000 jobs)" "$T/big.html"
"$MFPRIO" fairshare --json --conf "$S/slurm.conf" --assoc "$S/assoc.txt" \
	--usage "$S/usage.txt" >"$T/big-fs.json" &&
	"$MFPRIO" priority --json --conf "$S/slurm.conf" --jobs "$S/jobs.txt" \
	--qos "$S/qos.txt" --assoc "$S/assoc.txt" --usage "$S/usage.txt" >"$T/big-pr.json" ||
	{ bad_ "the commands' JSON of the big site"; finish_ 1; }
run big 200 "$shot"

# the first view as a person sees it, on the two shapes of the same jobs
# and users: departments over accounts (gen_jobs.py's), and flat (its
# accounts moved under root, the departments gone); checked against
# figures tests/browser/first_view.py computes from the input files.
# DOCSHOTS=DIR: doc/report-deep.png and doc/report-flat.png written there
cp -r "$S" "$T/flat"
sed -i -e '/^dept[0-9]*||root|/d' -e 's/^\(acct[0-9]*\)||dept[0-9]*|/\1||root|/' "$T/flat/assoc.txt"
for shape in deep flat; do
	D=$S; [[ $shape = flat ]] && D=$T/flat
	if "$MFPRIO" report --html "$T/$shape.html" --now 2023-11-14T22:13:20 \
		--conf "$D/slurm.conf" --jobs "$D/jobs.txt" --qos "$D/qos.txt" \
		--assoc "$D/assoc.txt" --usage "$D/usage.txt" 2>"$T/err"; then
		echo "# first view, $shape site"
		bounded "$shape site's page" "$T/$shape.html"
		pyc "$top/tests/browser/first_view.py" "$T/$shape.html" "$D" 1700000000 \
			${DOCSHOTS:+"$DOCSHOTS/report-$shape.png"}
	else
		bad_ "report on the $shape site: $(cat "$T/err")"
	fi
done
# the first view's checks can fail: the flat page read against inputs
# that are not its own must fail the names check (every account renamed
# in the inputs) and the values check (one account's usage tripled)
control() {     # control WHAT DIR PATTERN: first_view.py fails, saying PATTERN
	local out
	out=$("$py" "$top/tests/browser/first_view.py" "$T/flat.html" "$2" 1700000000 2>&1)
	if [[ $? -ne 0 ]] && grep -q "^not ok - $3" <<<"$out"; then
		ok_ "control: the first view's checks fail with $1 ($(grep -c '^not ok' <<<"$out") not ok, '$3' among them)"
	else
		bad_ "control: the first view's checks did not fail with $1"
	fi
}
if [[ -s $T/flat.html ]]; then
	cp -r "$T/flat" "$T/renamed"
	sed -i 's/acct\([0-9]\)/acnt\1/g' "$T/renamed/assoc.txt" "$T/renamed/usage.txt" "$T/renamed/jobs.txt"
	control "every account renamed in the inputs" "$T/renamed" "first view: [0-9]* account names displayed"
	cp -r "$T/flat" "$T/tripled"
	# the account with most usage lines: its users' usage times three
	a=$(cut -d'|' -f1 "$T/flat/usage.txt" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	awk -F'|' -v OFS='|' -v a="$a" '$1 == a { $3 = $3 * 3 } { print }' \
		"$T/flat/usage.txt" >"$T/tripled/usage.txt"
	control "$a's usage tripled in the inputs" "$T/tripled" "summary: the ten largest gaps"
	rm -rf "$T/renamed" "$T/tripled"
fi
# one user's page (report --user), built by user_page.py from
# tests/data/wait: the user's jobs and ranks in the first view, the
# administrator's banner first
echo "# the user page"
pyc "$top/tests/browser/user_page.py" "$MFPRIO" "$top"
# the History section (report --history): six snapshots of the big
# site made by history.py, each chart's figures and markers against
# figures it computes from their files (DOCSHOTS: doc/report-history.png)
echo "# the History section"
pyc "$top/tests/browser/history.py" "$MFPRIO" "$S" \
	${DOCSHOTS:+"$DOCSHOTS/report-history.png"}
[[ $fails = 0 ]] || echo "# pages and JSON kept in $T"
[[ $fails = 0 ]] && echo "report-html.sh: all passed" || echo "report-html.sh: FAILED"
finish_ $((fails > 0))

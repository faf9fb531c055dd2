# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check-lib.sh: the preamble of a test of this directory: where it is, which
# instance and release (instance.sh), and its checks' bookkeeping (ok,
# not_ok, check, skip_part, finish, ending with "N passed, M failed", or
# "N passed, M failed, K skipped" when a part of the test was left out)
# and the checks the tests share, each taking its description once (has,
# lacks, same, expect_fail, refused).  Sourced, not run; plugin-lib.sh
# sources it for the tests that drive a cluster.
# Sets: here top pass fail skipped test_name out, and what instance.sh sets

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"
pass=0
fail=0
skipped=0
test_name=$(basename "$0" .sh)
out=$(mktemp -d "/tmp/mfprio-$test_name-XXXXXX")

say() { printf '%s: %s\n' "$test_name" "$*"; }

ok() {
	pass=$((pass + 1))
	say "ok: $*"
}

not_ok() {
	fail=$((fail + 1))
	say "FAILED: $*"
}

# check DESCRIPTION COMMAND...: a passing or failing assertion.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# skip_part WHAT WHY: a part of the test not run, counted and named on a
# line "NAME: SKIPPED: WHAT: WHY" (WHAT without ": "), which matrix.sh
# records as a skip of the check
skip_part() {
	skipped=$((skipped + 1))
	say "SKIPPED: $1: $2"
}

# has DESCRIPTION FILE TEXT...: FILE holds every TEXT (fixed strings).
has() {
	local what=$1 file=$2 t
	shift 2
	for t in "$@"; do
		if ! grep -qF -- "$t" "$file"; then
			say "  missing in $file: $t"
			not_ok "$what"
			return 1
		fi
	done
	ok "$what"
}

# lacks DESCRIPTION FILE TEXT...: FILE holds none of TEXT.
lacks() {
	local what=$1 file=$2 t
	shift 2
	for t in "$@"; do
		if grep -qF -- "$t" "$file"; then
			say "  should not be in $file: $t"
			not_ok "$what"
			return 1
		fi
	done
	ok "$what"
}

# same DESCRIPTION FILE1 FILE2: the two files are the same, byte for byte
# (their first differences said when not).
same() {
	local what=$1
	if cmp -s "$2" "$3"; then
		ok "$what"
	else
		diff "$2" "$3" | head -n 20 | sed 's/^/  /'
		not_ok "$what"
		return 1
	fi
}

# expect_fail DESCRIPTION COMMAND...: COMMAND fails (exits non-zero).
expect_fail() {
	local what=$1
	shift
	if "$@"; then not_ok "$what: it succeeded"; return 1; fi
	ok "$what"
}

# refused DESCRIPTION TEXT COMMAND...: COMMAND fails and says TEXT (a fixed
# string) on stdout or stderr.
refused() {
	local what=$1 text=$2 said
	shift 2
	if said=$("$@" 2>&1); then
		not_ok "$what: it succeeded"
		return 1
	fi
	if ! grep -qF -- "$text" <<<"$said"; then
		say "  it said: $(head -c 300 <<<"$said")"
		not_ok "$what: not \"$text\""
		return 1
	fi
	ok "$what"
}

# finish: the summary line; fails if a check failed or none ran
# KEEP_ON_FAILURE: paths (an instance's log directory, say) copied into
# OUT/kept when a check failed, before the next test's fresh start wipes
# them
KEEP_ON_FAILURE=()
finish() {
	local k
	((pass + fail > 0)) || not_ok "no check ran"
	if ((fail > 0)) && ((${#KEEP_ON_FAILURE[@]})); then
		mkdir -p "$out/kept"
		for k in "${KEEP_ON_FAILURE[@]}"; do
			[[ -e $k ]] && cp -r "$k" "$out/kept/" 2>/dev/null
		done
		say "on failure, kept: ${KEEP_ON_FAILURE[*]}"
		# the last fatal and error lines of the logs kept, where the
		# matrix's tail of this test's log shows them
		find "$out/kept" -name '*.log' -type f 2>/dev/null | sort | while read -r k; do
			grep -hE 'fatal|error:|assert|Segmentation|signal' "$k" 2>/dev/null |
				tail -n 6 | sed "s|^|  ${k#"$out"/kept/}: |"
		done
	fi
	say "outputs kept in $out"
	if ((skipped)); then
		echo "$pass passed, $fail failed, $skipped skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[[ $fail -eq 0 ]]
	exit
}

# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check-lib.sh: the preamble of a test of this directory: where it is, which
# instance and release (instance.sh), and its checks' bookkeeping (ok,
# not_ok, check, finish, ending with "N passed, M failed").  Sourced, not
# run; plugin-lib.sh sources it for the tests that drive a cluster.
# Sets: here top pass fail test_name out, and what instance.sh sets

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=instance.sh source-path=SCRIPTDIR disable=SC1091
. "$here/instance.sh"
pass=0
fail=0
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

finish() {
	say "outputs kept in $out"
	echo "$pass passed, $fail failed"
	[[ $fail -eq 0 ]]
	exit
}

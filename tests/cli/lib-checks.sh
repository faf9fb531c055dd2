#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lib-checks.sh: the shared checks of lib.sh fail when they should.  Each
# one is run in a subshell on a case that holds and on one that does not;
# the first must print "ok - ", the second "not ok - ".
. "${TOP_SRCDIR:?set TOP_SRCDIR}/tests/cli/lib.sh"

# verdict WANT NAME CHECK ARGS...: CHECK ARGS, in a subshell, says WANT
# ("ok" or "not ok") about NAME
verdict() {
	want=$1 name=$2
	shift 2
	got=$( ("$@") 2>&1 | grep -E '^(not )?ok - ' | sed 's/ - .*//')
	if [ "$got" = "$want" ]; then ok "$name: $want"
	else echo "# said '$got'"; bad "$name: $want"; fi
}

printf 'one line\nsecond line\n' >"$T/a"
cp "$T/a" "$T/b"
printf 'one line\n' >"$T/c"

verdict ok "check" check "true" true
verdict "not ok" "check" check "false" false
mf --help
verdict ok "has" has "help" 0 "Usage: mfprio"
verdict "not ok" "has: another exit status" has "help" 2 "Usage: mfprio"
verdict "not ok" "has: a text it lacks" has "help" 0 "no such text"
verdict "not ok" "has -x: a part of a line" has -x "help" 0 "Usage:"
verdict ok "lacks" lacks "help" "no such text"
verdict "not ok" "lacks" lacks "help" "Usage: mfprio"
verdict ok "refused" refused "bogus" 2 "unknown command 'bogus'" bogus
verdict "not ok" "refused: another exit status" refused "bogus" 1 \
	"unknown command 'bogus'" bogus
verdict "not ok" "refused: a text it lacks" refused "bogus" 2 "no such" bogus
verdict "not ok" "refused: output on stdout" refused "help" 0 "" --help
# a warning on stderr, the table on stdout
verdict ok "expect_fail: stdout not looked at" expect_fail "warned" 0 \
	"has no effect" fairshare --damp 3 \
	--assoc "$TOP_SRCDIR/tests/data/fairshare/opts/assoc.txt"
verdict "not ok" "refused: the same, with its stdout" refused "warned" 0 \
	"has no effect" fairshare --damp 3 \
	--assoc "$TOP_SRCDIR/tests/data/fairshare/opts/assoc.txt"
verdict "not ok" "expect_fail" expect_fail "bogus" 2 "no such" bogus
verdict ok "same" same "same files" "$T/a" "$T/b"
verdict "not ok" "same" same "other files" "$T/a" "$T/c"
finish

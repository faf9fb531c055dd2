# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh disable=SC2034
# lib.sh: what the command tests of tests/cli share.  Sourced, not run:
#     . "$TOP_SRCDIR/tests/cli/lib.sh"
# Needs MFPRIO (the mfprio binary) and TOP_SRCDIR (the source tree), as
# `make check` sets them.  Sets TZ=UTC (the fixtures' times are UTC:
# scontrol writes local time), pass and fail, and a scratch directory T
# (removed at exit) with out and err, two files in it for a command's
# output.
#   ok NAME          a check passed
#   bad NAME [N]     a check failed: NAME, then the first N (default 20)
#                    lines of err and out, indented
#   finish           the summary line; the exit status (1 if any failed)
set -u
: "${MFPRIO:?set MFPRIO to the mfprio binary}"
: "${TOP_SRCDIR:?set TOP_SRCDIR}"
TZ=UTC
export TZ
pass=0 fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
out=$T/out err=$T/err
: >"$out"
: >"$err"

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() {
	fail=$((fail + 1))
	echo "not ok - $1"
	sed 's/^/#   /' "$err" "$out" 2>/dev/null | head -"${2:-20}"
}
finish() {
	echo "# $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# The columns the recorded sshare outputs under tests/data were taken with
# (sshare -a -l -P -o FS9); mfprio fairshare -o FS9 prints the same ones.
FS9=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS

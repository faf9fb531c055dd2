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
#   finish           the summary line; the exit status (1 if any failed,
#                    or if no check ran: a test that checked nothing
#                    must not pass)
# and the checks the tests share, each taking its name once:
#   mf ARGS...       run "$MFPRIO" ARGS: stdout in out, stderr in err, the
#                    exit status in rc (what the checks below read)
#   check NAME CMD...   NAME passes when CMD succeeds
#   has [-x] NAME RC TEXT...   the last run exited RC and the file in
#                    `in` (default: out) holds every TEXT, a fixed string
#                    (-x: as a whole line)
#   lacks NAME TEXT...   that file holds none of TEXT
#   refused NAME RC TEXT [ARGS...]   with ARGS, mf ARGS first; the run
#                    exited RC, printed nothing on stdout and TEXT (a fixed
#                    string) on stderr
#   expect_fail NAME RC TEXT [ARGS...]   the same, stdout not looked at
#   same NAME FILE1 FILE2   the two files are the same, byte for byte (their
#                    diff shown when not)
set -u
: "${MFPRIO:?set MFPRIO to the mfprio binary}"
: "${TOP_SRCDIR:?set TOP_SRCDIR}"
TZ=UTC
export TZ
pass=0 fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
out=$T/out err=$T/err rc=0
: >"$out"
: >"$err"

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() {
	fail=$((fail + 1))
	echo "not ok - $1"
	sed 's/^/#   /' "$err" "$out" 2>/dev/null | head -"${2:-20}"
}
mf() {
	rc=0
	"$MFPRIO" "$@" >"$out" 2>"$err" || rc=$?
}

check() {
	_name=$1
	shift
	if "$@"; then ok "$_name"; else bad "$_name"; fi
}

has() {
	_x=
	if [ "$1" = -x ]; then _x=x; shift; fi
	_name=$1 _want=$2
	shift 2
	if [ "$rc" != "$_want" ]; then
		echo "# exit status $rc, wanted $_want"; bad "$_name"; return
	fi
	for _t in "$@"; do
		if ! grep -q"$_x"F -- "$_t" "${in:-$out}"; then
			echo "# missing${_x:+ line}: $_t"; bad "$_name"; return
		fi
	done
	ok "$_name"
}

lacks() {
	_name=$1
	shift
	for _t in "$@"; do
		if grep -qF -- "$_t" "${in:-$out}"; then
			echo "# should not say: $_t"; bad "$_name"; return
		fi
	done
	ok "$_name"
}

# _fails NAME RC TEXT EMPTY [ARGS...]: refused's and expect_fail's check
# (EMPTY yes: stdout must be empty)
_fails() {
	_name=$1 _want=$2 _text=$3 _empty=$4
	shift 4
	[ $# -eq 0 ] || mf "$@"
	if [ "$rc" != "$_want" ]; then
		echo "# exit status $rc, wanted $_want"; bad "$_name"
	elif [ "$_empty" = yes ] && [ -s "$out" ]; then
		echo "# output on stdout"; bad "$_name"
	elif ! grep -qF -- "$_text" "$err"; then
		echo "# missing on stderr: $_text"; bad "$_name"
	else
		ok "$_name"
	fi
}

refused() {
	_a=$1 _b=$2 _c=$3
	shift 3
	_fails "$_a" "$_b" "$_c" yes "$@"
}

expect_fail() {
	_a=$1 _b=$2 _c=$3
	shift 3
	_fails "$_a" "$_b" "$_c" no "$@"
}

same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		diff "$2" "$3" | head -n 20 | sed 's/^/#   /'
		bad "$1"
	fi
}

# wait_case DIR REASON [STATE PRIO DEP ELIG RESV]: DIR made with
# tests/data/wait's dumps and, in DIR/jobs.1, job.in's job 123 in STATE
# (PENDING) for REASON; the caller makes DIR/jobs of it.
wait_case() {
	mkdir -p "$1"
	for _wf in config sprio sshare time; do cp "$TOP_SRCDIR/tests/data/wait/$_wf" "$1/"; done
	sed -e "s/@PRIO@/${4:-1800}/" -e "s/@STATE@/${3:-PENDING}/" \
		-e "s/@REASON@/$2/" -e "s/@DEP@/${5:-(null)}/" \
		-e "s/@ELIG@/${6:-2023-11-12T22:13:20}/" \
		-e "s/@RESV@/${7:-(null)}/" "$TOP_SRCDIR/tests/data/wait/job.in" >"$1/jobs.1"
}

# why_flat DIR [ARGS]: `mfprio why 123` on DIR (out, err, rc), its text
# with the lines joined (the sentences wrap) in $T/flat
why_flat() {
	local d=$1
	shift
	"$MFPRIO" why 123 --snapshot "$d" "$@" >"$out" 2>"$err"
	rc=$?
	tr -s '\n ' '  ' <"$out" >"$T/flat"
}


finish() {
	[ $((pass + fail)) -gt 0 ] || bad "no check ran"
	echo "# $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

# The columns the recorded sshare outputs under tests/data were taken with
# (sshare -a -l -P -o FS9); mfprio fairshare -o FS9 prints the same ones.
FS9=Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS

# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# lib.sh: the preamble bench_mfprio.sh, bench_replay.sh and bench_vs_grep.sh
# share.  Sourced, not run, with `here` set to this directory:
#     here=$(cd "$(dirname "$0")" && pwd)
#     . "$here/lib.sh"
# Sets TZ=UTC (the generated dumps' times are UTC) and name (the script's,
# for messages).
#   find_mfprio [MFPRIO]    sets mfprio: MFPRIO, else _build/bench/mfprio,
#                           else mfprio in PATH
#   need_time               exits unless GNU time is at /usr/bin/time
#   make_jobs DIR N         a dump of N pending jobs in DIR
#                           (bench/gen_jobs.py) unless DIR/jobs.txt is there
#   make_history DIR N      N records of history in DIR
#                           (bench/gen_history.py) unless DIR/sacct.txt is
: "${here:?set here to the bench directory}"
name=$(basename "$0" .sh)
TZ=UTC
export TZ

find_mfprio() {
	mfprio=${1:-}
	if [ -z "$mfprio" ]; then
		if [ -x "$here/../_build/bench/mfprio" ]; then
			mfprio=$here/../_build/bench/mfprio
		else
			mfprio=$(command -v mfprio)
		fi
	fi
}

need_time() {
	if [ ! -x /usr/bin/time ]; then
		echo "$name: /usr/bin/time is missing (apt-get install time)" >&2
		exit 1
	fi
}

make_jobs() {
	[ -s "$1/jobs.txt" ] || python3 "$here/gen_jobs.py" "$1" "$2"
}

make_history() {
	[ -s "$1/sacct.txt" ] || python3 "$here/gen_history.py" "$1" "$2"
}

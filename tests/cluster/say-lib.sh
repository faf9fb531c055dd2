# SPDX-License-Identifier: GPL-2.0-or-later
# say-lib.sh: say and die for the cluster scripts that report on stderr with
# the seconds since they started.  Set say_name (the prefix; default: the
# script's name) before sourcing; die exits with die_status (default 1).
# shellcheck shell=bash

t0=$SECONDS

say() {
	printf '%s: [%3ds] %s\n' "${say_name:-${0##*/}}" $((SECONDS - t0)) "$*" >&2
}

die() {
	printf '%s: error: %s\n' "${say_name:-${0##*/}}" "$*" >&2
	exit "${die_status:-1}"
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# configure-release.sh: ./configure --with-slurm-source refuses what it must.
#
#   - a source tree of a release mfprio has no adapter for (21.08.8,
#     27.05.0): an error naming the release and the ones it knows;
#   - a known release whose version is not the slurmctld's that will run
#     it (SLURMCTLD=...): an error naming both;
#   - a tree that is not configured (no config.h): an error saying so;
#   - SLURMCTLD=none skips the slurmctld comparison (package builds);
#   - every release of release/releases.tsv is taken, with its family.
# Each case uses a stand-in source tree with only the files configure reads.
# Usage: configure-release.sh   (from anywhere; needs the generated configure)
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d /tmp/mfprio-configure-XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok: $*"; }
not_ok() { fail=$((fail + 1)); echo "FAILED: $*"; }

# tree DIR VERSION: a stand-in configured Slurm tree of VERSION.
tree() {
	mkdir -p "$1/src/slurmctld" "$1/slurm"
	: >"$1/src/slurmctld/slurmctld.h"
	echo "#define SLURM_VERSION_STRING \"$2\"" >"$1/config.h"
	local IFS=.
	# MAJOR.MINOR.MICRO of VERSION (26.11.0-0rc1: the release part dropped)
	# shellcheck disable=SC2086
	set -- "$1" ${2%%-*}
	cat >"$1/slurm/slurm_version.h" <<-EOF
	#define SLURM_VERSION_NUM(a, b, c) (((a) << 16) + ((b) << 8) + (c))
	#define SLURM_VERSION_NUMBER SLURM_VERSION_NUM($((10#$2)), $((10#$3)), $((10#$4)))
	EOF
}

# a fake slurmctld that says VERSION
fake_ctld() {
	printf '#!/bin/sh\necho "slurm %s"\n' "$2" >"$1"
	chmod +x "$1"
}

# configure_is WANT NAME PATTERN [VAR=VALUE...] -- CONFIGURE-ARGS: configure
# with the environment VAR=VALUE... and CONFIGURE-ARGS fails (WANT error)
# with PATTERN in its error, or succeeds (WANT ok) with PATTERN in its
# output
configure_is() {
	local want=$1 name=$2 pattern=$3 log=$work/$2.log rc=0
	shift 3
	local -a envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	mkdir -p "$work/b-$name"
	(cd "$work/b-$name" && env "${envs[@]}" "$top/configure" "$@") >"$log" 2>&1 || rc=$?
	if [[ $want == error && $rc -eq 0 ]]; then
		not_ok "$name: configure succeeded"
	elif [[ $want == ok && $rc -ne 0 ]]; then
		not_ok "$name: configure failed:"; tail -n 3 "$log"
	elif grep -q -- "$pattern" "$log"; then
		ok "$name: $(grep -- "$pattern" "$log" | head -n 1 | sed 's/^configure: error: //')"
	else
		not_ok "$name: no '$pattern' in configure's output:"; tail -n 3 "$log"
	fi
}
expect_error() { configure_is error "$@"; }
expect_ok() { configure_is ok "$@"; }

fake_ctld "$work/ctld-2108" 21.08.8
tree "$work/s2108" 21.08.8
expect_error old "21.08.8 is not a release mfprio knows" SLURMCTLD="$work/ctld-2108" -- \
	--with-slurm-source="$work/s2108"
fake_ctld "$work/ctld-2705" 27.05.0
tree "$work/s2705" 27.05.0
expect_error newer "27.05.0 is not a release mfprio knows" SLURMCTLD="$work/ctld-2705" -- \
	--with-slurm-source="$work/s2705"
fake_ctld "$work/ctld-2205" 22.05.8
tree "$work/s2411" 24.11.7
expect_error mismatch "is 24.11.7 but .* is 22.05.8" SLURMCTLD="$work/ctld-2205" -- \
	--with-slurm-source="$work/s2411"
mkdir -p "$work/bare/src/slurmctld" && : >"$work/bare/src/slurmctld/slurmctld.h"
expect_error unconfigured "has no config.h" SLURMCTLD="$work/ctld-2205" -- \
	--with-slurm-source="$work/bare"
expect_error missing "no src/slurmctld/slurmctld.h" -- --with-slurm-source="$work/nowhere"

# a package build: the host's slurmctld (22.05.8 here) is not the release
# the plugin is built for, and SLURMCTLD=none says not to compare them
expect_ok none "SLURMCTLD=none: not checking" SLURMCTLD=none -- \
	--with-slurm-source="$work/s2411"
# the family comes from release/releases.tsv: every series it lists is
# taken, with the family the table gives
while IFS= read -r v; do
	fam=$("$top/release/releases.sh" get "$v" family)
	tree "$work/t-$v" "$v"
	expect_ok "table-$v" "family for Slurm $v\.\.\. $fam" SLURMCTLD=none -- \
		--with-slurm-source="$work/t-$v"
	# and the plugin's own choice (src/plugin/access/releases.h, from
	# slurm_version.h and the src/release_table.h configure wrote) is the
	# table's family
	printf '#include "releases.h"\n#if MFA_FAMILY != MFA_FAMILY_%s\n#error family\n#endif\n' \
		"${fam/./}" >"$work/family.c"
	if gcc -fsyntax-only -I"$work/t-$v" -I"$top/src/plugin/access" -I"$work/b-table-$v/src" "$work/family.c" \
		>"$work/family-$v.log" 2>&1; then
		ok "releases.h chooses family $fam for $v, as the table says"
	else
		not_ok "releases.h does not choose family $fam for $v:"; cat "$work/family-$v.log"
	fi
done < <("$top/release/releases.sh" tested)
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

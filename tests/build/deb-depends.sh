#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# deb-depends.sh: the Debian dependency on the controller, for every row of
# release/releases.tsv, means what debian/mfprio-plugin.README.Debian says it means, as
# dpkg itself reads it (not as a string compared with itself):
#   - satisfied by each controller package the row lists (Debian's
#     slurmctld, SchedMD's slurm-smd-slurmctld) at the upstream release
#     exactly, whatever its packaging revision (V-1, V-4+deb12u3,
#     V+dfsg-1, V-0ubuntu1);
#   - not satisfied by the next or the previous micro release, a
#     pre-release of V (V~rc1), a V.1, another series, a controller
#     package the row does not list, or no controller at all.
# Each case is a scratch dpkg database (a status file holding one
# controller) checked with dpkg-checkbuilddeps --admindir -d DEP, dpkg's
# own dependency evaluation; one row is also checked with a real dpkg -i
# of a package carrying the Depends into a scratch database and root.
# No package of the host is touched.  About 15 s.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rel=$top/release/releases.sh
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "deb-depends: FAILED: $*"; }

for t in dpkg dpkg-checkbuilddeps dpkg-deb; do
	command -v "$t" >/dev/null || { echo "deb-depends: no $t (apt-get install dpkg-dev)"; echo "0 passed, 1 failed"; exit 1; }
done
tmp=$(mktemp -d /tmp/mfprio-deb-depends-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'Source: mfprio-probe\n' >"$tmp/control"
mkdir -p "$tmp/db"

# satisfied DEP [PACKAGE VERSION]: does a system holding PACKAGE at
# VERSION (nothing, without them) satisfy DEP?
satisfied() {
	local dep=$1
	: >"$tmp/db/status"
	if [[ $# -ge 3 ]]; then
		printf 'Package: %s\nStatus: install ok installed\nVersion: %s\nArchitecture: all\nMaintainer: probe <probe@example.org>\nDescription: probe\n\n' \
			"$2" "$3" >"$tmp/db/status"
	fi
	dpkg-checkbuilddeps --admindir="$tmp/db" -d "$dep" "$tmp/control" >/dev/null 2>&1
}
expect() {      # expect yes|no DEP PACKAGE VERSION
	local want=$1 dep=$2 p=${3:-} v=${4:-} got=no
	if [[ -n $p ]]; then satisfied "$dep" "$p" "$v" && got=yes; else satisfied "$dep" && got=yes; fi
	if [[ $got == "$want" ]]; then ok; else
		bad "${p:-no controller} ${v} should ${want/no/not }satisfy: $dep"
	fi
}

rows=0
while read -r tested; do
	v=${tested%%-*}
	IFS=. read -r M m u <<<"$v"
	dep=$("$rel" deb-depends "$tested") || { bad "releases.sh deb-depends $tested"; continue; }
	packages=$("$rel" get "$v" packages)
	rows=$((rows + 1))
	expect no "$dep"
	for p in slurmctld slurm-smd-slurmctld; do
		carried=no
		[[ ",$packages," == *",$p,"* ]] && carried=yes
		# a release no Debian packaging carries (23.02): Debian's name
		if [[ ",$packages," != *,slurmctld,* && ",$packages," != *,slurm-smd-slurmctld,* && $p == slurmctld ]]; then
			carried=yes
		fi
		for good in "$v-1" "$v-4+deb12u3" "$v+dfsg-1" "$v-0ubuntu1"; do
			expect "$carried" "$dep" "$p" "$good"
		done
		others=("$M.$m.$((u + 1))-1" "$v~rc1-1" "$v.1-1" "99.05.0-1")
		((u > 0)) && others+=("$M.$m.$((u - 1))-1")
		for other in "${others[@]}"; do
			expect no "$dep" "$p" "$other"
		done
	done
	# an RPM-only name never satisfies a .deb
	expect no "$dep" slurm-slurmctld "$v-1"
done < <("$rel" tested)
[[ $rows -gt 0 ]] || bad "release/releases.sh tested listed no release"

# one row through a real dpkg -i: the Depends field as dpkg installs it
v=24.11.7
dep=$("$rel" deb-depends "$v")
mkpkg() {       # mkpkg NAME VERSION [DEPENDS]
	local d=$tmp/pkg-$1-$2
	mkdir -p "$d/DEBIAN"
	{
		printf 'Package: %s\nVersion: %s\nArchitecture: all\n' "$1" "$2"
		printf 'Maintainer: probe <probe@example.org>\nDescription: probe\n'
		[[ -n ${3:-} ]] && printf 'Depends: %s\n' "$3"
	} >"$d/DEBIAN/control"
	dpkg-deb -b "$d" "$tmp/$1_$2.deb" >/dev/null
}
dpkg_in() {     # dpkg_in DIR ARGS...: dpkg on the scratch database DIR
	local dir=$1
	shift
	dpkg --admindir="$dir/admin" --instdir="$dir/root" --force-script-chrootless "$@"
}
mkpkg mfprio-probe 1 "$dep"
for case in "24.11.7-1 0" "24.11.8-1 1"; do
	read -r cv want <<<"$case"
	d=$tmp/real-$cv
	mkdir -p "$d/admin/updates" "$d/admin/info" "$d/root"
	touch "$d/admin/status" "$d/admin/available"
	mkpkg slurm-smd-slurmctld "$cv"
	dpkg_in "$d" -i "$tmp/slurm-smd-slurmctld_$cv.deb" >"$d/log" 2>&1 || { bad "dpkg -i of a stand-in slurm-smd-slurmctld $cv"; continue; }
	dpkg_in "$d" -i "$tmp/mfprio-probe_1.deb" >>"$d/log" 2>&1
	got=$?
	if { [[ $want == 0 ]] && [[ $got == 0 ]]; } || { [[ $want != 0 ]] && [[ $got != 0 ]] && grep -q 'dependency problems' "$d/log"; }; then
		ok
	else
		bad "dpkg -i of a package with Depends: $dep beside slurm-smd-slurmctld $cv: rc $got"
		sed 's/^/    /' "$d/log"
	fi
done

echo "deb-depends: $rows releases of release/releases.tsv"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

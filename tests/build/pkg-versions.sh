#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pkg-versions.sh: the packages' versions sort the way a repository holding
# builds for several Slurm releases needs, as apt and rpm themselves compare
# them:
#   - a build for a newer Slurm sorts above a build for an older one,
#     whatever the two packaging revisions (two Slurm releases x two
#     revisions, every pair both ways), and a pre-release of Slurm below
#     the release;
#   - for one Slurm release, the higher packaging revision sorts above;
#   - a newer mfprio sorts above an older one for the same Slurm;
#   - (.deb) every version is above the single package of before the split
#     (0.1.0-1) and meets mfprio-plugin's Breaks/Replaces bound, which that
#     one does not.
# The .deb versions are what debian/rules gives (release/releases.sh
# deb-version, on debian/changelog's version and a revision), compared
# with dpkg --compare-versions; the RPM versions are what rpm/mfprio.spec
# gives (rpmspec -q on stand-in Slurm tarballs that hold only a META file),
# compared with rpm's own comparison (rpm.ver in rpm's Lua).
# No package is built or installed.  A few seconds.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "pkg-versions: ok: $*"; }
bad() { fail=$((fail + 1)); echo "pkg-versions: FAILED: $*"; }
for t in dpkg dpkg-parsechangelog rpm rpmspec; do
	command -v "$t" >/dev/null || { echo "pkg-versions: no $t (tests/install-deps)"; echo "0 passed, 1 failed"; exit 1; }
done
tmp=$(mktemp -d /tmp/mfprio-pkg-versions-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# older-newer pairs of Slurm releases: micro, series, a pre-release and its
# release (each a release of release/releases.tsv's series)
pairs=("24.11.7 24.11.8" "24.11.9 25.05.1" "22.05.8 23.02.10" "26.11.0-0rc1 26.11.0" "25.11.7 26.11.0-0rc1")

# sort_pairs VERSION-FN COMPARE-FN WHAT: for each pair, the newer Slurm's
# build above the older's, all four revision pairs, and revision 2 above 1
# (VERSION-FN SLURM REV gives a version, COMPARE-FN A OP B WHY checks one;
# WHAT names VERSION-FN's tool when it fails)
sort_pairs() {
	local ver=$1 cmp=$2 what=$3 pair old new ro rn a b
	for pair in "${pairs[@]}"; do
		read -r old new <<<"$pair"
		for ro in 1 2; do
			for rn in 1 2; do
				{ a=$($ver "$old" "$ro") && b=$($ver "$new" "$rn"); } ||
					{ bad "$what on Slurm $old or $new"; continue; }
				$cmp "$b" gt "$a" "Slurm $new over $old"
			done
		done
		$cmp "$($ver "$new" 2)" gt "$($ver "$new" 1)" "revision 2 over 1"
	done
}

# ------------------------------------------------------------------ .deb
debver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
upstream=${debver%-*}
grep -q 'releases.sh deb-version' "$top/debian/rules" ||
	bad "debian/rules does not take the packages' version from releases.sh deb-version"
# deb V REV: the version debian/rules gives for Slurm V with revision REV
deb() { "$top/release/releases.sh" deb-version "$upstream-$2" "$1"; }
# dcmp A OP B WHAT
dcmp() {
	if dpkg --compare-versions "$1" "$2" "$3"; then ok "deb: $1 $2 $3${4:+ ($4)}"; else bad "deb: not $1 $2 $3${4:+ ($4)}"; fi
}
sort_pairs deb dcmp "releases.sh deb-version"
v=$(deb 24.11.7 1)
dcmp "$v" eq "$upstream+slurm24.11.7-1" "the form"
# a later mfprio for the same Slurm
dcmp "$("$top/release/releases.sh" deb-version "9.9.9-1" 24.11.7)" gt "$(deb 24.11.7 5)" "newer mfprio"
# the bound of mfprio-plugin's Breaks/Replaces
bound=$(sed -n 's/^Breaks: mfprio (<< \(.*\))$/\1/p' "$top/debian/control")
if [[ -n $bound ]]; then
	dcmp "$upstream-1" lt "$bound" "the single package of before the split is broken"
	for s in 22.05.8 26.11.0-0rc1; do
		dcmp "$(deb "$s" 1)" ge "$bound" "a split package is not"
	done
else
	bad "no 'Breaks: mfprio (<< ...)' in debian/control"
fi

# ------------------------------------------------------------------ RPM
# rel V REV: the spec's VERSION-RELEASE for a Slurm tarball of V
rel() {
	local v=$1 d=$tmp/src-$1 ver r=1
	if [[ $v == *-* ]]; then r=${v#*-}; v=${v%%-*}; fi
	if [[ ! -d $d ]]; then
		mkdir -p "$d/slurm-$1"
		printf '  Name:\tslurm\n  Version:\t%s\n  Release:\t%s\n' "$v" "$r" >"$d/slurm-$1/META"
		tar -C "$d" -cjf "$d/slurm-$1.tar.bz2" "slurm-$1" && rm -rf "${d:?}/slurm-$1"
	fi
	ver=$(rpmspec -q --srpm --qf '%{VERSION}-%{RELEASE}' --define "_sourcedir $d" \
		--define "pkg_revision $2" --define 'dist .el9' "$top/rpm/mfprio.spec" 2>"$tmp/rpmspec.err")
	[[ -n $ver ]] || { cat "$tmp/rpmspec.err" >&2; return 1; }
	echo "$ver"
}
# rcmp A OP B WHAT: rpm's own comparison of two VERSION-RELEASE
rcmp() {
	local c
	c=$(rpm --eval "%{lua: local a, b = rpm.ver('$1'), rpm.ver('$3'); print(a < b and 'lt' or (a == b and 'eq' or 'gt'))}")
	if [[ $c == "$2" ]]; then ok "rpm: $1 $2 $3${4:+ ($4)}"; else bad "rpm: $1 is $c, not $2, $3${4:+ ($4)}"; fi
}
sort_pairs rel rcmp rpmspec
v=$(rel 24.11.7 1)
spec_version=$(awk '$1 == "Version:" { print $2; exit }' "$top/rpm/mfprio.spec")
rcmp "$v" eq "$spec_version-slurm24.11.7.1.el9" "the form"
rcmp "9.9.9-$(rel 24.11.7 1 | cut -d- -f2-)" gt "$(rel 24.11.7 5)" "newer mfprio"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# smd-debs.sh: SchedMD's own Debian packages of one Slurm release
# (slurm-smd, slurm-smd-slurmctld, ...: the debian/ directory inside every
# Slurm tarball since 23.11), built from the release's tarball, for
# test-smd-deb.sh.  The .debs are cached; later runs reuse them.
#
# Usage: smd-debs.sh [VERSION]     (default 24.11.7)
#
# VERSION must be a release whose row of release/releases.tsv lists
# slurm-smd-slurmctld among its packages.  Its tarball is found as the
# release matrix finds it (tests/cluster/slurm-release.sh find: the
# directory MFPRIO_SLURM_TARBALLS names, or ../shared/slurm beside the
# clone) and checked against the SHA256SUMS beside it.
#
# The build runs in a throw-away minimal bookworm chroot
# (chroot-lib.sh: /var/tmp/mfprio-smd-build-VERSION), not on the host: its
# Build-Depends (GTK, HDF5, PMIx, librdkafka, ...) are installed there by
# `apt-get build-dep ./slurm-VERSION`, so the host gains no package and
# the build proves the Build-Depends are enough on a bare system.  It runs
#   DEB_BUILD_OPTIONS='noopt nocheck nostrip parallel=2' dpkg-buildpackage -b -us -uc
# noopt (-O0) for speed: the packages are for tests, and optimisation does
# not change the structures or figures the tests compare.
#
# Cache: /var/cache/mfprio/smd-deb/VERSION-SHA (SHA: the first 12 hex digits
# of the tarball's sha256; MFPRIO_SMD_DEB_CACHE for another parent
# directory), holding the .debs, build.log and the stamp .mfprio-built
# (written last: a directory without it is rebuilt).
# Prints the cache directory on its last line of stdout; progress and the
# measured build time on stderr.
#
# Environment:
#   MFPRIO_SMD_DEB_CACHE   parent of the cache directories
#   MFPRIO_SLURM_TARBALLS  where the tarballs are (see above)
#   MFPRIO_KEEP=1          keep the build chroot
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=chroot-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/chroot-lib.sh"

version=${1:-24.11.7}
cache=${MFPRIO_SMD_DEB_CACHE:-/var/cache/mfprio/smd-deb}
# shellcheck source=pkg-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/pkg-lib.sh"
pkg_log smd-debs

[[ $(id -u) -eq 0 ]] || die "must run as root (it builds in a chroot)"
# SchedMD's debian/ is in the tarballs of the releases that list
# slurm-smd-slurmctld
release_tarball "$version" slurm-smd-slurmctld || die "$TARBALL_ERROR"
tarball=$TARBALL
sum=$TARBALL_SUM
out=$cache/$version-${sum:0:12}
stamp=$out/.mfprio-built


if pkg_cached "$out" deb slurm-smd-slurmctld_; then
	say "reusing the .debs of Slurm $version in $out"
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
exec 8>"$cache/.lock-$version"
flock 8
if pkg_cached "$out" deb slurm-smd-slurmctld_; then
	echo "$out"
	exit 0
fi

root=/var/tmp/mfprio-smd-build-$version
log=$cache/build-$version.log
: >"$log"
cleanup() { chroot_release "$root"; }
trap cleanup EXIT

say "Slurm $version from $tarball; building SchedMD's .debs in the chroot $root (log $log)"
chroot_create "$root" "$log" || die "no chroot (see $log)"
say "chroot ready; installing the build tools"
chroot_apt_install "$root" "$log" build-essential dpkg-dev fakeroot ||
	die "apt-get install build-essential in the chroot failed (see $log)"
mkdir -p "$root/build/slurm-$version"
tar -xf "$tarball" -C "$root/build/slurm-$version" --strip-components=1 ||
	die "cannot unpack $tarball"
[[ -f $root/build/slurm-$version/debian/control ]] ||
	die "$tarball has no debian/control"
say "installing its Build-Depends (apt-get build-dep ./slurm-$version)"
find "$CHROOT_CACHE/apt-archives" -maxdepth 1 -name '*.deb' \
	-exec cp -n -t "$root/var/cache/apt/archives/" {} + 2>/dev/null
chroot_run "$root" sh -c "cd /build && apt-get build-dep -y -q --no-install-recommends ./slurm-$version" >>"$log" 2>&1 ||
	die "apt-get build-dep failed (see $log)"
find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
	-exec cp -n -t "$CHROOT_CACHE/apt-archives/" {} + 2>/dev/null

say "dpkg-buildpackage -b (DEB_BUILD_OPTIONS='noopt nocheck nostrip parallel=2')"
tb=$SECONDS
chroot_run "$root" env DEB_BUILD_OPTIONS='noopt nocheck nostrip parallel=2' \
	sh -c "cd /build/slurm-$version && nice -n 10 dpkg-buildpackage -b -us -uc" >>"$log" 2>&1 ||
	die "dpkg-buildpackage failed after $((SECONDS - tb)) s (see the end of $log)"
build_secs=$((SECONDS - tb))
say "built in $build_secs s"

rm -rf "$out"
mkdir -p "$out"
debs=("$root"/build/*.deb)
[[ -f ${debs[0]} ]] || die "the build left no .deb in /build"
cp "${debs[@]}" "$out/"
cp "$log" "$out/build.log"
{
	echo "version $version"
	echo "tarball $(basename "$tarball") $sum"
	echo "build_seconds $build_secs"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for f in "${debs[@]}"; do echo "deb ${f##*/}"; done
} >"$stamp.tmp"
mv -f "$stamp.tmp" "$stamp"
pkg_cached "$out" deb slurm-smd-slurmctld_ || die "the build made no slurm-smd-slurmctld .deb"
say "$(find "$out" -maxdepth 1 -name '*.deb' | wc -l) .debs in $out (total $((SECONDS - t0)) s, build $build_secs s)"
echo "$out"

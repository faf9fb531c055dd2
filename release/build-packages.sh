#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build-packages.sh: mfprio's packages from a clone, in one command: the
# dist tarball (autoreconf, configure, make dist), then the RPMs or the
# .debs built from it (Makefile.am's `make rpm`, `make srpm`, `make deb`).
#
# Usage: release/build-packages.sh rpm|srpm|deb [SLURM_TARBALL]
#   rpm SLURM_TARBALL    the source RPM (mfprio's tarball and SLURM_TARBALL,
#                        its Source1) and the RPMs mfprio and mfprio-plugin,
#                        with rpmbuild -ta, into rpmbuild's own directories
#                        (~/rpmbuild/SRPMS, ~/rpmbuild/RPMS/ARCH)
#   srpm SLURM_TARBALL   the source RPM only
#   deb [SLURM_TARBALL]  the .debs mfprio and mfprio-plugin (and their
#                        -dbgsym), with dpkg-buildpackage -b, into
#                        BUILD/deb-build; without SLURM_TARBALL, from
#                        MFPRIO_SLURM_SOURCE or Debian's source of the
#                        installed slurmctld (debian/mfprio-plugin.README.Debian)
# SLURM_TARBALL is SchedMD's tarball of the Slurm release the cluster runs
# (slurm-X.Y.Z.tar.bz2 as published; .tar.gz and .tar.xz do as well).
#
# BUILD is MFPRIO_PKG_BUILD_DIR (default _build/packages in the clone): the
# tree is configured there, without a Slurm source, only to make the
# tarball.  A clone without ./configure gets autoreconf -fi first; a clone
# configured in place is used as it is.  RPMBUILD_FLAGS and
# DPKG_BUILDPACKAGE_FLAGS in the environment add options.
set -eu

usage() { echo "usage: $0 rpm|srpm|deb [SLURM_TARBALL]" >&2; exit 2; }
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
kind=$1
tarball=${2:-}
case $kind in
rpm | srpm) [ -n "$tarball" ] || { echo "$0: $kind needs the Slurm release's tarball" >&2; usage; } ;;
deb) ;;
*) usage ;;
esac
if [ -n "$tarball" ]; then
	[ -f "$tarball" ] || { echo "$0: $tarball: no such file" >&2; exit 1; }
	tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
fi

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -f "$top/Makefile" ] && [ -f "$top/config.status" ]; then
	build=$top
else
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
	build=${MFPRIO_PKG_BUILD_DIR:-$top/_build/packages}
	mkdir -p "$build"
	build=$(cd "$build" && pwd)
	echo "build-packages.sh: configuring in $build (log $build/configure.log)"
	(cd "$build" && "$top/configure") >"$build/configure.log" 2>&1 || {
		tail -n 20 "$build/configure.log" >&2
		echo "$0: configure failed (see $build/configure.log)" >&2
		exit 1
	}
fi
exec make -C "$build" "$kind" ${tarball:+SLURM_TARBALL="$tarball"} \
	RPMBUILD_FLAGS="${RPMBUILD_FLAGS:-}" DPKG_BUILDPACKAGE_FLAGS="${DPKG_BUILDPACKAGE_FLAGS:-}"

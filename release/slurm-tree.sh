#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-tree.sh: unpack a Slurm release tarball and configure it, so that
# mfprio's plugin can be built against that release's internal headers
# (configure --with-slurm-source=DIR).  Only Slurm's ./configure runs:
# the plugin needs its config.h and slurm/slurm_version.h, not a build.
# Used by debian/rules and rpm/mfprio.spec; an administrator may run it by
# hand.  POSIX sh: it also runs inside rpmbuild on RHEL.
#
# Usage: slurm-tree.sh TARBALL DIR [CONFIGURE-ARGS...]
#   TARBALL  slurm-X.Y.Z.tar.bz2 or .tar.gz, as SchedMD publishes it
#   DIR      where to unpack (created; an earlier tree there whose
#            config.h is of the same release is reused)
#   CONFIGURE-ARGS  passed to Slurm's ./configure after --prefix=/usr
#            --sysconfdir=/etc/slurm (give the options the site's Slurm
#            was built with, if any of them matters to slurmctld's
#            structures; none of the usual ones does)
# Prints DIR (absolute) on its last line.  Fails, naming the tarball, if
# it holds no Slurm source or a release that release/releases.tsv does
# not list.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "slurm-tree.sh: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: slurm-tree.sh TARBALL DIR [CONFIGURE-ARGS...]"
tarball=$1
dir=$2
shift 2
[ -f "$tarball" ] || die "$tarball: no such file"

case $tarball in
*.tar.bz2 | *.tbz2) z=j ;;
*.tar.gz | *.tgz) z=z ;;
*.tar.xz) z=J ;;
*.tar) z= ;;
*) die "$tarball: not a .tar.bz2, .tar.gz, .tar.xz or .tar" ;;
esac

# the release, from the META file at the top of the tarball
meta=$(tar -t${z}f "$tarball" 2>/dev/null | grep -m1 '^[^/]*/META$') ||
	die "$tarball: no META file at its top: not a Slurm source tarball"
version=$(tar -x${z}Of "$tarball" "$meta" |
	awk '$1 == "Major:" { M = $2 } $1 == "Minor:" { m = $2 } $1 == "Micro:" { u = $2 }
	     END { if (M != "" && m != "" && u != "") printf "%s.%02d.%s\n", M, m, u }')
[ -n "$version" ] || die "$tarball: its $meta names no Major/Minor/Micro"
"$here/releases.sh" known "$version" ||
	die "$tarball holds Slurm $version, a release mfprio does not know (it knows $("$here/releases.sh" accepted))"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -f "$dir/config.h" ] &&
	grep -q "^#define SLURM_VERSION_STRING \"$version\"" "$dir/config.h"; then
	echo "slurm-tree.sh: reusing the configured Slurm $version in $dir" >&2
	echo "$dir"
	exit 0
fi
echo "slurm-tree.sh: unpacking Slurm $version into $dir" >&2
tar -x${z}f "$tarball" -C "$dir" --strip-components=1 ||
	die "$tarball: could not unpack into $dir"
echo "slurm-tree.sh: configuring it (log: $dir/mfprio-configure.log)" >&2
(cd "$dir" && ./configure --prefix=/usr --sysconfdir=/etc/slurm "$@") \
	>"$dir/mfprio-configure.log" 2>&1 ||
	die "Slurm $version's ./configure failed in $dir: see $dir/mfprio-configure.log"
[ -f "$dir/config.h" ] && [ -f "$dir/slurm/slurm_version.h" ] ||
	die "Slurm $version's ./configure left no config.h or slurm/slurm_version.h in $dir"
echo "$dir"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-rpms.sh: SchedMD's own RPMs of one Slurm release (slurm,
# slurm-slurmctld, ...: the slurm.spec at the top of every Slurm tarball),
# built from the release's tarball with Debian's rpmbuild, for
# test-rpm.sh.  The RPMs are cached; later runs reuse them.
#
# Usage: slurm-rpms.sh [VERSION]     (default 24.11.7)
#
# VERSION must be a release whose row of release/releases.tsv lists
# slurm-slurmctld among its packages.  Its tarball is found as the release
# matrix finds it (tests/cluster/slurm-release.sh find: the directory
# MFPRIO_SLURM_TARBALLS names, or ../shared/slurm beside the clone) and
# checked against the SHA256SUMS beside it.
#
# What a site runs is `rpmbuild -ta slurm-VERSION.tar.bz2`: rpmbuild takes
# slurm.spec out of the tarball and builds with the tarball's directory as
# %_sourcedir.  This does the same in two steps, so that it can change what
# Debian's tools need changed, and nothing else:
#   - the tarball is recompressed to the slurm-VERSION.tar.bz2 that
#     slurm.spec names as its Source (SchedMD publishes .tar.bz2; the
#     project's copies are `git archive` .tar.gz of the same tree);
#   - slurm.spec's %_perlman3 is set to RHEL's value (/share/man/man3):
#     the spec computes it from perl's installsiteman3dir, which Debian's
#     perl puts in /usr/local/man rather than /usr/local/share/man, so that
#     %files perlapi would name /usr/man/man3 where the perl API's man pages
#     are not (the edited spec and its diff are kept beside the RPMs);
#   - rpmbuild -bb with --nodeps (Debian's rpm database holds none of the
#     BuildRequires, mariadb-devel, munge-devel, pam-devel, readline-devel,
#     perl-devel, ...: Debian's -dev packages of tests/install-deps stand in
#     for them), --define '_unitdir /usr/lib/systemd/system' (RHEL's value;
#     Debian's rpm has no systemd macros, and the spec's fallback is
#     /lib/systemd/systemd), -j2, under nice -n 10.  No --with/--without:
#     the spec's defaults, as `rpmbuild -ta` builds them.
#
# Cache: /var/cache/mfprio/rpm/VERSION-SHA (SHA: the first 12 hex digits of
# the tarball's sha256; MFPRIO_RPM_CACHE for another parent directory),
# holding RPMS/ARCH/*.rpm, the .tar.bz2, slurm.spec, build.log and the
# stamp .mfprio-built (written last: a directory without it is rebuilt).
# flock on a lock file beside it keeps two runs from building at once.
# Prints the cache directory on its last line of stdout; progress and the
# measured build time on stderr.
#
# Environment:
#   MFPRIO_RPM_CACHE       parent of the cache directories
#   MFPRIO_SLURM_TARBALLS  where the tarballs are (see above)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)

version=${1:-24.11.7}
cache=${MFPRIO_RPM_CACHE:-/var/cache/mfprio/rpm}
# shellcheck source=pkg-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/pkg-lib.sh"
pkg_log slurm-rpms clock

[[ $(id -u) -eq 0 ]] || die "must run as root (it writes under /var/cache)"
command -v rpmbuild >/dev/null || die "no rpmbuild (apt-get install rpm; tests/install-deps)"
release_tarball "$version" slurm-slurmctld || die "$TARBALL_ERROR"
tarball=$TARBALL
sum=$TARBALL_SUM
out=$cache/$version-${sum:0:12}
stamp=$out/.mfprio-built


if pkg_cached "$out" rpm slurm-slurmctld-; then
	say "reusing the RPMs of Slurm $version in $out"
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
exec 8>"$out.lock"
flock 8
if pkg_cached "$out" rpm slurm-slurmctld-; then
	say "reusing the RPMs of Slurm $version in $out (built by another run meanwhile)"
	echo "$out"
	exit 0
fi

case $tarball in
*.tar.bz2 | *.tbz2) z=j dec=bzip2 ;;
*.tar.gz | *.tgz) z=z dec=gzip ;;
*.tar.xz) z=J dec=xz ;;
*) die "$tarball: not a .tar.bz2, .tar.gz or .tar.xz" ;;
esac

rm -rf "$out"
mkdir -p "$out"
work=$out/work
mkdir -p "$work"
log=$out/build.log
: >"$log"

# the spec, and the Source it names: slurm-VERSION[-REL].tar.bz2, whose
# top directory is the same name (%setup -n)
spec_path=$(tar -t${z}f "$tarball" 2>/dev/null | grep '^[^/]*/slurm\.spec$')
spec_path=${spec_path%%$'\n'*}
[[ -n $spec_path ]] || die "$tarball has no slurm.spec at its top"
tar -x${z}Of "$tarball" "$spec_path" >"$out/slurm.spec.orig" || die "cannot read $spec_path from $tarball"
spec_version=$(awk '$1 == "Version:" { print $2; exit }' "$out/slurm.spec.orig")
spec_rel=$(awk '$1 == "%define" && $2 == "rel" { print $3; exit }' "$out/slurm.spec.orig")
[[ $spec_version == "${version%%-*}" ]] ||
	die "$tarball's slurm.spec is of version '$spec_version', not $version"
srcname=slurm-$spec_version
[[ ${spec_rel:-1} == 1 ]] || srcname=$srcname-$spec_rel
topdir_name=${spec_path%%/*}

say "Slurm $version from $tarball; Source $srcname.tar.bz2 (log $log)"
if [[ $topdir_name == "$srcname" ]]; then
	if [[ $z == j ]]; then
		cp "$tarball" "$out/$srcname.tar.bz2"
	else
		"$dec" -dc "$tarball" | bzip2 -c >"$out/$srcname.tar.bz2"
	fi || die "cannot recompress $tarball"
else
	if ! { tar -x${z}f "$tarball" -C "$work" && mv "$work/$topdir_name" "$work/$srcname" &&
		tar -C "$work" -cjf "$out/$srcname.tar.bz2" "$srcname"; }; then
		die "cannot repack $tarball as $srcname.tar.bz2"
	fi
	rm -rf "${work:?}/$srcname"
fi

# Debian's perl: see the header
sed 's|^%define _perlman3 %(perl .*$|%define _perlman3 /share/man/man3|' \
	"$out/slurm.spec.orig" >"$out/slurm.spec"
diff -u "$out/slurm.spec.orig" "$out/slurm.spec" >"$out/slurm.spec.diff"
changed=$(grep -c '^+[^+]' "$out/slurm.spec.diff")
if [[ $changed -eq 0 ]]; then
	say "slurm.spec has no %_perlman3 computed from perl: building it unchanged"
fi

say "rpmbuild -bb slurm.spec (as rpmbuild -ta does; --nodeps, _unitdir, -j2, nice -n 10)"
tb=$SECONDS
nice -n 10 rpmbuild -bb "$out/slurm.spec" --nodeps \
	--define "_topdir $work/top" \
	--define "_sourcedir $out" \
	--define '_unitdir /usr/lib/systemd/system' \
	--define '_smp_mflags -j2' >>"$log" 2>&1 ||
	die "rpmbuild failed after $((SECONDS - tb)) s (see the end of $log)"
build_secs=$((SECONDS - tb))
say "built in $build_secs s"

mv "$work/top/RPMS" "$out/RPMS" || die "the build left no RPMS directory"
rm -rf "$work"
{
	echo "version $version"
	echo "tarball $(basename "$tarball") $sum"
	echo "build_seconds $build_secs"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	(cd "$out" && find RPMS -name '*.rpm' | sort | sed 's/^/rpm /')
} >"$stamp.tmp"
mv -f "$stamp.tmp" "$stamp"
pkg_cached "$out" rpm slurm-slurmctld- || die "the build made no slurm-slurmctld RPM"
say "$(grep -c '^rpm ' "$stamp") RPMs in $out (total $((SECONDS - t0)) s, build $build_secs s)"
echo "$out"

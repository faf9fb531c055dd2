#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-source.sh: fetch and configure the source of the Slurm that runs here,
# for building mfprio's plugin against its internal headers.
#
# Usage: slurm-source.sh [CACHE_DIR]
#
# Prints, on its last line of stdout, the configured source directory, to be
# passed to `configure --with-slurm-source=DIR`.  Idempotent: a tree already
# fetched and configured for the installed slurmctld version is reused.
#
# The source comes from Debian's source package of the installed slurmctld
# (`apt-get source slurm-wlm=VERSION`, patches applied); a deb-src line for
# the same archive is added when none is configured.  Nothing of it is ever
# committed to mfprio.
#
# Environment:
#   MFPRIO_SLURM_SRC_CACHE  cache directory (default /var/cache/mfprio)
set -euo pipefail

cache=${1:-${MFPRIO_SLURM_SRC_CACHE:-/var/cache/mfprio}}

say() { printf 'slurm-source: %s\n' "$*" >&2; }
die() { printf 'slurm-source: error: %s\n' "$*" >&2; exit 1; }

command -v dpkg-query >/dev/null || die "dpkg-query not found: this script needs Debian or a derivative"

# The Debian version of the installed daemon (e.g. 22.05.8-4+deb12u3) and its
# upstream part (22.05.8).
deb_version=$(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null) ||
	die "slurmctld is not installed (apt-get install slurmctld)"
[[ -n $deb_version ]] || die "slurmctld is not installed (apt-get install slurmctld)"
upstream_version=${deb_version#*:}
upstream_version=${upstream_version%%-*}
srcdir=$cache/slurm-wlm-$upstream_version
stamp=$srcdir/.mfprio-configured

# configured_ok: the tree has config.h for the right version.
configured_ok() {
	[[ -f $srcdir/config.h && -f $srcdir/src/slurmctld/slurmctld.h && -f $stamp ]] &&
		[[ $(cat "$stamp") == "$deb_version" ]] &&
		grep -q "^#define SLURM_VERSION_STRING \"$upstream_version\"" "$srcdir/config.h"
}

if configured_ok; then
	say "reusing $srcdir (Debian $deb_version)"
	echo "$srcdir"
	exit 0
fi

mkdir -p "$cache"

# have_deb_src: some apt source has Types: deb-src (or a deb-src line).
have_deb_src() {
	grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/
}

if [[ ! -f $srcdir/src/slurmctld/slurmctld.h ]]; then
	command -v apt-get >/dev/null || die "apt-get not found"
	if ! have_deb_src; then
		# the same archive as the binary packages: deb822 (a default
		# bookworm install) or one-line sources.list (debootstrap)
		if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
			say "adding deb-src sources (/etc/apt/sources.list.d/mfprio-debian-src.sources)"
			sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
				>/etc/apt/sources.list.d/mfprio-debian-src.sources
		elif grep -qsE '^deb ' /etc/apt/sources.list; then
			say "adding deb-src lines (/etc/apt/sources.list.d/mfprio-debian-src.list)"
			sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
				>/etc/apt/sources.list.d/mfprio-debian-src.list
		else
			die "no deb-src source configured and no deb source to copy one from; add a deb-src line for your archive"
		fi
		apt-get update -qq >&2
	fi
	command -v dpkg-source >/dev/null || {
		say "installing dpkg-dev (for dpkg-source)"
		apt-get install -y -qq dpkg-dev >&2
	}
	work=$(mktemp -d "$cache/fetch.XXXXXX")
	chmod 755 "$work"   # apt-get source downloads as _apt
	trap 'rm -rf "$work"' EXIT
	say "fetching slurm-wlm=$deb_version into $cache"
	if ! (cd "$work" && apt-get source -qq "slurm-wlm=$deb_version" >&2); then
		apt-get update -qq >&2 || true
		(cd "$work" && apt-get source -qq "slurm-wlm=$deb_version" >&2) ||
			die "apt-get source slurm-wlm=$deb_version failed"
	fi
	[[ -f $work/slurm-wlm-$upstream_version/src/slurmctld/slurmctld.h ]] ||
		die "apt-get source did not unpack slurm-wlm-$upstream_version"
	rm -rf "$srcdir"
	mv "$work/slurm-wlm-$upstream_version" "$srcdir"
fi

say "configuring $srcdir (about 15 s)"
rm -f "$stamp"
(cd "$srcdir" && ./configure --sysconfdir=/etc/slurm --enable-multiple-slurmd \
	--disable-debug >"$srcdir/mfprio-configure.log" 2>&1) ||
	die "configure failed; see $srcdir/mfprio-configure.log"
echo "$deb_version" >"$stamp"
configured_ok || die "$srcdir/config.h does not say version $upstream_version"
say "ready: $srcdir"
echo "$srcdir"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slurm-release.sh: build and install one SchedMD Slurm release from its
# source tarball, for mfprio's release matrix, under a cache directory keyed
# by version and checksum; later runs reuse it.
#
# Usage: slurm-release.sh list          the releases the matrix knows
#        slurm-release.sh find VERSION  the tarball (or configured tree) found
#        slurm-release.sh build VERSION build if needed; print the prefix
#        slurm-release.sh prefix VERSION print the prefix if already built
#
# `build` prints, on its last line of stdout, the install prefix PREFIX:
#   PREFIX/sbin/slurmctld ...    the release's daemons and commands
#   PREFIX/lib/slurm/            its plugins (upstream's priority_multifactor.so)
#   PREFIX/src/                  its configured source tree, for
#                                `configure --with-slurm-source=PREFIX/src`
#
# Where the sources come from, first found wins:
#   $MFPRIO_SLURM_TARBALLS   a directory of slurm-VERSION.tar.gz (or .tar.bz2),
#                            or of configured trees slurm-VERSION/
#   ../shared/slurm/         beside the clone (the project's own matrix)
#   the downloads directory  tarballs fetched before (below)
# A SHA256SUMS file beside the tarballs, when present, is checked.
# Failing those, the tarball release/releases.tsv names for the release it
# tests is fetched from SchedMD's download site (MFPRIO_SLURM_URL + its
# name), checked against the table's sha256 and kept in the downloads
# directory; a download that does not match is deleted and not used.
# (26.11's pre-release snapshot is not published there: without
# ../shared it is not found, and the matrix says so.)
#
# Environment:
#   MFPRIO_SLURM_RELEASE_CACHE  cache directory (default /var/cache/mfprio/release)
#   MFPRIO_SLURM_TARBALLS       see above
#   MFPRIO_SLURM_NO_SHARED=1    do not look in ../shared/slurm
#   MFPRIO_SLURM_DOWNLOADS      the downloads directory (default CACHE/tarballs)
#   MFPRIO_SLURM_URL            where to fetch from (default
#                               https://download.schedmd.com/slurm/)
#   MFPRIO_SLURM_FETCH=0        never fetch
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${MFPRIO_SLURM_RELEASE_CACHE:-/var/cache/mfprio/release}

BUILD_DEPS=(libmunge-dev libmariadb-dev libjson-c-dev libyaml-dev liblz4-dev
	libhwloc-dev libpam0g-dev libreadline-dev)

say() { printf 'slurm-release: %s\n' "$*" >&2; }
die() { printf 'slurm-release: error: %s\n' "$*" >&2; exit 1; }

# The SchedMD releases of the matrix: release/releases.tsv's rows built
# from a tarball (Debian's own is handled by slurm-source.sh).
mapfile -t RELEASES < <("$top/release/releases.sh" tested source!=debian)
[[ ${#RELEASES[@]} -gt 0 ]] || die "no release in $top/release/releases.tsv"

downloads=${MFPRIO_SLURM_DOWNLOADS:-$cache/tarballs}

# source_dirs: where tarballs are looked for, in order.
source_dirs() {
	[[ -n ${MFPRIO_SLURM_TARBALLS:-} ]] && echo "$MFPRIO_SLURM_TARBALLS"
	[[ ${MFPRIO_SLURM_NO_SHARED:-0} == 1 ]] || echo "$top/../shared/slurm"
	echo "$downloads"
}

# download URL FILE: URL's content into FILE (curl, wget or Python)
download() {
	if command -v curl >/dev/null; then
		curl -fsSL --connect-timeout 20 --max-time 600 -o "$2" "$1"
	elif command -v wget >/dev/null; then
		wget -q -T 20 -O "$2" "$1"
	else
		python3 - "$1" "$2" <<'PY'
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=20) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)
PY
	fi
}

# fetch VERSION: fetch the tarball the table names for VERSION (the release
# it tests) and print its path, or say why not and fail.
fetch() {
	local v=$1 name sum url part got
	[[ ${MFPRIO_SLURM_FETCH:-1} == 0 ]] && return 1
	[[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) == "$v" ]] || return 1
	name=$("$top/release/releases.sh" get "$v" source)
	sum=$("$top/release/releases.sh" get "$v" sha256)
	[[ $name == *.tar* && $sum =~ ^[0-9a-f]{64}$ ]] || return 1
	url=${MFPRIO_SLURM_URL:-https://download.schedmd.com/slurm/}$name
	mkdir -p "$downloads" || return 1
	part=$downloads/.$name.$$.part
	say "fetching $url"
	if ! download "$url" "$part" 2>"$part.err"; then
		say "cannot fetch $url: $(tr '\n' ' ' <"$part.err" | cut -c1-200)"
		rm -f "$part" "$part.err"
		return 1
	fi
	rm -f "$part.err"
	got=$(sha256sum "$part" | cut -d' ' -f1)
	if [[ $got != "$sum" ]]; then
		say "$url does not match release/releases.tsv's sha256 ($got, not $sum): deleted, not used"
		rm -f "$part"
		return 1
	fi
	mv -f "$part" "$downloads/$name" || return 1
	say "fetched $name ($sum)"
	echo "$downloads/$name"
}

# find_source VERSION: print the tarball or tree of VERSION, or fail.
find_source() {
	local v=$1 d f named=""
	# the tarball release/releases.tsv names for the release it tests
	# (slurm-26.11.0-pre.tar.gz for 26.11.0-0rc1), then the usual names
	if [[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) == "$v" ]]; then
		named=$("$top/release/releases.sh" get "$v" source)
		[[ $named == *.tar* ]] || named=""
	fi
	while read -r d; do
		[[ -d $d ]] || continue
		for f in ${named:+"$d/$named"} "$d/slurm-$v.tar.gz" "$d/slurm-$v.tar.bz2"; do
			[[ -f $f ]] && { echo "$f"; return 0; }
		done
		if [[ -f $d/slurm-$v/src/slurmctld/slurmctld.h ]]; then
			echo "$d/slurm-$v"
			return 0
		fi
	done < <(source_dirs)
	fetch "$v"
}

# key VERSION SOURCE: the cache key, version and the first 12 hex digits of
# the tarball's checksum (a tree: "tree").
key() {
	local v=$1 src=$2
	if [[ -f $src ]]; then
		echo "$v-$(sha256sum "$src" | cut -c1-12)"
	else
		echo "$v-tree"
	fi
}

check_sum() {    # check_sum TARBALL
	local t=$1 sums
	sums=$(dirname "$t")/SHA256SUMS
	[[ -f $sums ]] || return 0
	local want
	want=$(awk -v f="$(basename "$t")" '$2 == f || $2 == "*" f {print $1}' "$sums")
	[[ -z $want ]] && return 0
	[[ $(sha256sum "$t" | cut -d' ' -f1) == "$want" ]] ||
		die "$t does not match its checksum in $sums"
}

# check_table_sum VERSION TARBALL: a tarball of the name the table gives
# the release it tests must have the table's sha256
check_table_sum() {
	local v=$1 t=$2 name sum
	[[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) == "$v" ]] || return 0
	name=$("$top/release/releases.sh" get "$v" source)
	sum=$("$top/release/releases.sh" get "$v" sha256)
	[[ $(basename "$t") == "$name" && $sum =~ ^[0-9a-f]{64}$ ]] || return 0
	[[ $(sha256sum "$t" | cut -d' ' -f1) == "$sum" ]] ||
		die "$t does not match release/releases.tsv's sha256 for $v ($sum)"
}

built_ok() {     # built_ok PREFIX VERSION
	[[ -f $1/.mfprio-built && -x $1/sbin/slurmctld && -f $1/lib/slurm/priority_multifactor.so &&
		-f $1/src/config.h ]] &&
		grep -q "^#define SLURM_VERSION_STRING \"$2\"" "$1/src/config.h"
}

need_deps() {
	local missing=() p
	for p in "${BUILD_DEPS[@]}"; do
		dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[[ ${#missing[@]} -eq 0 ]] && return 0
	[[ $(id -u) -eq 0 ]] || die "missing build packages ${missing[*]}; install them as root"
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update -q >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${missing[@]}" >&2; }
}

build() {
	local v=$1 src prefix
	src=$(find_source "$v") || die "no source of Slurm $v found (looked in: $(source_dirs | tr '\n' ' ')); set MFPRIO_SLURM_TARBALLS to a directory holding slurm-$v.tar.gz"
	prefix=$cache/$(key "$v" "$src")
	if built_ok "$prefix" "$v"; then
		say "reusing $prefix"
		echo "$prefix"
		return 0
	fi
	need_deps
	[[ -f $src ]] && check_sum "$src" && check_table_sum "$v" "$src"
	mkdir -p "$cache"
	# one builder per prefix
	exec 8>"$cache/.lock-$v"
	flock 8
	if built_ok "$prefix" "$v"; then
		echo "$prefix"
		return 0
	fi
	rm -rf "$prefix"
	mkdir -p "$prefix"
	if [[ -f $src ]]; then
		say "unpacking $src"
		mkdir -p "$prefix/src"
		tar -xf "$src" -C "$prefix/src" --strip-components=1
	else
		cp -a "$src" "$prefix/src"
	fi
	local t0=$SECONDS
	say "configuring $v in $prefix/src (log: $prefix/build.log)"
	# Without debugging symbols and optimizations: about twice as fast to
	# build, and the arithmetic is the same IEEE double arithmetic (x86-64,
	# no FMA contraction at -O0 or -O2 without -march).
	(cd "$prefix/src" && ./configure --prefix="$prefix" --sysconfdir="$prefix/etc" \
		--disable-debug --disable-optimizations \
		>"$prefix/build.log" 2>&1) || die "configure of $v failed; see $prefix/build.log"
	say "building $v (about 4-6 min)"
	(cd "$prefix/src" && make -j"$(nproc)" >>"$prefix/build.log" 2>&1 &&
		make install >>"$prefix/build.log" 2>&1) ||
		die "build of $v failed; see $prefix/build.log"
	date -u +%FT%TZ >"$prefix/.mfprio-built"
	built_ok "$prefix" "$v" || die "$v built but $prefix lacks slurmctld or priority_multifactor.so"
	chmod -R a+rX "$prefix"
	say "built $v in $((SECONDS - t0)) s: $prefix"
	echo "$prefix"
}

cmd=${1:-}
case $cmd in
list)	printf '%s\n' "${RELEASES[@]}" ;;
find)	find_source "${2:?version}" || die "no source of Slurm $2 found (looked in: $(source_dirs | tr '\n' ' '))" ;;
prefix)	src=$(find_source "${2:?version}") || exit 1
	p=$cache/$(key "$2" "$src")
	built_ok "$p" "$2" && echo "$p" ;;
build)	build "${2:?version}" ;;
*)	die "usage: slurm-release.sh list|find VERSION|prefix VERSION|build VERSION" ;;
esac

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
#   ../shared/slurm/         beside the clone (the project's own matrix: the
#                            git-archive copies release/releases.tsv's
#                            sha256 column identifies)
#   the downloads directory  tarballs fetched before (below)
# Failing those, SchedMD's own tarball of the release the table tests,
# slurm-VERSION.tar.bz2, is fetched from SchedMD's download site
# (MFPRIO_SLURM_URL + that name) and kept in the downloads directory.
# (26.11's pre-release snapshot, slurm-26.11.0-pre.tar.gz, is not a
# SchedMD release: it is never fetched, and without ../shared it is not
# found; the matrix and the package tests skip it and say so.)
#
# Every source found or fetched is checked, and refused (deleted, if it was
# just fetched) when a check fails:
#   - a SHA256SUMS file beside it, when it lists it;
#   - under the table's source name (slurm-V.tar.gz): the table's sha256;
#   - under SchedMD's name (slurm-V.tar.bz2): the table's schedmd_sum
#     (SchedMD's published checksum, SHA-256 or SHA-1), where it has one;
#   - always: the META file at the top of the tree says this release
#     (Name slurm, Version and Major.Minor.Micro, and Release for a
#     version such as 26.11.0-0rc1).
# The fetch says which checks it made and the sha256 of what it kept.
#
# `find` exits 0 with the source's path on stdout; 2 when no source is
# found anywhere (nothing beside the clone, no fetch possible: the caller
# skips, saying how to provide one); 1 when a source was found or fetched
# but refused (a failure, not a skip).
#
# Environment:
#   MFPRIO_SLURM_RELEASE_CACHE  cache directory (default /var/cache/mfprio/release)
#   MFPRIO_SLURM_TARBALLS       see above
#   MFPRIO_SLURM_NO_SHARED=1    do not look in ../shared/slurm
#   MFPRIO_SLURM_DOWNLOADS      the downloads directory (default CACHE/tarballs)
#   MFPRIO_SLURM_URL            where to fetch from (default
#                               https://download.schedmd.com/slurm/)
#   MFPRIO_SLURM_FETCH=0        never fetch
#   MFPRIO_RELEASES_TSV         another release table (release/releases.sh)
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

# how_to VERSION: how to provide VERSION's source, for the messages
how_to() {
	local v=$1 named=slurm-$1.tar.gz bz="" net=""
	[[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) == "$v" ]] &&
		named=$("$top/release/releases.sh" get "$v" source)
	# SchedMD publishes releases, not the pre-release snapshot
	if [[ $named == "slurm-$v.tar.gz" ]]; then
		bz=" (or SchedMD's slurm-$v.tar.bz2)"
		net=", or network to ${MFPRIO_SLURM_URL:-https://download.schedmd.com/slurm/}"
	fi
	echo "to provide it: MFPRIO_SLURM_TARBALLS=DIR holding $named$bz, or ../shared/slurm beside the clone$net"
}

# looked_in: the directories looked in, on one line
looked_in() { source_dirs | paste -sd ' '; }

# meta_release SOURCE: "VERSION" as the META file at the top of SOURCE (a
# tarball, or a tree) gives it: MAJOR.MINOR.MICRO, with -RELEASE when its
# Release is not 1; nothing (and status 1) when there is none or it is not
# Slurm's, or when Version and Major/Minor/Micro disagree
meta_release() {
	local src=$1 text
	if [[ -d $src ]]; then
		text=$(cat "$src/META" 2>/dev/null)
	else
		# META at the top of the tarball's one directory (as unpacked
		# with --strip-components=1); the first one, without reading on
		text=$(tar -xOf "$src" --wildcards --no-wildcards-match-slash --occurrence=1 '*/META' 2>/dev/null)
	fi
	[[ -n $text ]] || return 1
	awk '$1 == "Name:" { n = $2 } $1 == "Major:" { M = $2 } $1 == "Minor:" { m = $2 }
	     $1 == "Micro:" { u = $2 } $1 == "Version:" { v = $2 } $1 == "Release:" { r = $2 }
	     END {
		if (n != "slurm" || M == "" || m == "" || u == "" || v != sprintf("%s.%02d.%s", M, m, u)) exit 1
		print v ((r == "" || r == "1") ? "" : "-" r)
	     }' <<<"$text"
}

# WHY: why the last source was not found or was refused (for the last
# line of `find`); refuse MESSAGE: say it, keep it, fail
WHY=""
refuse() {
	WHY=$1
	say "$1"
	return 1
}

# check_meta VERSION SOURCE [NAME]: SOURCE's META says VERSION (NAME: what
# to call SOURCE in the message)
check_meta() {
	local v=$1 src=$2 what=${3:-$2} got
	got=$(meta_release "$src") || {
		refuse "$what: no Slurm META file at its top (Name, Version, Major, Minor, Micro): not a Slurm source"
		return
	}
	[[ $got == "$v" ]] || refuse "$what: its META says Slurm $got, not $v"
}

# sum_of FILE SUM: FILE's checksum by SUM's algorithm (64 hex digits:
# SHA-256, 40: SHA-1)
sum_of() {
	case ${#2} in
	64) sha256sum "$1" | cut -d' ' -f1 ;;
	40) sha1sum "$1" | cut -d' ' -f1 ;;
	*) return 1 ;;
	esac
}

# verify VERSION SOURCE: the checks above on a source found; says what
# failed and returns 1
verify() {
	local v=$1 src=$2 name base sums want got tested="" summed=""
	name=$(basename "$src")
	[[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) == "$v" ]] && tested=1
	if [[ -f $src ]]; then
		sums=$(dirname "$src")/SHA256SUMS
		if [[ -f $sums ]]; then
			want=$(awk -v f="$name" '$2 == f || $2 == "*" f {print $1}' "$sums")
			if [[ -n $want && $(sha256sum "$src" | cut -d' ' -f1) != "$want" ]]; then
				refuse "$src does not match its checksum in $sums ($want)"
				return
			fi
			[[ -n $want ]] && summed=1
		fi
		if [[ -n $tested ]]; then
			base=$("$top/release/releases.sh" get "$v" source)
			want=$("$top/release/releases.sh" get "$v" sha256)
			if [[ $name == "$base" && $want =~ ^[0-9a-f]{64}$ ]]; then
				got=$(sha256sum "$src" | cut -d' ' -f1)
				[[ $got == "$want" ]] ||
					{ refuse "$src does not match release/releases.tsv's sha256 for $v ($got, not $want)"; return; }
				summed=1
			fi
			want=$("$top/release/releases.sh" get "$v" schedmd_sum 2>/dev/null) || want=-
			if [[ $name == "slurm-$v.tar.bz2" && $want =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]]; then
				got=$(sum_of "$src" "$want")
				[[ $got == "$want" ]] ||
					{ refuse "$src does not match release/releases.tsv's SchedMD checksum for $v ($got, not $want)"; return; }
				summed=1
			fi
		fi
	fi
	check_meta "$v" "$src" || return
	# a tarball no checksum vouches for: say what it is, for the logs
	[[ -f $src && -z $summed ]] &&
		say "$src: no checksum to check it against; its META says Slurm $v; sha256 $(sha256sum "$src" | cut -d' ' -f1)"
	return 0
}

# fetch VERSION: fetch SchedMD's tarball of VERSION (the release the table
# tests for its series), check it and print its path; or say why not and
# return 2 (nothing to fetch, or the fetch failed) or 1 (fetched, refused)
fetch() {
	local v=$1 name want url part got how
	if [[ ${MFPRIO_SLURM_FETCH:-1} == 0 ]]; then
		WHY="not fetched: MFPRIO_SLURM_FETCH=0"
		return 2
	fi
	if [[ $("$top/release/releases.sh" get "$v" tested 2>/dev/null) != "$v" ]]; then
		WHY="not fetched: $v is not the release release/releases.tsv tests"
		return 2
	fi
	if [[ $("$top/release/releases.sh" get "$v" source) != "slurm-$v.tar.gz" ]]; then
		WHY="not fetched: release/releases.tsv's source of $v, $("$top/release/releases.sh" get "$v" source), is not a release SchedMD publishes"
		return 2
	fi
	name=slurm-$v.tar.bz2
	want=$("$top/release/releases.sh" get "$v" schedmd_sum 2>/dev/null) || want=-
	[[ $want =~ ^([0-9a-f]{40}|[0-9a-f]{64})$ ]] || want=""
	url=${MFPRIO_SLURM_URL:-https://download.schedmd.com/slurm/}$name
	mkdir -p "$downloads" || { WHY="cannot create $downloads"; return 2; }
	part=$downloads/.$name.$$.part
	say "fetching $url"
	if ! download "$url" "$part" 2>"$part.err"; then
		refuse "cannot fetch $url: $(tr '\n' ' ' <"$part.err" | sed 's/ *$//' | cut -c1-200)"
		rm -f "$part" "$part.err"
		return 2
	fi
	rm -f "$part.err"
	if [[ -n $want ]]; then
		got=$(sum_of "$part" "$want")
		if [[ $got != "$want" ]]; then
			rm -f "$part"
			refuse "$url does not match release/releases.tsv's SchedMD checksum ($got, not $want): deleted, not used"
			return
		fi
		how="SchedMD's checksum in release/releases.tsv ($want) and its META"
	else
		how="its META (release/releases.tsv has no SchedMD checksum for $v)"
	fi
	if ! check_meta "$v" "$part" "$url" 2>/dev/null; then
		rm -f "$part"
		refuse "$WHY: deleted, not used"
		return
	fi
	got=$(sha256sum "$part" | cut -d' ' -f1)
	mv -f "$part" "$downloads/$name" || { refuse "cannot keep $downloads/$name"; return; }
	say "fetched $name, checked by $how: Slurm $v; sha256 $got"
	echo "$downloads/$name"
}

# find_source VERSION: print the tarball or tree of VERSION, checked
# (verify); return 1 when the one found is refused, 2 when none is found
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
			if [[ -f $f ]]; then
				verify "$v" "$f" || return 1
				echo "$f"
				return 0
			fi
		done
		if [[ -f $d/slurm-$v/src/slurmctld/slurmctld.h ]]; then
			verify "$v" "$d/slurm-$v" || return 1
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
	src=$(find_source "$v") || die "no usable source of Slurm $v (looked in: $(looked_in)); $(how_to "$v")"
	prefix=$cache/$(key "$v" "$src")
	if built_ok "$prefix" "$v"; then
		say "reusing $prefix"
		echo "$prefix"
		return 0
	fi
	need_deps
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
	# no FMA contraction at -O0 or -O2 without -march).  Without static
	# libraries: libtool otherwise compiles each of the 433 sources of
	# Slurm's libraries twice (26.11: 866 of its 1,027 compiles), once
	# position-independent for the .so and once for a libslurm.a no test
	# links (SchedMD's slurm.spec deletes every .a it installs); the
	# daemons, commands and plugins are the same.
	(cd "$prefix/src" && ./configure --prefix="$prefix" --sysconfdir="$prefix/etc" \
		--disable-debug --disable-optimizations --disable-static \
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
find)	rc=0
	find_source "${2:?version}" || rc=$?
	case $rc in
	0) ;;
	2) say "no source of Slurm $2 found (looked in: $(looked_in); ${WHY:-not fetched}); $(how_to "$2")"
	   exit 2 ;;
	*) say "error: the source of Slurm $2 was refused: $WHY"
	   exit 1 ;;
	esac ;;
prefix)	src=$(find_source "${2:?version}") || exit
	p=$cache/$(key "$2" "$src")
	built_ok "$p" "$2" && echo "$p" ;;
build)	build "${2:?version}" ;;
*)	die "usage: slurm-release.sh list|find VERSION|prefix VERSION|build VERSION" ;;
esac

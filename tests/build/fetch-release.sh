#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fetch-release.sh: a release whose source is not beside the clone is
# fetched (tests/cluster/slurm-release.sh find) as SchedMD publishes it,
# slurm-VERSION.tar.bz2 with a top directory slurm-VERSION/, from a
# loopback HTTP server standing in for https://download.schedmd.com/slurm/,
# and checked before it is kept:
#   - by release/releases.tsv's schedmd_sum (SchedMD's published checksum,
#     SHA-256 or SHA-1) where the table has one: a tarball that does not
#     match is refused and deleted;
#   - always by its own META file: a tarball whose META names another
#     release, or that has none, is refused and deleted;
#   - it says what it checked and the sha256 of what it kept; it is fetched
#     once and found again without a request;
#   - the pre-release snapshot (26.11.0-0rc1, not published by SchedMD) is
#     not asked for; a release the server lacks, no server, and
#     MFPRIO_SLURM_FETCH=0 are "not found" (exit 2: the callers skip) and
#     the message says how to provide the source; a refused one is exit 1;
#   - a tarball found under the table's source name (../shared/slurm's
#     git-archive copies) is used when it has the table's sha256, refused
#     when not.
# The served tarballs are made here, in a temporary directory: 23.02.8's
# and 25.11.7's from ../shared/slurm's copies (recompressed to .tar.bz2,
# about 3 s each) when they are there, otherwise, like all the others, a
# small tarball holding only slurm-VERSION/META (and a README): enough for
# the fetch and the META check, so that the test runs the same from any
# clone.  The table
# is a copy (MFPRIO_RELEASES_TSV) where a case needs a checksum in it.
set -uo pipefail
# each case sets what it needs: a site's own settings exported to the run
# (MFPRIO_SLURM_FETCH=0 failed 18 of its cases) are not the test's
unset MFPRIO_SLURM_FETCH MFPRIO_SLURM_TARBALLS MFPRIO_SLURM_URL
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rel=$top/tests/cluster/slurm-release.sh
shared=$top/../shared/slurm
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
check() { local w=$1; shift; if "$@"; then ok "$w"; else bad "$w"; fi; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

A=23.02.8     # served as SchedMD's name; no checksum in the table
B=24.05.8     # served with a META of another release
C=25.05.8     # served without META
D=25.11.7     # served, the table copy carries its checksum
E=26.05.3     # not served
PRE=$("$top/release/releases.sh" tested | tail -n 1)   # 26.11.0-0rc1
for v in $A $B $C $D $E; do
	[[ $("$top/release/releases.sh" get "$v" source) == "slurm-$v.tar.gz" ]] ||
		{ echo "fetch-release: $v is no longer a release of release/releases.tsv: update this test"; echo "0 passed, 1 failed"; exit 1; }
done

tmp=$(mktemp -d /tmp/mfprio-fetch-XXXXXX)
srv=$tmp/srv
mkdir -p "$srv" "$tmp/none" "$tmp/mk"
hpid=""
trap '[[ -n $hpid ]] && kill $hpid 2>/dev/null; rm -rf "$tmp"' EXIT

# fake V META-VERSION OUT: a tarball OUT (compressed by its name) holding
# slurm-V/META saying META-VERSION (MAJOR.MINOR.MICRO[-RELEASE]; "none":
# no META at all) and slurm-V/README
fake() {
	local v=$1 m=$2 out=$3 d=$tmp/mk/$RANDOM$RANDOM base r maj min mic
	mkdir -p "$d/slurm-$v"
	echo "a stand-in for Slurm $v made by tests/build/fetch-release.sh" >"$d/slurm-$v/README"
	if [[ $m != none ]]; then
		base=${m%%-*}
		r=1
		[[ $m == *-* ]] && r=${m#*-}
		IFS=. read -r maj min mic <<<"$base"
		printf '##\n# Metadata for RPM/TAR makefile targets\n##\n  Meta:\t\t1\n  Name:\t\tslurm\n  Major:\t%s\n  Minor:\t%s\n  Micro:\t%s\n  Version:\t%s\n  Release:\t%s\n' \
			"$maj" "$min" "$mic" "$base" "$r" >"$d/slurm-$v/META"
	fi
	tar -C "$d" -caf "$out" "slurm-$v"
	rm -rf "$d"
}

# ------------------------------------------------------------ the server
ta=$("$top/release/releases.sh" get $A source)
kind=""
for v in $A $D; do
	t=$shared/$("$top/release/releases.sh" get "$v" source)
	if [[ -f $t ]]; then
		# SchedMD's shape: .tar.bz2, top directory slurm-VERSION/ (the
		# git-archive copy has the same top directory)
		gzip -dc "$t" | bzip2 -c >"$srv/slurm-$v.tar.bz2"
		kind+="${kind:+; }$v recompressed from $t"
	else
		fake "$v" "$v" "$srv/slurm-$v.tar.bz2"
		kind+="${kind:+; }$v: no ../shared, a tarball holding only META"
	fi
done
fake $B 24.05.7 "$srv/slurm-$B.tar.bz2"
fake $C none "$srv/slurm-$C.tar.bz2"
fake "$PRE" "$PRE" "$srv/slurm-$PRE.tar.bz2"
echo "fetch-release: serving $(cd "$srv" && echo *) ($kind)"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$srv" >"$tmp/http.log" 2>&1 &
hpid=$!
for _ in $(seq 50); do
	python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=1)" 2>/dev/null && break
	sleep 0.2
done
url=http://127.0.0.1:$port/

# find VERSION [DOWNLOADS]: slurm-release.sh find with nothing beside the
# clone; its status in rc, its stderr in $tmp/err
find_rel() {
	out=$(MFPRIO_SLURM_NO_SHARED=1 MFPRIO_SLURM_TARBALLS=${TARBALLS:-$tmp/none} \
		MFPRIO_SLURM_DOWNLOADS=${2:-$tmp/dl} MFPRIO_SLURM_URL=$url "$rel" find "$1" 2>"$tmp/err")
	rc=$?
}
gets() { grep -c "GET /$1 " "$tmp/http.log"; }
said() { grep -qF -- "$1" "$tmp/err"; }
# nothing_kept DIR NAME: no file in DIR (a partial download included)
# whose name holds NAME
nothing_kept() {
	local f
	for f in "$1"/* "$1"/.[!.]*; do
		[[ -e $f && $(basename "$f") == *"$2"* ]] && return 1
	done
	return 0
}

# ------------------------------------------------------------ META only
find_rel $A
check "$A: SchedMD's slurm-$A.tar.bz2 is fetched into the downloads directory (exit $rc: $out)" \
	test "$rc" -eq 0 -a "$out" == "$tmp/dl/slurm-$A.tar.bz2"
check "... from SchedMD's name on the server" said "fetching ${url}slurm-$A.tar.bz2"
check "... byte for byte what the server has" cmp -s "$out" "$srv/slurm-$A.tar.bz2"
check "... checked by its META, the table having no SchedMD checksum for it" \
	said "checked by its META (release/releases.tsv has no SchedMD checksum for $A): Slurm $A"
check "... and it printed the sha256 it used ($(sha "$srv/slurm-$A.tar.bz2"))" \
	said "sha256 $(sha "$srv/slurm-$A.tar.bz2")"
n=$(gets "slurm-$A.tar.bz2")
find_rel $A
check "found again without fetching ($out; $(gets "slurm-$A.tar.bz2") requests)" \
	test "$rc" -eq 0 -a "$out" == "$tmp/dl/slurm-$A.tar.bz2" -a "$(gets "slurm-$A.tar.bz2")" -eq "$n"

find_rel $B
check "$B: a tarball whose META says 24.05.7 is refused (exit $rc, 1: a failure, not a skip)" \
	test "$rc" -eq 1 -a -z "$out"
check "... saying what its META says" said "its META says Slurm 24.05.7, not $B"
check "... deleted: nothing of it kept" nothing_kept "$tmp/dl" "$B"

find_rel $C
check "$C: a tarball without META is refused (exit $rc)" test "$rc" -eq 1 -a -z "$out"
check "... saying it is not a Slurm source" said "no Slurm META file at its top"
check "... deleted: nothing of it kept" nothing_kept "$tmp/dl" "$C"

# ------------------------------------------------------------ SchedMD's checksum
# a copy of the table, with D's schedmd_sum set
tsv() {   # tsv COLUMN VERSION VALUE OUT: the table with one cell changed
	awk -F'\t' -v OFS='\t' -v c="$1" -v v="$2" -v x="$3" '
		/^#series/ { h = $0; sub(/^#/, "", h); n = split(h, f, "\t"); for (i = 1; i <= n; i++) if (f[i] == c) k = i; print; next }
		/^#/ || NF == 0 { print; next }
		$3 == v { $k = x } { print }' "$top/release/releases.tsv" >"$4"
}
tsv schedmd_sum $D "$(sha "$srv/slurm-$D.tar.bz2")" "$tmp/sum256.tsv"
tsv schedmd_sum $D "$(sha1sum "$srv/slurm-$D.tar.bz2" | cut -d' ' -f1)" "$tmp/sum1.tsv"
tsv schedmd_sum $D "$(sha "$srv/slurm-$A.tar.bz2")" "$tmp/sumbad.tsv"
check "the table copies carry $D's checksum ($(MFPRIO_RELEASES_TSV=$tmp/sum256.tsv "$top/release/releases.sh" get $D schedmd_sum))" \
	test "$(MFPRIO_RELEASES_TSV=$tmp/sum256.tsv "$top/release/releases.sh" get $D schedmd_sum)" == "$(sha "$srv/slurm-$D.tar.bz2")"

MFPRIO_RELEASES_TSV=$tmp/sum256.tsv find_rel $D "$tmp/dl256"
check "$D: fetched and kept when it has the table's SchedMD SHA-256 (exit $rc)" \
	test "$rc" -eq 0 -a "$out" == "$tmp/dl256/slurm-$D.tar.bz2"
check "... saying it checked that checksum" said "checked by SchedMD's checksum in release/releases.tsv ($(sha "$srv/slurm-$D.tar.bz2")) and its META: Slurm $D"
MFPRIO_RELEASES_TSV=$tmp/sum1.tsv find_rel $D "$tmp/dl1"
check "... and when it has the table's SchedMD SHA-1 (exit $rc)" \
	test "$rc" -eq 0 -a "$out" == "$tmp/dl1/slurm-$D.tar.bz2"
MFPRIO_RELEASES_TSV=$tmp/sumbad.tsv find_rel $D "$tmp/dlbad"
check "$D: a tarball that does not have the table's SchedMD checksum is refused (exit $rc)" \
	test "$rc" -eq 1 -a -z "$out"
check "... saying so" said "does not match release/releases.tsv's SchedMD checksum"
check "... deleted: nothing of it kept" nothing_kept "$tmp/dlbad" "$D"
# found, not fetched: the same check on SchedMD's name in a directory
mkdir -p "$tmp/given"
cp "$srv/slurm-$D.tar.bz2" "$tmp/given/"
n=$(gets "slurm-$D.tar.bz2")
TARBALLS=$tmp/given MFPRIO_RELEASES_TSV=$tmp/sumbad.tsv find_rel $D "$tmp/dlgiven"
check "a slurm-$D.tar.bz2 given in MFPRIO_SLURM_TARBALLS without the table's SchedMD checksum is refused (exit $rc), not fetched" \
	test "$rc" -eq 1 -a -z "$out" -a "$(gets "slurm-$D.tar.bz2")" -eq "$n"
TARBALLS=$tmp/given MFPRIO_RELEASES_TSV=$tmp/sum256.tsv find_rel $D "$tmp/dlgiven"
check "... and used with it (exit $rc)" test "$rc" -eq 0 -a "$out" == "$tmp/given/slurm-$D.tar.bz2"
TARBALLS=$tmp/given find_rel $D "$tmp/dlgiven"
check "... and, the table having no SchedMD checksum, used by its META (exit $rc), saying so with its sha256" \
	bash -c "test $rc -eq 0 -a '$out' == '$tmp/given/slurm-$D.tar.bz2' &&
		grep -qF 'no checksum to check it against; its META says Slurm $D; sha256 $(sha "$srv/slurm-$D.tar.bz2")' '$tmp/err'"
mkdir -p "$tmp/given-b"
cp "$srv/slurm-$B.tar.bz2" "$tmp/given-b/"
TARBALLS=$tmp/given-b find_rel $B "$tmp/dlgiven"
check "a slurm-$B.tar.bz2 given whose META says another release is refused (exit $rc)" \
	test "$rc" -eq 1 -a -z "$out"

# ------------------------------------------------------------ the table's own copies
# ../shared/slurm's git-archive copies, by the table's source name and sha256
mkdir -p "$tmp/copies"
fake $E $E "$tmp/copies/slurm-$E.tar.gz"
tsv sha256 $E "$(sha "$tmp/copies/slurm-$E.tar.gz")" "$tmp/copy.tsv"
TARBALLS=$tmp/copies MFPRIO_RELEASES_TSV=$tmp/copy.tsv find_rel $E
check "slurm-$E.tar.gz under the table's source name with the table's sha256 is used (exit $rc)" \
	test "$rc" -eq 0 -a "$out" == "$tmp/copies/slurm-$E.tar.gz"
TARBALLS=$tmp/copies find_rel $E
check "... and refused when its sha256 is not the table's (exit $rc)" test "$rc" -eq 1 -a -z "$out"
check "... saying so" said "does not match release/releases.tsv's sha256 for $E"
if [[ -f $shared/$ta ]]; then
	o=$(MFPRIO_SLURM_TARBALLS=$tmp/none MFPRIO_SLURM_DOWNLOADS=$tmp/dl-shared MFPRIO_SLURM_URL=$url \
		"$rel" find $A 2>"$tmp/err")
	rc=$?
	check "../shared/slurm's $ta is found first, as before (exit $rc: $o), and nothing fetched" \
		test "$rc" -eq 0 -a "$o" -ef "$shared/$ta" -a ! -e "$tmp/dl-shared"
else
	echo "(no ../shared/slurm: the copy there is not tried; the case above stands for it)"
fi

# ------------------------------------------------------------ not found
find_rel "$PRE"
check "$PRE, the pre-release snapshot, is not found (exit $rc, 2: skipped by the callers)" \
	test "$rc" -eq 2 -a -z "$out"
check "... and not asked of the server ($(gets "slurm-$PRE") requests)" test "$(gets "slurm-$PRE")" -eq 0
check "... saying SchedMD does not publish it, and how to provide it" \
	bash -c "grep -q 'is not a release SchedMD publishes' '$tmp/err' && grep -q 'to provide it: MFPRIO_SLURM_TARBALLS=DIR holding slurm-26.11.0-pre.tar.gz' '$tmp/err'"

find_rel $E
check "$E, which the server lacks, is not found (exit $rc)" test "$rc" -eq 2 -a -z "$out"
check "... saying the fetch failed, and how to provide it" \
	bash -c "grep -q 'cannot fetch ${url}slurm-$E.tar.bz2' '$tmp/err' && grep -q 'or network to $url' '$tmp/err'"

# MFPRIO_SLURM_FETCH=0, with the server up and serving D: exit 2 (not 0,
# and no crash), nothing printed on stdout, no request, no download
# directory, and one line saying why
n=$(gets "slurm-$D.tar.bz2")
MFPRIO_SLURM_FETCH=0 find_rel $D "$tmp/dl-nofetch"
check "MFPRIO_SLURM_FETCH=0: not found (exit $rc, 2 wanted), no path printed ('$out')" \
	test "$rc" -eq 2 -a -z "$out"
check "... no request to the server ($(($(gets "slurm-$D.tar.bz2") - n))), nothing downloaded" \
	test "$(gets "slurm-$D.tar.bz2")" -eq "$n" -a ! -e "$tmp/dl-nofetch"
check "... one line saying it was not fetched because of MFPRIO_SLURM_FETCH=0 ($(wc -l <"$tmp/err") lines)" \
	bash -c "test \$(wc -l <'$tmp/err') -eq 1 &&
		grep -qF 'slurm-release: no source of Slurm $D found (looked in: $tmp/none $tmp/dl-nofetch; not fetched: MFPRIO_SLURM_FETCH=0); to provide it:' '$tmp/err'"

kill "$hpid" 2>/dev/null
wait "$hpid" 2>/dev/null
hpid=""
find_rel $D "$tmp/dl-noserver"
check "no server: not found (exit $rc), and said" \
	bash -c "test $rc -eq 2 && grep -q 'cannot fetch' '$tmp/err' && ! ls -A '$tmp/dl-noserver' | grep -q ."
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

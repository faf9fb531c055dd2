# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# ($top is the caller's; TARBALL* are for the caller)
# shellcheck disable=SC2154,SC2034
# pkg-lib.sh: what the package tests (test-package.sh, test-smd-deb.sh,
# test-rpm.sh) and the builders of SchedMD's packages (smd-debs.sh,
# slurm-rpms.sh) share.  Sourced, not run; needs $top (the source tree).
#
#   pkg_checks NAME [clock]    say, ok, not_ok, check, not, and the counters
#                              pass, fail, t0, for a test named NAME (clock:
#                              each line also gives the time of day)
#   finish, abort MESSAGE      a test's end: the caller's cleanup FAILED-COUNT
#                              runs, the time and the tally are printed, exit
#                              non-zero on any failure; abort counts MESSAGE as
#                              a failure first (a step the rest depends on)
#   pkg_cached DIR KIND PACKAGE  whether DIR holds a finished build: its
#                              stamp DIR/.mfprio-built (written last), every
#                              file its "KIND FILE" lines list, and one for
#                              PACKAGE (a file name prefix)
#   pkg_copy_tree DEST         mfprio's tree, as it is, into DEST (created):
#                              in a git checkout its tracked and new files,
#                              not what .gitignore names; outside git (an
#                              unpacked dist tarball) all of it but build
#                              directories and caches
#   pkg_log NAME [clock]       the same with say on stderr, for a builder
#                              whose stdout is its result; die MESSAGE
#   release_tarball VERSION PACKAGE
#                              the tarball of Slurm VERSION, checked: VERSION
#                              is a row of release/releases.tsv that lists
#                              PACKAGE (the controller package the caller
#                              builds or tests), the tarball is found as the
#                              release matrix finds it (slurm-release.sh
#                              find) and matches the SHA256SUMS beside it.
#                              Sets TARBALL and TARBALL_SUM; on a failure
#                              sets TARBALL_ERROR to why and returns 1, and
#                              TARBALL_MISSING=1 when no tarball was found
#                              at all (none beside the clone, no fetch):
#                              the test is then skipped, not failed
#   skip_no_tarball            after release_tarball failed with
#                              TARBALL_MISSING: print the reason as the
#                              last line and exit 77 (tests/run-all counts
#                              it as skipped, naming it)

# _pkg_stamp: "[ 12s]", with the time of day first when asked
_pkg_stamp() {
	if [[ $_pkg_clock == clock ]]; then
		printf '%s [%4ds]' "$(date +%T)" $((SECONDS - t0))
	else
		printf '[%3ds]' $((SECONDS - t0))
	fi
}

pkg_checks() {
	_pkg_name=$1
	_pkg_clock=${2:-}
	pass=0
	fail=0
	t0=$SECONDS
}
say() {
	if [[ -n ${_pkg_stderr:-} ]]; then
		printf '%s: %s %s\n' "$_pkg_name" "$(_pkg_stamp)" "$*" >&2
	else
		printf '%s: %s %s\n' "$_pkg_name" "$(_pkg_stamp)" "$*"
	fi
}
# die MESSAGE: a builder's error, on stderr
die() { printf '%s: error: %s\n' "$_pkg_name" "$*" >&2; exit 1; }
ok() { pass=$((pass + 1)); say "ok: $*"; }
not_ok() { fail=$((fail + 1)); say "FAILED: $*"; }
# check DESCRIPTION COMMAND...: a passing or failing assertion
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
# not COMMAND...: true if COMMAND fails (a check that something is absent)
# shellcheck disable=SC2317  # called through check
not() { ! "$@"; }

finish() {
	trap - EXIT
	cleanup "$fail"
	say "took $((SECONDS - t0)) s"
	echo "$pass passed, $fail failed"
	[[ $fail -eq 0 ]]
	exit
}
abort() {
	not_ok "$*"
	finish
}

# deb_checks CHANGES LOG DEB PDEB RELEASE: lintian (pedantic, its report in
# LOG) finds no error or warning in CHANGES; the command's package DEB has
# no Slurm package among its relations; the plugin's PDEB depends on the
# controller of exactly Slurm RELEASE (release/releases.sh deb-depends).
# Sets depends (PDEB's Depends) for the caller's own checks.
deb_checks() {
	local rc rels want_dep
	lintian --pedantic --fail-on error,warning "$1" >"$2" 2>&1
	rc=$?
	check "lintian --fail-on error,warning exits 0 (rc $rc) and reports no error or warning ($(grep -cE '^[EW]: ' "$2") lines)" \
		eval "[[ $rc -eq 0 ]] && ! grep -qE '^[EW]: ' '$2'"
	grep -E '^[EWP]: ' "$2"
	rels=$(for f in Pre-Depends Depends Recommends; do dpkg-deb -f "$3" "$f"; done)
	check "mfprio depends on no Slurm package (${rels//$'\n'/ })" not grep -qi slurm <<<"$rels"
	depends=$(dpkg-deb -f "$4" Depends)
	want_dep=$("$top/release/releases.sh" deb-depends "$5")
	say "mfprio-plugin Depends: $depends"
	check "mfprio-plugin depends on the controller of exactly Slurm $5 ($want_dep)" \
		grep -qF "$want_dep" <<<"$depends"
}

pkg_cached() {
	local dir=$1 kind=$2 package=$3 stamp=$1/.mfprio-built f
	[[ -s $stamp ]] || return 1
	while read -r f; do
		[[ -f $dir/$f ]] || return 1
	done < <(sed -n "s/^$kind //p" "$stamp")
	grep -q "^$kind \\(.*/\\)\\{0,1\\}$package" "$stamp"
}

pkg_copy_tree() {
	local dest=$1
	mkdir -p "$dest" || return 1
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$top" && git ls-files -z -c -o --exclude-standard |
			while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
			tar --null -T - -cf -) | tar -C "$dest" -xf -
	else
		tar -C "$top" --exclude='./_build*' --exclude=./autom4te.cache \
			--exclude=./debian/build --exclude=./debian/mfprio \
			--exclude=./debian/.debhelper -cf - . |
			tar -C "$dest" -xf -
	fi
}

pkg_log() {
	pkg_checks "$@"
	_pkg_stderr=1
}

release_tarball() {
	local version=$1 package=$2 packages sums want
	TARBALL="" TARBALL_SUM="" TARBALL_ERROR="" TARBALL_MISSING=""
	packages=$("$top/release/releases.sh" get "$version" packages) || {
		TARBALL_ERROR="Slurm $version: not a release of release/releases.tsv"
		return 1
	}
	[[ ",$packages," == *",$package,"* ]] || {
		TARBALL_ERROR="Slurm $version: release/releases.tsv does not list $package among its packages ($packages)"
		return 1
	}
	local errf rc
	errf=$(mktemp)
	TARBALL=$("$top/tests/cluster/slurm-release.sh" find "$version" 2>"$errf")
	rc=$?
	if [[ $rc -ne 0 ]]; then
		# slurm-release.sh's last words: where it looked and how to
		# provide it (exit 2), or why it refused the one it found
		TARBALL_ERROR=$(tail -n 1 "$errf" | sed 's/^slurm-release: //')
		[[ -n $TARBALL_ERROR ]] || TARBALL_ERROR="no tarball of Slurm $version"
		[[ $rc -eq 2 ]] && TARBALL_MISSING=1
		rm -f "$errf"
		return 1
	fi
	rm -f "$errf"
	[[ -f $TARBALL ]] || {
		TARBALL_ERROR="$TARBALL is a source tree, not a tarball: packages are built from the tarball"
		return 1
	}
	TARBALL_SUM=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	sums=$(dirname "$TARBALL")/SHA256SUMS
	if [[ -f $sums ]]; then
		want=$(awk -v f="$(basename "$TARBALL")" '$2 == f || $2 == "*" f { print $1 }' "$sums")
		[[ -z $want || $want == "$TARBALL_SUM" ]] || {
			TARBALL_ERROR="$TARBALL does not match its checksum in $sums"
			return 1
		}
	fi
	return 0
}

skip_no_tarball() {
	echo "SKIPPED: $_pkg_name: $TARBALL_ERROR"
	exit 77
}

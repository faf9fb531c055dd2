#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# releases.sh: reads release/releases.tsv, the one list of the Slurm
# releases mfprio knows, for configure, the tests and the packages.
# POSIX sh and awk only: it also runs inside rpmbuild on RHEL.
#
# Usage:
#   releases.sh series                 every series, oldest first
#   releases.sh accepted               the series as a sentence
#                                      ("22.05, 23.02, ... and 26.05")
#   releases.sh tested [FILTER...]     the micro releases the tests use;
#                                      FILTER is COLUMN=VALUE (checks=live,
#                                      source=debian, package=NAME: a
#                                      release whose packages list NAME)
#                                      or COLUMN!=VALUE
#   releases.sh get VERSION COLUMN     COLUMN of VERSION's series (VERSION:
#                                      MAJOR.MINOR or MAJOR.MINOR.MICRO[-...])
#   releases.sh known VERSION          exit 0 if VERSION's series is known
#   releases.sh deb-depends VERSION    the Debian dependency on the controller
#                                      of exactly that release (see below)
#   releases.sh deb-version DEBVER VERSION
#                                      the packages' version for Slurm
#                                      VERSION: debian/changelog's DEBVER
#                                      (UPSTREAM-REVISION) as
#                                      UPSTREAM+slurmVERSION-REVISION (below)
#   releases.sh table                  the support table, in Markdown
#   releases.sh c-header               the table as C macros (configure
#                                      writes it to src/release_table.h)
#
# Unknown versions and columns are errors (exit 1, message on stderr).
#
# deb-depends: the upstream release exactly, whatever the packaging's
# revision (22.05.8-4+deb12u3, 24.11.7-1): slurmctld loads a plugin only of
# its own MAJOR.MINOR.MICRO, and a distribution's security revision of the
# same release must not be held back.  Debian cannot say "A in a range or B
# in a range" in one alternative, so it is two: at least VERSION, and below
# VERSION.~ (which sorts after every VERSION-REVISION and VERSION+SUFFIX
# and before VERSION.1); either controller satisfies both, and the two
# packages conflict with each other, so only one is ever installed.
#
# deb-version: the Slurm release goes into the upstream part of the version,
# before the packaging revision, so that builds for two releases coexist in
# one repository and the build for the newer Slurm sorts above the older
# one's whatever their revisions (0.1.0+slurm24.11.8-1 > 0.1.0+slurm24.11.7-2).
# A pre-release's "-" becomes "~" (26.11.0-0rc1 -> +slurm26.11.0~0rc1), which
# sorts below the release itself.  tests/build/pkg-versions.sh checks the
# order with dpkg --compare-versions (and the RPM's Release with rpm's).
set -eu

table=${MFPRIO_RELEASES_TSV:-$(dirname "$0")/releases.tsv}
[ -r "$table" ] || { echo "releases.sh: cannot read $table" >&2; exit 1; }

die() { echo "releases.sh: $*" >&2; exit 1; }

# series_of VERSION: MAJOR.MINOR of VERSION (22.05.8-4+deb12u3 -> 22.05)
series_of() {
	echo "$1" | sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\)\([.-].*\)\{0,1\}$/\1/p'
}

# rows: the table without comments and blank lines
rows() { grep -v '^#' "$table" | grep -v '^[[:space:]]*$'; }

# col NAME: the column number of NAME (from the #series header line)
col() {
	n=$(grep '^#series' "$table" | tr -d '#' | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1)
	[ -n "$n" ] || die "no column '$1' in $table"
	echo "$n"
}

get() {    # get VERSION COLUMN
	s=$(series_of "$1")
	[ -n "$s" ] || die "'$1' is not a Slurm version (MAJOR.MINOR[.MICRO])"
	c=$(col "$2")
	v=$(rows | awk -F '\t' -v s="$s" -v c="$c" '$1 == s { print $c; f = 1 } END { exit !f }') ||
		die "Slurm $1 is not a release mfprio knows (it knows $(accepted))"
	echo "$v"
}

accepted() {
	rows | awk -F '\t' '{ s[++n] = $1 }
		END { for (i = 1; i <= n; i++)
			printf "%s%s", s[i], (i == n ? "\n" : (i == n - 1 ? " and " : ", ")) }'
}

tested() {
	cond=1
	for f in "$@"; do
		case $f in
		*!=*) name=${f%%!=*}; val=${f#*!=}; op='!' ;;
		*=*) name=${f%%=*}; val=${f#*=}; op='' ;;
		*) die "filter '$f' is not COLUMN=VALUE or COLUMN!=VALUE" ;;
		esac
		case $val in *[!A-Za-z0-9._-]*) die "filter value '$val': letters, digits, '.', '_' and '-' only" ;; esac
		if [ "$name" = package ]; then
			c=$(col packages)
			cond="$cond && ${op}(index(\",\" \$$c \",\", \",$val,\") > 0)"
		else
			c=$(col "$name")
			cond="$cond && ${op}(\$$c == \"$val\")"
		fi
	done
	rows | awk -F '\t' -v t="$(col tested)" "$cond { print \$t }"
}

deb_depends() {
	v=$(echo "$1" | sed 's/-.*//')
	echo "$v" | grep -qx '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' ||
		die "deb-depends needs MAJOR.MINOR.MICRO, not '$1'"
	pk=$(get "$v" packages)
	alts=""
	for p in slurmctld slurm-smd-slurmctld; do
		case ",$pk," in *",$p,"*) alts="$alts $p" ;; esac
	done
	# a release neither packaging carries (23.02): a site that packaged it
	# itself under Debian's name
	[ -n "$alts" ] || alts=" slurmctld"
	lo="" hi=""
	for p in $alts; do
		lo="${lo:+$lo | }$p (>= $v)"
		hi="${hi:+$hi | }$p (<< $v.~)"
	done
	echo "$lo, $hi"
}

deb_version() {
	case $1 in
	*:*) die "deb-version: '$1' has an epoch, which mfprio's packages never had" ;;
	*-*) ;;
	*) die "deb-version: '$1' is not UPSTREAM-REVISION" ;;
	esac
	echo "$2" | grep -qx '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\(-[0-9A-Za-z.]*\)\{0,1\}' ||
		die "deb-version needs a Slurm MAJOR.MINOR.MICRO[-PRE], not '$2'"
	get "$2" series >/dev/null
	echo "${1%-*}+slurm$(echo "$2" | tr '-' '~')-${1##*-}"
}

table_md() {
	echo "| series | tested release | tests | controller packages | shipped by |"
	echo "|---|---|---|---|---|"
	rows | awk -F '\t' -v ch="$(col checks)" -v t="$(col tested)" \
		-v p="$(col packages)" -v sh="$(col shipped)" '{
		tests = ($ch == "live") ? "every cluster check" : "build, load, Slurm\047s test program, Fair Tree differential"
		pk = $p; gsub(/,/, ", ", pk)
		printf "| %s | %s | %s | %s | %s |\n", $1, $t, tests, pk, ($sh == "-" ? "" : $sh) }'
}

c_header() {
	rows | awk -F '\t' -v first="$(rows | head -n 1 | cut -f1)" -v last="$(rows | tail -n 1 | cut -f1)" '
	function num(s) { sub(/^0/, "", s); return s }
	BEGIN {
		print "/* SPDX-License-Identifier: GPL-2.0-or-later */"
		print "/*"
		print " * release_table.h: the Slurm releases mfprio knows, as C macros."
		print " * Generated by release/releases.sh c-header from release/releases.tsv;"
		print " * do not edit (configure and make write it anew when the table changes)."
		print " * SLURM_VERSION_NUM-style numbers ((major << 16) + (minor << 8) + micro)"
		print " * are what MF_RELEASE_KNOWN_NUM and MF_RELEASE_FAMILY_NUM take, so that"
		print " * the plugin can test slurm_version.h\x27s SLURM_VERSION_NUMBER in #if."
		print " */"
		print "#ifndef MFPRIO_RELEASE_TABLE_H"
		print "#define MFPRIO_RELEASE_TABLE_H"
		print ""
		print "/* X(MAJOR, MINOR, FAMILY) for every series, oldest first; FAMILY is"
		print "   the entry-point family as a number (24.05 -> 2405) */"
		printf "#define MF_RELEASE_TABLE(X)"
	}
	{
		split($1, v, "."); split($2, f, ".")
		printf " \\\n\tX(%s, %s, %s%s)", num(v[1]), num(v[2]), f[1], f[2]
		ser[++n] = $1; maj[n] = num(v[1]); min[n] = num(v[2]); fam[n] = f[1] f[2]
	}
	END {
		print ""
		print ""
		print "/* the series as text: the list, comma-separated, and the range, \"FIRST to LAST\" */"
		printf "#define MF_RELEASES_LIST \""
		for (i = 1; i <= n; i++) printf "%s%s", ser[i], (i < n ? ", " : "\"\n")
		printf "#define MF_RELEASES_RANGE \"%s to %s\"\n", first, last
		print ""
		print "/* is the version number V of a known series? */"
		printf "#define MF_RELEASE_KNOWN_NUM(V) (0"
		for (i = 1; i <= n; i++)
			printf " || \\\n\t((V) >> 8) == ((%s << 8) + %s)", maj[i], min[i]
		print ")"
		print ""
		print "/* the family of the version number V (0 before the first series) */"
		printf "#define MF_RELEASE_FAMILY_NUM(V)"
		for (i = n; i >= 1; i--)
			printf " \\\n\t((V) >= ((%s << 16) + (%s << 8)) ? %s :", maj[i], min[i], fam[i]
		printf " 0"
		for (i = 1; i <= n; i++) printf ")"
		print ""
		print ""
		print "#endif"
	}'
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
series) rows | cut -f1 ;;
accepted) accepted ;;
tested) tested "$@" ;;
get) [ $# -eq 2 ] || die "usage: releases.sh get VERSION COLUMN"; get "$1" "$2" ;;
known) [ $# -eq 1 ] || die "usage: releases.sh known VERSION"; get "$1" series >/dev/null 2>&1 ;;
deb-depends) [ $# -eq 1 ] || die "usage: releases.sh deb-depends VERSION"; deb_depends "$1" ;;
deb-version) [ $# -eq 2 ] || die "usage: releases.sh deb-version DEBVER VERSION"; deb_version "$1" "$2" ;;
table) table_md ;;
c-header) c_header ;;
*) die "usage: releases.sh series|accepted|tested [FILTER...]|get VERSION COLUMN|known VERSION|deb-depends VERSION|deb-version DEBVER VERSION|table|c-header" ;;
esac

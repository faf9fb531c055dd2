#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-rpm.sh: mfprio's RPM (rpm/mfprio.spec), built and checked with
# Debian's rpm, rpmbuild and rpmlint, against SchedMD's own RPMs of the same
# Slurm release.  No daemon is started and nothing is installed on the host.
#
#   - `make dist` in a copy of the tree (git ls-files, or all of an unpacked
#     tarball) gives mfprio-VERSION.tar.gz, which holds rpm/mfprio.spec as its
#     only spec (what `rpmbuild -ta` needs), of configure.ac's version;
#   - rpmbuild -ta builds it with --define "slurm_tarball ..." naming the
#     release's tarball as SchedMD publishes it (slurm-X.Y.Z.tar.bz2,
#     recompressed from the project's .tar.gz), %check (make check) runs;
#   - rpmlint -c rpm/rpmlint.toml reports nothing: every finding it lets
#     through is a filter there with its reason;
#   - the package holds the plugin in %{_libdir}/mfprio/slurm (built for
#     exactly that release: its plugin_version), /usr/bin/mfprio and the man
#     page; its Release is 1.slurmX.Y.Z; it requires slurm-slurmctld = X.Y.Z,
#     or slurm-slurmctld-ohpc = X.Y.Z with --define 'slurmctld_package
#     slurm-slurmctld-ohpc' (rpmspec -q --requires);
#   - without a Slurm tarball, with a missing one, with one that is not
#     Slurm's and with one of a release release/releases.tsv does not list,
#     rpmbuild fails naming it;
#   - (no tarball of the release found, nor fetched: the test is skipped,
#     exit 77, its last line saying how to provide one)
#   - SchedMD's RPMs of the release (slurm-rpms.sh: built from the same
#     tarball with rpmbuild, cached under /var/cache/mfprio/rpm) go into a
#     scratch `rpm --root`; there SchedMD's slurm-slurmctld satisfies our
#     requirement, ours installs beside Slurm's files without touching any,
#     rpm refuses to upgrade slurm-slurmctld to another release or remove it
#     while ours is installed, and removing ours leaves Slurm's plugin; a
#     stand-in slurm-slurmctld of another release (a dummy package built
#     here) does not satisfy the requirement, one of the same release with
#     another packaging Release (24.11.7-5.el9) does.
#
# Debian's rpm database knows none of the spec's BuildRequires, which are
# RHEL's package names (glib2-devel, json-glib-devel, check-devel,
# munge-devel, ...): every rpmbuild runs with --nodeps, and Debian's own
# packages (tests/install-deps: libglib2.0-dev, libjson-glib-dev, check,
# libmunge-dev, python3, ...) stand in for them.  Debian's brp-compress
# needs bash (it uses `read -d`, which dash lacks; RHEL's /bin/sh is bash),
# so it is run with bash, as it runs on RHEL.  The auto-generated library
# requirements (libc, libglib-2.0, libjson-glib-1.0, ... and rtld(GNU_HASH))
# are provided on RHEL by glibc, glib2 and json-glib; the scratch database
# holds only Slurm's packages, so they are unmet there, and only they are
# let through.
#
# Usage: test-rpm.sh [VERSION]     Slurm release (default 24.11.7; a release
#                                  whose packages column lists slurm-slurmctld)
# Environment:
#   MFPRIO_RPM_CACHE, MFPRIO_SLURM_TARBALLS: see slurm-rpms.sh
#   MFPRIO_KEEP=1          keep the scratch directory even on success
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
version=${1:-24.11.7}

# shellcheck source=pkg-lib.sh source-path=SCRIPTDIR disable=SC1091
. "$here/pkg-lib.sh"
pkg_checks test-rpm clock
# (after a pipe, grep >/dev/null rather than grep -q: under pipefail, -q's
# early exit can kill the writer with SIGPIPE and fail the pipeline)
scratch=""
# cleanup FAILURES: remove the scratch directory unless something failed
# (or MFPRIO_KEEP=1)
cleanup() {
	local failures=${1:-1}
	[[ -n $scratch && -d $scratch ]] || return 0
	if [[ $failures -eq 0 && ${MFPRIO_KEEP:-} != 1 ]]; then
		rm -rf "$scratch"
	else
		say "logs kept in $scratch"
	fi
}
trap 'cleanup 1' EXIT

[[ $(id -u) -eq 0 ]] || { say "must run as root (the Slurm RPMs are cached under /var/cache)"; echo "0 passed, 1 failed"; exit 1; }
for c in rpm rpmbuild rpmspec rpmlint rpm2cpio cpio autoreconf gdb bzip2; do
	command -v "$c" >/dev/null ||
		{ say "no $c (tests/install-deps installs rpm, rpm2cpio, rpmlint, gdb, ...)"; echo "0 passed, 1 failed"; exit 1; }
done
mf_version=$(sed -n 's/^AC_INIT(\[mfprio\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
[[ -n $mf_version ]] || { say "no version in configure.ac"; echo "0 passed, 1 failed"; exit 1; }
# no tarball of the release anywhere (no ../shared/slurm, no
# MFPRIO_SLURM_TARBALLS, no network): skipped (exit 77), saying how to
# provide one; a tarball found but refused is a failure
release_tarball "$version" slurm-slurmctld || {
	[[ -n $TARBALL_MISSING ]] && skip_no_tarball
	say "$TARBALL_ERROR"
	echo "0 passed, 1 failed"
	exit 1
}
slurm_src=$TARBALL
# the version the RPMs carry: MAJOR.MINOR.MICRO (26.11.0 for 26.11.0-0rc1)
sv=${version%%-*}
arch=$(rpm --eval '%{_arch}')
libdir=$(rpm --eval '%{_libdir}')
plugdir=$libdir/mfprio/slurm

scratch=$(mktemp -d /var/tmp/mfprio-rpm-XXXXXX)
chmod 755 "$scratch"
say "Slurm $version ($slurm_src), mfprio $mf_version, scratch directory $scratch"

# ---------------------------------------------------------------- tarballs
# the Slurm tarball as SchedMD publishes it, and as an administrator names it
stb=$scratch/slurm-$version.tar.bz2
case $slurm_src in
*.tar.bz2) cp "$slurm_src" "$stb" ;;
*.tar.gz) gzip -dc "$slurm_src" | bzip2 -c >"$stb" ;;
*) abort "$slurm_src: not a .tar.gz or .tar.bz2" ;;
esac || abort "recompressing $slurm_src as $stb"

# mfprio's: `make dist` in a copy of the tree (pkg_copy_tree)
pkg_copy_tree "$scratch/src"
[[ -f $scratch/src/rpm/mfprio.spec ]] || abort "copying the tree to $scratch/src (no rpm/mfprio.spec)"
say "make dist (autoreconf, configure without a Slurm source; log $scratch/dist.log)"
(cd "$scratch/src" && autoreconf -fi && ./configure && make dist) >"$scratch/dist.log" 2>&1
rc=$?
mftar=$scratch/src/mfprio-$mf_version.tar.gz
check "make dist writes mfprio-$mf_version.tar.gz (rc $rc)" test "$rc" -eq 0 -a -f "$mftar"
[[ -f $mftar ]] || { tail -n 20 "$scratch/dist.log"; abort "no $mftar"; }
mv "$mftar" "$scratch/" && mftar=$scratch/mfprio-$mf_version.tar.gz
specs=$(tar -tzf "$mftar" | grep '\.spec$')
check "the tarball holds rpm/mfprio.spec as its only spec ($specs)" \
	test "$specs" = "mfprio-$mf_version/rpm/mfprio.spec"
tar -xzOf "$mftar" "mfprio-$mf_version/rpm/mfprio.spec" >"$scratch/mfprio.spec"
spec_version=$(awk '$1 == "Version:" { print $2; exit }' "$scratch/mfprio.spec")
check "the spec's Version $spec_version is configure.ac's $mf_version" test "$spec_version" = "$mf_version"

# ---------------------------------------------------------------- build
brs=$(rpmspec -q --buildrequires --define "slurm_tarball $stb" "$scratch/mfprio.spec" 2>/dev/null | tr '\n' ' ')
say "BuildRequires (RHEL's names, unknown to Debian's rpm database, hence --nodeps): $brs"
say "Debian's stand-ins (tests/install-deps): gcc make pkg-config libglib2.0-dev libjson-glib-dev check libmunge-dev python3 tar bzip2 gzip"
# what every rpmbuild of ours here is given
rpmdefs=(--nodeps --define "_smp_mflags -j2"
	--define "__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}")
say "rpmbuild -ta $(basename "$mftar") --define \"slurm_tarball $stb\" (log $scratch/build.log)"
tb=$SECONDS
nice -n 10 rpmbuild -ta "$mftar" "${rpmdefs[@]}" --define "_topdir $scratch/top" \
	--define "slurm_tarball $stb" >"$scratch/build.log" 2>&1
rc=$?
check "rpmbuild -ta succeeds (rc $rc, $((SECONDS - tb)) s)" test "$rc" -eq 0
rpmfile=$(find "$scratch/top/RPMS/$arch" -name "mfprio-$mf_version-*.$arch.rpm" 2>/dev/null | head -n 1)
srpmfile=$(find "$scratch/top/SRPMS" -name "mfprio-$mf_version-*.src.rpm" 2>/dev/null | head -n 1)
[[ -f $rpmfile && -f $srpmfile ]] || { tail -n 30 "$scratch/build.log"; abort "no binary or source RPM under $scratch/top"; }
say "built $(basename "$rpmfile") and $(basename "$srpmfile")"
check "%check ran make check, and every test passed" eval \
	"grep -q '^Executing(%check)' '$scratch/build.log' && grep -q '^PASS: tests/check_core' '$scratch/build.log' && grep -q '^# FAIL: *0\$' '$scratch/build.log'"
check "configure built the plugin against Slurm $version's tarball" \
	grep -q "^checking Slurm source version\.\.\. $version\$" "$scratch/build.log"

# ---------------------------------------------------------------- rpmlint
# rpmlint parses the source RPM's spec: give it the slurm_tarball the
# build had, as an administrator's ~/.rpmmacros would
mkdir -p "$scratch/home"
printf '%%slurm_tarball %s\n' "$stb" >"$scratch/home/.rpmmacros"
HOME=$scratch/home rpmlint -c "$top/rpm/rpmlint.toml" "$rpmfile" "$srpmfile" >"$scratch/rpmlint.log" 2>&1
rc=$?
findings=$(grep -cE '^[^ ]+: [EW]: ' "$scratch/rpmlint.log")
check "rpmlint: no finding left unexplained by rpm/rpmlint.toml ($findings; rc $rc)" \
	test "$findings" -eq 0 -a "$rc" -eq 0
check "rpmlint checked both packages, spec included: 0 errors, 0 warnings" \
	grep -qE '^ *2 packages and 0 specfiles checked; 0 errors, 0 warnings' "$scratch/rpmlint.log"
grep -E '^[^ ]+: [EW]: |checked;' "$scratch/rpmlint.log"

# ---------------------------------------------------------------- contents
rpm -qpl "$rpmfile" >"$scratch/contents" 2>/dev/null
for f in "$plugdir/priority_multifactor.so" /usr/bin/mfprio /usr/share/man/man1/mfprio.1.gz; do
	check "the package holds $f" grep -qx "$f" "$scratch/contents"
done
check "and no libtool archive, and nothing in Slurm's own $libdir/slurm" \
	not grep -qE '\.la$|^'"$libdir"'/slurm(/|$)' "$scratch/contents"
release=$(rpm -qp --qf '%{RELEASE}' "$rpmfile" 2>/dev/null)
check "its Release $release carries Slurm $sv (1.slurm$sv, then the dist tag if any)" \
	eval "[[ '$release' == 1.slurm$sv || '$release' == 1.slurm$sv.* ]]"
rpm -qp --requires "$rpmfile" >"$scratch/requires" 2>/dev/null
check "it requires slurm-slurmctld = $sv" grep -qx "slurm-slurmctld = $sv" "$scratch/requires"
check "and no other Slurm package" eval "[[ \$(grep -c slurm '$scratch/requires') -eq 1 ]]"
check "its License is GPL-2.0-or-later" \
	test "$(rpm -qp --qf '%{LICENSE}' "$rpmfile" 2>/dev/null)" = GPL-2.0-or-later
mkdir -p "$scratch/payload"
(cd "$scratch/payload" && rpm2cpio "$rpmfile" | cpio -idm --quiet 2>/dev/null)
want_num=$(echo "$sv" | awk -F. '{ print $1 * 65536 + $2 * 256 + $3 }')
got_num=$(gdb -batch -ex 'print (unsigned int) plugin_version' \
	"$scratch/payload$plugdir/priority_multifactor.so" 2>/dev/null | sed -n 's/^[$]1 = //p')
check "the packaged plugin is built for Slurm $sv (plugin_version $got_num)" test "$got_num" = "$want_num"
out=$("$scratch/payload/usr/bin/mfprio" --version 2>&1)
check "the packaged mfprio --version says mfprio $mf_version ($out)" test "$out" = "mfprio $mf_version"
check "the packaged man page renders" eval \
	"MANPATH='$scratch/payload/usr/share/man' man -P cat mfprio 2>/dev/null | grep 'replay a Slurm' >/dev/null"

# OpenHPC: the controller package's name is a define
ohpc=$(rpmspec -q --requires --define "slurm_tarball $stb" \
	--define 'slurmctld_package slurm-slurmctld-ohpc' "$scratch/mfprio.spec" 2>/dev/null | grep slurm)
check "with slurmctld_package slurm-slurmctld-ohpc it requires slurm-slurmctld-ohpc = $sv ($ohpc)" \
	test "$ohpc" = "slurm-slurmctld-ohpc = $sv"

# ---------------------------------------------------------------- refusals
# rpmbuild -tp (%prep only) with no Slurm tarball, a missing one, one that
# is not Slurm's and one of a release mfprio does not know: each fails,
# naming it
mkdir -p "$scratch/fake/slurm-21.08.8"
printf '  Name:\tslurm\n  Major:\t21\n  Minor:\t08\n  Micro:\t8\n  Version:\t21.08.8\n  Release:\t1\n' \
	>"$scratch/fake/slurm-21.08.8/META"
tar -C "$scratch/fake" -cjf "$scratch/fake/slurm-21.08.8.tar.bz2" slurm-21.08.8
# refused NAME TEXT [DEFINE-VALUE]: rpmbuild -tp fails and says TEXT
# shellcheck disable=SC2317  # called through check
refused() {
	local name=$1 text=$2 log=$scratch/refused-$1.log
	shift 2
	rpmbuild -tp "$mftar" "${rpmdefs[@]}" --define "_topdir $scratch/top-$name" \
		${1:+--define "slurm_tarball $1"} >"$log" 2>&1 && return 1
	grep -qF -- "$text" "$log"
}
check "no slurm_tarball: rpmbuild fails, saying to define slurm_tarball" \
	refused none 'no Slurm tarball given: build with --define "slurm_tarball'
missing=$scratch/no-such-dir/slurm-$version.tar.bz2
check "a missing tarball: rpmbuild fails naming it" refused missing "$missing: no such file" "$missing"
check "a tarball that is not Slurm's: rpmbuild fails naming it" \
	refused not-slurm "$mftar: not a Slurm source tarball" "$mftar"
check "a tarball of Slurm 21.08.8, which mfprio does not know: rpmbuild fails naming it" \
	refused unknown "$scratch/fake/slurm-21.08.8.tar.bz2 holds Slurm 21.08.8, a release mfprio does not know" \
	"$scratch/fake/slurm-21.08.8.tar.bz2"

# ---------------------------------------------------------------- Slurm's RPMs
say "SchedMD's RPMs of Slurm $version (tests/package/slurm-rpms.sh; cached)"
slurm_dir=$("$here/slurm-rpms.sh" "$version" 2>"$scratch/slurm-rpms.log" | tail -n 1)
sed 's/^/    /' "$scratch/slurm-rpms.log"
[[ -n $slurm_dir && -f $slurm_dir/.mfprio-built ]] ||
	abort "SchedMD's RPMs of Slurm $version (see $scratch/slurm-rpms.log)"
mapfile -t slurm_rpms < <(find "$slurm_dir/RPMS" -name '*.rpm' | sort)
ctld_rpm=$(find "$slurm_dir/RPMS" -name "slurm-slurmctld-$sv-*.rpm" | head -n 1)
check "SchedMD's spec made a slurm-slurmctld $sv package ($(basename "$ctld_rpm"))" test -f "$ctld_rpm"
slurm_plugin=$libdir/slurm/priority_multifactor.so
check "whose slurm package holds Slurm's own $slurm_plugin" \
	eval "rpm -qpl '$slurm_dir'/RPMS/*/slurm-$sv-*.rpm 2>/dev/null | grep -x '$slurm_plugin' >/dev/null"

# stand-ins for slurm-slurmctld: NAME VERSION RELEASE -> the RPM's path
dummy() {
	local d=$scratch/dummy
	mkdir -p "$d"
	cat >"$d/stand-in.spec" <<-'EOF'
		Name:      %{dname}
		Version:   %{dver}
		Release:   %{drel}
		Summary:   stand-in for a Slurm controller package (test-rpm.sh)
		License:   GPL-2.0-or-later
		BuildArch: noarch
		%description
		A package with no files that only has a name and a version.
		%files
	EOF
	rpmbuild -bb "$d/stand-in.spec" --define "_topdir $d/top" --define "dname $1" \
		--define "dver $2" --define "drel $3" >"$d/build-$1-$2-$3.log" 2>&1 || return 1
	find "$d/top/RPMS" -name "$1-$2-$3.noarch.rpm" | head -n 1
}
# unmet ROOT RPM: the requirements `rpm -U --test` finds unmet, one a line
# (rpm's own status, 1 when some are, is not the function's)
unmet() {
	{ rpm --root "$1" -U --test "$2" 2>&1 || true; } |
		sed -n 's/^[[:space:]]*\(.*\) is needed by .*/\1/p' | sort
}
# new_root DIR [RPM...]: an empty rpm database under DIR, with the RPMs
# installed in it as bare files (no dependencies, no scriptlets)
new_root() {
	local dir=$1
	shift
	mkdir -p "$dir" && rpm --root "$dir" --initdb || return 1
	[[ $# -eq 0 ]] || rpm --root "$dir" -i --nodeps --noscripts "$@" >/dev/null 2>&1
}
root=$scratch/root
new_root "$root"
check "control: in an empty rpm database our slurm-slurmctld = $sv is unmet" \
	eval "unmet '$root' '$rpmfile' | grep -x 'slurm-slurmctld = $sv' >/dev/null"

# SchedMD's packages, files and all (no scriptlets: the root has no shell;
# --nodeps: glibc, munge, perl, ... are not in it)
rpm --root "$root" -i --nodeps --noscripts --notriggers "${slurm_rpms[@]}" >"$scratch/slurm-install.log" 2>&1
rc=$?
check "SchedMD's ${#slurm_rpms[@]} RPMs install into the scratch root (rc $rc)" test "$rc" -eq 0
unmet "$root" "$rpmfile" >"$scratch/unmet"
# the library requirements rpm generated for our files: on RHEL glibc,
# glib2 and json-glib provide them
grep -Ev '^rpmlib\(|^slurm-slurmctld ' "$scratch/requires" | sort >"$scratch/libreqs"
check "beside SchedMD's slurm-slurmctld $sv, our requirement of it is met" \
	not grep -q '^slurm-slurmctld' "$scratch/unmet"
# only_libs: every other requirement of ours is a shared library's soname
# (or rtld(GNU_HASH)), and every unmet one is among them
# shellcheck disable=SC2317  # called through check
only_libs() {
	grep -qvE '^((lib|ld-linux)[^ ]*\.so[^ ]*|rtld\(GNU_HASH\))$' "$scratch/libreqs" && return 1
	[[ -z $(comm -23 "$scratch/unmet" "$scratch/libreqs") ]]
}
check "and the only unmet ones are among its $(wc -l <"$scratch/libreqs") system library requirements ($(grep -c . "$scratch/unmet") unmet)" \
	only_libs
say "unmet in the scratch root (system libraries, not in it): $(tr '\n' ' ' <"$scratch/unmet")"

rpm --root "$root" -U --nodeps --noscripts "$rpmfile" >"$scratch/install.log" 2>&1
rc=$?
check "ours installs beside them, no file conflict (rc $rc)" test "$rc" -eq 0
check "the root has our plugin, owned by mfprio" \
	eval "[[ \$(rpm --root '$root' -qf '$plugdir/priority_multifactor.so' --qf '%{NAME}') == mfprio ]]"
check "and Slurm's own plugin, owned by slurm" \
	eval "[[ \$(rpm --root '$root' -qf '$slurm_plugin' --qf '%{NAME}') == slurm ]]"
# (--nodeps: verify the files, not the dependencies the root lacks)
rpm --root "$root" -V --nodeps slurm slurm-slurmctld >"$scratch/verify.log" 2>&1
rc=$?
check "rpm -V: no file of slurm or slurm-slurmctld changed (rc $rc)" test "$rc" -eq 0 -a ! -s "$scratch/verify.log"
check "rpm -q --whatrequires slurm-slurmctld names mfprio" \
	eval "rpm --root '$root' -q --whatrequires slurm-slurmctld | grep '^mfprio-$mf_version-' >/dev/null"

next=$(echo "$sv" | awk -F. '{ printf "%s.%s.%d\n", $1, $2, $3 + 1 }')
next_rpm=$(dummy slurm-slurmctld "$next" 1)
same_rpm=$(dummy slurm-slurmctld "$sv" 5.el9)
[[ -f $next_rpm && -f $same_rpm ]] || abort "building the stand-in packages (see $scratch/dummy)"
rpm --root "$root" -U --test "$next_rpm" >"$scratch/upgrade.log" 2>&1
check "an upgrade of slurm-slurmctld to $next is refused while ours is installed" \
	grep -q "slurm-slurmctld = $sv is needed by (installed) mfprio-$mf_version-" "$scratch/upgrade.log"
rpm --root "$root" -e --test slurm-slurmctld >"$scratch/erase.log" 2>&1
check "and so is removing slurm-slurmctld" \
	grep -q "slurm-slurmctld = $sv is needed by (installed) mfprio-$mf_version-" "$scratch/erase.log"
rpm --root "$root" -e --noscripts mfprio >"$scratch/remove.log" 2>&1
rc=$?
check "removing ours (rc $rc) leaves no $plugdir and Slurm's plugin in place" \
	eval "[[ $rc -eq 0 && ! -e '$root$plugdir' && -f '$root$slurm_plugin' ]]"

root2=$scratch/root-other
new_root "$root2" "$next_rpm"
check "a slurm-slurmctld of Slurm $next does not satisfy ours" \
	eval "unmet '$root2' '$rpmfile' | grep -x 'slurm-slurmctld = $sv' >/dev/null"
root3=$scratch/root-same
new_root "$root3" "$same_rpm"
check "a slurm-slurmctld $sv-5.el9 (same release, another packaging) does" \
	eval "! unmet '$root3' '$rpmfile' | grep '^slurm-slurmctld' >/dev/null"

finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-rpm.sh: mfprio's RPMs (rpm/mfprio.spec), built and checked with
# Debian's rpm, rpmbuild and rpmlint, against SchedMD's own RPMs of the same
# Slurm release.  No daemon is started and nothing is installed on the host.
#
#   - the README's block of RPM commands (section "RHEL, Rocky, Alma"), as
#     written, in a clean copy of the tree (git ls-files, as a clone has it)
#     with HOME a scratch directory: its `curl -LO URL` gets the release's
#     tarball under SchedMD's name (slurm-X.Y.Z.tar.bz2, recompressed here
#     from the project's copy, no network), its `sudo dnf install PACKAGES`
#     must name every BuildRequires of the spec, its build commands
#     (release/build-packages.sh rpm: make dist, rpmbuild -ta with the Slurm
#     tarball beside mfprio's, %check) run as written, and each RPM its
#     `sudo dnf install ~/rpmbuild/...` names must be what the build wrote;
#   - the dist tarball holds rpm/mfprio.spec as its only spec, of
#     configure.ac's version; the source RPM holds mfprio's and the Slurm
#     tarball (Source1), and rpmbuild -rp (rebuild through %prep) from it
#     alone, without a --define, unpacks and configures Slurm's source;
#   - rpmlint -c rpm/rpmlint.toml reports nothing: every finding it lets
#     through is a filter there with its reason;
#   - mfprio-plugin holds the plugin in %{_libdir}/mfprio/slurm (built for
#     exactly that release: its plugin_version; no BIND_NOW, as Slurm's own
#     plugins), and requires slurm-slurmctld = X.Y.Z, or
#     slurm-slurmctld-ohpc = X.Y.Z with --define 'slurmctld_package
#     slurm-slurmctld-ohpc'; mfprio holds /usr/bin/mfprio, the man page and
#     the plugin directory, and requires no Slurm package; the Release of
#     both is slurmX.Y.Z.1 then the dist tag;
#   - with no Slurm tarball, with two, with a missing one, with one that is
#     not Slurm's and with one of a release release/releases.tsv does not
#     list, rpmbuild fails naming it;
#   - (no tarball of the release found, nor fetched: the test is skipped,
#     exit 77, its last line saying how to provide one)
#   - SchedMD's RPMs of the release (slurm-rpms.sh: built from the same
#     tarball with rpmbuild, cached under /var/cache/mfprio/rpm) go into a
#     scratch `rpm --root`; there SchedMD's slurm-slurmctld satisfies our
#     requirement, ours install beside Slurm's files without touching any,
#     rpm refuses to upgrade slurm-slurmctld to another release or remove it
#     while mfprio-plugin is installed, and removing it leaves Slurm's
#     plugin; a stand-in slurm-slurmctld of another release (a dummy package
#     built here) does not satisfy the requirement, one of the same release
#     with another packaging Release (24.11.7-5.el9) does; in an empty
#     database, mfprio's only unmet requirements are system libraries.
#
# Debian's rpm database knows none of the spec's BuildRequires, which are
# RHEL's package names (glib2-devel, json-glib-devel, check-devel,
# munge-devel, ...): rpmbuild runs with --nodeps (a wrapper first on PATH
# adds it to the README's commands), and Debian's own packages
# (tests/install-deps: libglib2.0-dev, libjson-glib-dev, check,
# libmunge-dev, python3, ...) stand in for them.  Debian's brp-compress
# needs bash (it uses `read -d`, which dash lacks; RHEL's /bin/sh is bash),
# so it is run with bash, as it runs on RHEL, and %dist is .el9, as on
# EL9 (both in the scratch HOME's .rpmmacros).  The auto-generated library
# requirements (libc, libglib-2.0, libjson-glib-1.0, ... and rtld(GNU_HASH))
# are provided on RHEL by glibc, glib2 and json-glib; the scratch database
# holds only Slurm's packages, so they are unmet there, and only they are
# let through.
#
# Usage: test-rpm.sh [VERSION]     Slurm release (default 24.11.7, the
#                                  README's; a release whose packages
#                                  column lists slurm-slurmctld)
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

# ---------------------------------------------------------------- the README's commands
# the README's block: the fenced block after the comment that names this test
awk '/^<!-- tests\/package\/test-rpm.sh runs this block/ { on = 1; next }
	on == 1 && /^```/ { on = 2; next }
	on == 2 && /^```/ { exit }
	on == 2' "$top/README.md" |
	# continuation lines joined
	awk '{ if (sub(/\\$/, "")) { l = l $0; next } print l $0; l = "" }' >"$scratch/readme-block"
check "the README has the block of RPM commands ($(wc -l <"$scratch/readme-block") lines)" \
	test -s "$scratch/readme-block"
# the tree as a clone has it, and a HOME of its own (~/rpmbuild, .rpmmacros)
pkg_copy_tree "$scratch/clone"
[[ -f $scratch/clone/rpm/mfprio.spec ]] || abort "copying the tree to $scratch/clone (no rpm/mfprio.spec)"
home=$scratch/home
mkdir -p "$home" "$scratch/bin"
# Debian's rpm: brp-compress with bash; EL9's %dist; two jobs
printf '%%__brp_compress bash %%{_rpmconfigdir}/brp-compress %%{?_prefix}\n%%dist .el9\n%%_smp_mflags -j2\n' \
	>"$home/.rpmmacros"
# rpmbuild with --nodeps: Debian's rpm database has none of the BuildRequires
printf '#!/bin/sh\nexec %s --nodeps "$@"\n' "$(command -v rpmbuild)" >"$scratch/bin/rpmbuild"
chmod 755 "$scratch/bin/rpmbuild"
brs=$(rpmspec -q --buildrequires --define "_sourcedir $(dirname "$slurm_src")" \
	--define "slurm_tarball $(basename "$slurm_src")" "$top/rpm/mfprio.spec" 2>/dev/null | awk '{ print $1 }' | LC_ALL=C sort -u)
say "BuildRequires (RHEL's names, unknown to Debian's rpm database, hence --nodeps): $(tr '\n' ' ' <<<"$brs")"
wanted_rpms=()
n=0
while IFS= read -r line; do
	n=$((n + 1))
	[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
	case $line in
	"sudo dnf install ~/"*)
		f=${line#sudo dnf install }
		f=${f%% *}
		wanted_rpms+=("$home/${f#\~/}")
		;;
	"sudo dnf install "*)
		# every BuildRequires among the packages it installs
		# shellcheck disable=SC2086  # a list of words
		printf '%s\n' ${line#sudo dnf install } | LC_ALL=C sort -u >"$scratch/dnf-$n"
		missing=$(LC_ALL=C comm -23 <(echo "$brs") "$scratch/dnf-$n" | tr '\n' ' ')
		check "README line $n installs every BuildRequires of the spec${missing:+ (missing: $missing)}" test -z "$missing"
		for t in rpm-build autoconf automake libtool; do
			check "and $t, which the build from a clone needs" grep -qx "$t" "$scratch/dnf-$n"
		done
		;;
	"curl -LO "*)
		url=${line#curl -LO }
		check "README line $n fetches SchedMD's file of Slurm $version ($url)" \
			test "$url" = "https://download.schedmd.com/slurm/slurm-$version.tar.bz2"
		# no network: the same release, recompressed as SchedMD publishes it
		case $slurm_src in
		*.tar.bz2) cp "$slurm_src" "$scratch/clone/${url##*/}" ;;
		*.tar.gz) gzip -dc "$slurm_src" | bzip2 -c >"$scratch/clone/${url##*/}" ;;
		*) false ;;
		esac || abort "$slurm_src as $scratch/clone/${url##*/}"
		;;
	*)
		say "README line $n: $line (log $scratch/readme-$n.log)"
		tb=$SECONDS
		(cd "$scratch/clone" && HOME=$home PATH=$scratch/bin:$PATH nice -n 10 bash -c "$line") \
			>"$scratch/readme-$n.log" 2>&1
		rc=$?
		check "README line $n, as written, succeeds (rc $rc, $((SECONDS - tb)) s)" test "$rc" -eq 0
		[[ $rc -eq 0 ]] || tail -n 30 "$scratch/readme-$n.log"
		;;
	esac
done <"$scratch/readme-block"
cat "$scratch"/readme-[0-9]*.log >"$scratch/build.log" 2>/dev/null
check "the README names two RPMs to install (${#wanted_rpms[@]})" test "${#wanted_rpms[@]}" -eq 2
for f in "${wanted_rpms[@]}"; do
	check "the build wrote ${f#"$home/"}" test -f "$f"
done
pluginrpm=$(find "$home/rpmbuild/RPMS/$arch" -name "mfprio-plugin-$mf_version-*.$arch.rpm" 2>/dev/null | head -n 1)
cmdrpm=$(find "$home/rpmbuild/RPMS/$arch" -name "mfprio-$mf_version-*.$arch.rpm" 2>/dev/null | head -n 1)
srpmfile=$(find "$home/rpmbuild/SRPMS" -name "mfprio-$mf_version-*.src.rpm" 2>/dev/null | head -n 1)
[[ -f $pluginrpm && -f $cmdrpm && -f $srpmfile ]] || { tail -n 30 "$scratch/build.log"; abort "no binary or source RPMs under $home/rpmbuild"; }
rpmfile=$pluginrpm
say "built $(basename "$pluginrpm"), $(basename "$cmdrpm") and $(basename "$srpmfile")"
check "%check ran make check, and every test passed" eval \
	"grep -q '^Executing(%check)' '$scratch/build.log' && grep -q '^PASS: tests/check_core' '$scratch/build.log' && grep -q '^# FAIL: *0\$' '$scratch/build.log'"
check "configure built the plugin against Slurm $version's tarball" \
	grep -q "^checking Slurm source version\.\.\. $version\$" "$scratch/build.log"

# the dist tarball the build made
mftar=$(find "$scratch/clone/_build/packages/rpm-sources" -name "mfprio-$mf_version.tar.gz" | head -n 1)
[[ -f $mftar ]] || abort "no mfprio-$mf_version.tar.gz under $scratch/clone/_build/packages/rpm-sources"
cp "$mftar" "$scratch/"
mftar=$scratch/mfprio-$mf_version.tar.gz
stb=$scratch/clone/slurm-$version.tar.bz2
specs=$(tar -tzf "$mftar" | grep '\.spec$')
check "the tarball holds rpm/mfprio.spec as its only spec ($specs)" \
	test "$specs" = "mfprio-$mf_version/rpm/mfprio.spec"
tar -xzOf "$mftar" "mfprio-$mf_version/rpm/mfprio.spec" >"$scratch/mfprio.spec"
spec_version=$(awk '$1 == "Version:" { print $2; exit }' "$scratch/mfprio.spec")
check "the spec's Version $spec_version is configure.ac's $mf_version" test "$spec_version" = "$mf_version"

# the source RPM: everything the build needs, and nothing to --define
srcs=$(rpm -qpl "$srpmfile" 2>/dev/null | LC_ALL=C sort | tr '\n' ' ')
check "the source RPM holds mfprio's tarball, Slurm's and the spec ($srcs)" \
	test "$srcs" = "mfprio-$mf_version.tar.gz mfprio.spec slurm-$version.tar.bz2 "
rpmdefs=(--nodeps --define "_smp_mflags -j2"
	--define "__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}")
say "rpmbuild -rp $(basename "$srpmfile"), no --define (log $scratch/rebuild-prep.log)"
rpmbuild -rp "$srpmfile" "${rpmdefs[@]}" --define "_topdir $scratch/top-rebuild" >"$scratch/rebuild-prep.log" 2>&1
rc=$?
check "from the source RPM alone, %prep unpacks and configures Slurm $version's source (rc $rc)" \
	eval "[[ $rc -eq 0 ]] && grep -q '^#define SLURM_VERSION_STRING \"$version\"' '$scratch'/top-rebuild/BUILD/mfprio-$mf_version/slurm-source/config.h"

# ---------------------------------------------------------------- rpmlint
# (rpmlint parses the source RPM's spec, whose Slurm tarball is in it)
rpmlint -c "$top/rpm/rpmlint.toml" "$pluginrpm" "$cmdrpm" "$srpmfile" >"$scratch/rpmlint.log" 2>&1
rc=$?
findings=$(grep -cE '^[^ ]+: [EW]: ' "$scratch/rpmlint.log")
check "rpmlint: no finding left unexplained by rpm/rpmlint.toml ($findings; rc $rc)" \
	test "$findings" -eq 0 -a "$rc" -eq 0
check "rpmlint checked the three packages, spec included: 0 errors, 0 warnings" \
	grep -qE '^ *3 packages and 0 specfiles checked; 0 errors, 0 warnings' "$scratch/rpmlint.log"
grep -E '^[^ ]+: [EW]: |checked;' "$scratch/rpmlint.log"

# ---------------------------------------------------------------- contents
rpm -qpl "$pluginrpm" >"$scratch/contents" 2>/dev/null
rpm -qpl "$cmdrpm" >"$scratch/contents-command" 2>/dev/null
check "mfprio-plugin holds $plugdir/priority_multifactor.so" grep -qx "$plugdir/priority_multifactor.so" "$scratch/contents"
check "and not the command, no libtool archive, nothing in Slurm's own $libdir/slurm" \
	not grep -qE '/bin/|/man/|\.la$|^'"$libdir"'/slurm(/|$)' "$scratch/contents"
for f in /usr/bin/mfprio /usr/share/man/man1/mfprio.1.gz "$plugdir"; do
	check "mfprio holds $f" grep -qx "$f" "$scratch/contents-command"
done
check "and no plugin" not grep -q 'priority_multifactor' "$scratch/contents-command"
for r in "$pluginrpm" "$cmdrpm"; do
	release=$(rpm -qp --qf '%{RELEASE}' "$r" 2>/dev/null)
	check "$(rpm -qp --qf '%{NAME}' "$r" 2>/dev/null)'s Release $release is slurm$sv.1.el9 (the Slurm release, the revision, the dist tag)" \
		test "$release" = "slurm$sv.1.el9"
done
rpm -qp --requires "$pluginrpm" >"$scratch/requires" 2>/dev/null
check "mfprio-plugin requires slurm-slurmctld = $sv" grep -qx "slurm-slurmctld = $sv" "$scratch/requires"
check "and no other Slurm package" eval "[[ \$(grep -c slurm '$scratch/requires') -eq 1 ]]"
rpm -qp --requires "$cmdrpm" >"$scratch/requires-command" 2>/dev/null
check "mfprio requires no Slurm package" not grep -qi slurm "$scratch/requires-command"
check "its License is GPL-2.0-or-later" \
	test "$(rpm -qp --qf '%{LICENSE}' "$pluginrpm" 2>/dev/null)" = GPL-2.0-or-later
mkdir -p "$scratch/payload"
for r in "$pluginrpm" "$cmdrpm"; do
	(cd "$scratch/payload" && rpm2cpio "$r" | cpio -idm --quiet 2>/dev/null)
done
want_num=$(echo "$sv" | awk -F. '{ print $1 * 65536 + $2 * 256 + $3 }')
got_num=$(gdb -batch -ex 'print (unsigned int) plugin_version' \
	"$scratch/payload$plugdir/priority_multifactor.so" 2>/dev/null | sed -n 's/^[$]1 = //p')
check "the packaged plugin is built for Slurm $sv (plugin_version $got_num)" test "$got_num" = "$want_num"
flags=$(readelf -d "$scratch/payload$plugdir/priority_multifactor.so" 2>&1 | grep -E 'FLAGS|BIND_NOW')
check "and linked as Slurm's own plugins are: no BIND_NOW (${flags:-no flags})" \
	not grep -qE 'BIND_NOW|Flags:.* NOW' <<<"$flags"
out=$("$scratch/payload/usr/bin/mfprio" --version 2>&1)
check "the packaged mfprio --version says mfprio $mf_version ($out)" test "$out" = "mfprio $mf_version"
check "the packaged man page renders" eval \
	"MANPATH='$scratch/payload/usr/share/man' man -P cat mfprio 2>/dev/null | grep 'replay a Slurm' >/dev/null"

# RHEL's build flags, as redhat-rpm-config layers them (a macro file's
# _hardened_ldflags, -z now under _hardened_build, and LTO in build_cflags),
# simulated with --define: the spec's own settings must win, as in
# SchedMD's slurm.spec, so that %configure links the plugin lazily
rhel=(--define '_hardened_build 1' --define '_hardened_ldflags %{?_hardened_build:-Wl,-z,now}'
	--define 'build_ldflags -Wl,-z,relro %{?_hardened_ldflags}'
	--define '_lto_cflags -flto=auto' --define 'build_cflags -O2 %{?_lto_cflags}')
rpmspec -P --define "_sourcedir $(dirname "$stb")" --define "slurm_tarball $(basename "$stb")" "${rhel[@]}" \
	"$scratch/mfprio.spec" 2>/dev/null | grep -E '^ *(C|LD)FLAGS=' >"$scratch/rhel-flags"
check "under RHEL's hardened build flags, %configure gets no -z now and no LTO ($(tr -s ' \n' ' ' <"$scratch/rhel-flags"))" \
	eval "grep -q 'LDFLAGS=.*-z,lazy' '$scratch/rhel-flags' && ! grep -qE 'z,now|flto' '$scratch/rhel-flags'"

# OpenHPC: the controller package's name is a define
ohpc=$(rpmspec -q --requires --define "_sourcedir $(dirname "$stb")" --define "slurm_tarball $(basename "$stb")" \
	--define 'slurmctld_package slurm-slurmctld-ohpc' "$scratch/mfprio.spec" 2>/dev/null | grep slurm)
check "with slurmctld_package slurm-slurmctld-ohpc it requires slurm-slurmctld-ohpc = $sv ($ohpc)" \
	test "$ohpc" = "slurm-slurmctld-ohpc = $sv"

# ---------------------------------------------------------------- refusals
# rpmbuild -tp (%prep only) of mfprio's tarball in a directory with no
# Slurm tarball, two, a missing one named, one that is not Slurm's and one
# of a release mfprio does not know: each fails, naming it
mkdir -p "$scratch/fake/slurm-21.08.8"
printf '  Name:\tslurm\n  Major:\t21\n  Minor:\t08\n  Micro:\t8\n  Version:\t21.08.8\n  Release:\t1\n' \
	>"$scratch/fake/slurm-21.08.8/META"
# refused NAME TEXT [FILE|define=NAME]...: rpmbuild -tp of mfprio's tarball
# beside the FILEs (with slurm_tarball NAME defined) fails and says TEXT
# shellcheck disable=SC2317  # called through check
refused() {
	local text=$2 d=$scratch/refused-$1 log=$scratch/refused-$1.log a defs=()
	shift 2
	mkdir -p "$d"
	cp "$mftar" "$d/"
	for a in "$@"; do
		case $a in
		define=*) defs=(--define "slurm_tarball ${a#define=}") ;;
		*) cp "$a" "$d/" ;;
		esac
	done
	rpmbuild -tp "$d/${mftar##*/}" "${rpmdefs[@]}" --define "_topdir $d/top" "${defs[@]}" >"$log" 2>&1 && return 1
	grep -qF -- "$text" "$log"
}
tar -C "$scratch/fake" -cjf "$scratch/fake/slurm-21.08.8.tar.bz2" slurm-21.08.8
cp "$mftar" "$scratch/fake/slurm-9.9.9.tar.gz"
cp "$stb" "$scratch/fake/slurm-$version.tar.bz2" 2>/dev/null
check "no Slurm tarball: rpmbuild fails, saying where to put it" \
	refused none "no Slurm tarball: put SchedMD's slurm-VERSION.tar.bz2"
check "two: rpmbuild fails, naming both and saying to pick one" \
	refused several "holds several: slurm-21.08.8.tar.bz2 slurm-$version.tar.bz2: name one with" \
	"$scratch/fake/slurm-21.08.8.tar.bz2" "$scratch/fake/slurm-$version.tar.bz2"
check "a missing tarball: rpmbuild fails naming it" \
	refused missing "/slurm-$version.tar.bz2: no such file" "define=slurm-$version.tar.bz2"
check "a tarball that is not Slurm's: rpmbuild fails naming it" \
	refused not-slurm "/slurm-9.9.9.tar.gz: not a Slurm source tarball" "$scratch/fake/slurm-9.9.9.tar.gz"
check "a tarball of Slurm 21.08.8, which mfprio does not know: rpmbuild fails naming it" \
	refused unknown "/slurm-21.08.8.tar.bz2 holds Slurm 21.08.8, a release mfprio does not know" \
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

rpm --root "$root" -U --nodeps --noscripts "$pluginrpm" "$cmdrpm" >"$scratch/install.log" 2>&1
rc=$?
check "ours install beside them, no file conflict (rc $rc)" test "$rc" -eq 0
check "the root has our plugin, owned by mfprio-plugin" \
	eval "[[ \$(rpm --root '$root' -qf '$plugdir/priority_multifactor.so' --qf '%{NAME}') == mfprio-plugin ]]"
check "and Slurm's own plugin, owned by slurm" \
	eval "[[ \$(rpm --root '$root' -qf '$slurm_plugin' --qf '%{NAME}') == slurm ]]"
# (--nodeps: verify the files, not the dependencies the root lacks)
rpm --root "$root" -V --nodeps slurm slurm-slurmctld >"$scratch/verify.log" 2>&1
rc=$?
check "rpm -V: no file of slurm or slurm-slurmctld changed (rc $rc)" test "$rc" -eq 0 -a ! -s "$scratch/verify.log"
check "rpm -q --whatrequires slurm-slurmctld names mfprio-plugin, and only it" \
	eval "[[ \$(rpm --root '$root' -q --whatrequires slurm-slurmctld) == mfprio-plugin-$mf_version-* ]]"

next=$(echo "$sv" | awk -F. '{ printf "%s.%s.%d\n", $1, $2, $3 + 1 }')
next_rpm=$(dummy slurm-slurmctld "$next" 1)
same_rpm=$(dummy slurm-slurmctld "$sv" 5.el9)
[[ -f $next_rpm && -f $same_rpm ]] || abort "building the stand-in packages (see $scratch/dummy)"
rpm --root "$root" -U --test "$next_rpm" >"$scratch/upgrade.log" 2>&1
check "an upgrade of slurm-slurmctld to $next is refused while ours is installed" \
	grep -q "slurm-slurmctld = $sv is needed by (installed) mfprio-plugin-$mf_version-" "$scratch/upgrade.log"
rpm --root "$root" -e --test slurm-slurmctld >"$scratch/erase.log" 2>&1
check "and so is removing slurm-slurmctld" \
	grep -q "slurm-slurmctld = $sv is needed by (installed) mfprio-plugin-$mf_version-" "$scratch/erase.log"
rpm --root "$root" -e --noscripts mfprio-plugin >"$scratch/remove.log" 2>&1
rc=$?
check "removing mfprio-plugin (rc $rc) leaves no plugin of ours, and Slurm's in place" \
	eval "[[ $rc -eq 0 && ! -e '$root$plugdir/priority_multifactor.so' && -f '$root$slurm_plugin' ]]"
rpm --root "$root" -e --noscripts mfprio >>"$scratch/remove.log" 2>&1
rc=$?
check "removing mfprio (rc $rc) leaves no $plugdir" eval "[[ $rc -eq 0 && ! -e '$root$plugdir' ]]"

# the command on a node without Slurm: in an empty database, only system
# libraries are unmet
root4=$scratch/root-command
new_root "$root4"
unmet "$root4" "$cmdrpm" >"$scratch/unmet-command"
check "in an empty rpm database, mfprio's only unmet requirements are system libraries ($(grep -c . "$scratch/unmet-command"))" \
	not grep -qvE '^((lib|ld-linux)[^ ]*\.so[^ ]*|rtld\(GNU_HASH\))$' "$scratch/unmet-command"

root2=$scratch/root-other
new_root "$root2" "$next_rpm"
check "a slurm-slurmctld of Slurm $next does not satisfy ours" \
	eval "unmet '$root2' '$rpmfile' | grep -x 'slurm-slurmctld = $sv' >/dev/null"
root3=$scratch/root-same
new_root "$root3" "$same_rpm"
check "a slurm-slurmctld $sv-5.el9 (same release, another packaging) does" \
	eval "! unmet '$root3' '$rpmfile' | grep '^slurm-slurmctld' >/dev/null"

finish

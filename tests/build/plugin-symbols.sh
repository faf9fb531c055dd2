#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plugin-symbols.sh PLUGIN [LIBSLURMFULL]: the plugin loads in every Slurm
# process that loads priority plugins, not only in slurmctld.
#
#   PLUGIN        priority_multifactor.so, or the directory holding it
#                 (a build tree's src/plugin/.libs, an install's plugin dir)
#   LIBSLURMFULL  the libslurmfull.so of the release it was built for
#                 (default: the one beside that release's own plugins, as
#                 tests/cluster/instance.sh finds them: MFPRIO_SLURM_PREFIX's
#                 lib/slurm, else the installed packages')
#
# 1. Every undefined dynamic symbol of the plugin that is not weak must be
#    defined by LIBSLURMFULL or by a library in the process anyway (the
#    plugin's own DT_NEEDED libraries and LIBSLURMFULL's, as ldd resolves
#    them: libc, libm, glib, ...).  A symbol only slurmctld defines
#    (find_job_record, job_list, ...) must be weak and checked before use
#    (src/plugin/access/ctld.c): a strong one is named and fails the check.
# 2. The plugin is dlopened, as Slurm's plugin loader does, in a process
#    that has loaded LIBSLURMFULL with RTLD_GLOBAL and no slurmctld: with
#    RTLD_LAZY, and with RTLD_NOW (what a plugin linked -z now, BIND_NOW,
#    as hardened packages are, does to every load); both must succeed, and
#    the plugin's plugin_type must read "priority/multifactor".
# Ends with "N passed, M failed"; exit status 0 only when nothing failed.
set -uo pipefail
so=${1:?usage: plugin-symbols.sh PLUGIN [LIBSLURMFULL]}
if [[ -n ${2:-} ]]; then
	lib=$2
else
	# shellcheck source=../cluster/instance.sh disable=SC1091
	. "$(dirname "${BASH_SOURCE[0]}")/../cluster/instance.sh"
	lib=$SLURM_PLUGIN_DIR/libslurmfull.so
fi
[[ -d $so ]] && so=$so/priority_multifactor.so
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
for f in "$so" "$lib"; do
	[[ -f $f ]] || { echo "FAILED: $f missing"; echo "0 passed, 1 failed"; exit 1; }
done
so=$(readlink -f "$so")
lib=$(readlink -f "$lib")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the libraries the process holds besides slurmctld: libslurmfull, what it
# needs, and what the plugin needs (paths as the loader resolves them)
libs=("$lib")
while read -r p; do
	[[ -f $p ]] && libs+=("$p")
done < <({ ldd "$lib"; ldd "$so"; } 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)
for l in "${libs[@]}"; do
	nm -D --defined-only "$l" 2>/dev/null | awk 'NF >= 3 { print $3 }'
done | sed 's/@.*//' | sort -u >"$tmp/defined"
# the plugin's undefined symbols: strong (U) and weak (w, v)
nm -D --undefined-only "$so" | awk '$1 == "U" { print $2 }' | sed 's/@.*//' | sort -u >"$tmp/strong"
nm -D --undefined-only "$so" | awk '$1 == "w" || $1 == "v" { print $2 }' | sed 's/@.*//' | sort -u >"$tmp/weak"
echo "the plugin: $so"
echo "  $(wc -l <"$tmp/strong") strong and $(wc -l <"$tmp/weak") weak undefined symbols"
echo "the process's libraries: ${libs[*]}"
echo "  $(wc -l <"$tmp/defined") symbols defined"
if [[ $(wc -l <"$tmp/defined") -lt 1000 ]]; then
	bad "only $(wc -l <"$tmp/defined") symbols defined in $lib and its libraries: not a libslurmfull"
fi
if [[ $(wc -l <"$tmp/strong") -lt 10 ]]; then
	bad "only $(wc -l <"$tmp/strong") undefined symbols in $so: not the plugin"
fi
comm -23 "$tmp/strong" "$tmp/defined" >"$tmp/missing"
if [[ -s $tmp/missing ]]; then
	bad "strong references that no library defines (only slurmctld may; they make the load fail elsewhere): $(tr '\n' ' ' <"$tmp/missing")"
else
	ok "every strong undefined symbol is defined by libslurmfull or a library the process has"
fi
# the weak ones, for the record (slurmctld's, each checked in ctld.c)
echo "weak references: $(comm -23 "$tmp/weak" "$tmp/defined" | grep -v '^_ITM\|^__gmon\|^__cxa' | tr '\n' ' ')"

# Slurm's loader: libslurmfull global first, then the plugin
for mode in LAZY NOW; do
	out=$(python3 - "$lib" "$so" "$mode" 2>&1 <<'PY'
import ctypes, os, sys
lib, so, mode = sys.argv[1], sys.argv[2], sys.argv[3]
ctypes.CDLL(lib, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
flags = (os.RTLD_LAZY if mode == "LAZY" else os.RTLD_NOW) | os.RTLD_LOCAL
try:
    h = ctypes.CDLL(so, mode=flags)
except OSError as e:
    print("dlopen failed: %s" % e)
    sys.exit(1)
print("plugin_type=%s" % (ctypes.c_char * 21).in_dll(h, "plugin_type").value.decode())
PY
)
	rc=$?
	if [[ $rc -eq 0 && $out == *"plugin_type=priority/multifactor"* ]]; then
		ok "dlopen RTLD_$mode after libslurmfull RTLD_GLOBAL: $out"
	else
		bad "dlopen RTLD_$mode after libslurmfull RTLD_GLOBAL (status $rc): $out"
	fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plugin-no-parsers.sh BUILDDIR: the plugin that runs inside slurmctld
# carries none of the command's input readers (src/input: slurm.conf, time
# strings, hostlists, the priority settings read from them): no function or
# object the input library defines is defined in the plugin's .so, and the
# core library, which the plugin links, holds none of them either.
set -uo pipefail
b=${1:?usage: plugin-no-parsers.sh BUILDDIR}
so=$b/src/plugin/.libs/priority_multifactor.so
input=$b/src/input/.libs/libmfinput.a
core=$b/src/core/.libs/libmfcore.a
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }
for f in "$so" "$input" "$core"; do
	[[ -f $f ]] || { echo "FAILED: $f missing (build first)"; echo "0 passed, 1 failed"; exit 1; }
done
# the global functions and data the input library defines
mapfile -t syms < <(nm --defined-only -g "$input" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
if [[ ${#syms[@]} -lt 10 ]]; then
	bad "only ${#syms[@]} symbols read from $input: not the input library"
else
	ok "${#syms[@]} symbols defined by the input library"
fi
in_so=$(comm -12 <(printf '%s\n' "${syms[@]}") <(nm --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort -u))
if [[ -z $in_so ]]; then
	ok "the plugin defines none of them"
else
	bad "the plugin defines input readers: $(echo "$in_so" | head -5 | tr '\n' ' ')"
fi
members=$(ar t "$core" | grep -E 'timestr|hostlist|slurm_conf|priority_conf')
if [[ -z $members ]]; then
	ok "the core library has no reader's object"
else
	bad "the core library holds $(echo "$members" | tr '\n' ' ')"
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

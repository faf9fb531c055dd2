#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# test-plugin-mismatch.sh: what the README promises for a Slurm upgraded
# under an mfprio built for the previous release.  slurmctld takes a plugin
# only of its own MAJOR.MINOR.MICRO; when ours, first on PluginDir, is of
# another release, it must log that, skip it and load upstream's plugin
# from the next directory of PluginDir, and the cluster must go on.
#
# The plugin "of another release" is ours with its plugin_version patched
# to the next micro release (in a copy, found through its symbol table), so
# that the test needs no second Slurm.  The same copy unpatched is loaded
# (the control: the patch is what makes the difference).
set -uo pipefail
. "$(dirname "$0")/plugin-lib.sh"

command -v readelf >/dev/null || { say "no readelf (binutils)"; echo "0 passed, 1 failed"; exit 1; }
# a directory slurm can read (the test's own $out is private)
pdir=$DIR/plugin-mismatch
rm -rf "$pdir"
mkdir -p "$pdir"
cp "$plugin_so" "$pdir/priority_multifactor.so"
chmod 755 "$pdir"
chmod 644 "$pdir/priority_multifactor.so"
so=$pdir/priority_multifactor.so

# file_offset SYMBOL: the offset in $so of SYMBOL's bytes (its address less
# its section's address, plus the section's offset in the file)
file_offset() {
	local value ndx addr off
	read -r value ndx < <(readelf -sW "$so" | awk -v s="$1" '$8 == s && $7 ~ /^[0-9]+$/ { print $2, $7; exit }')
	[[ -n ${value:-} ]] || return 1
	read -r addr off < <(readelf -SW "$so" | sed 's/^ *\[ *\([0-9]*\)\]/\1/' |
		awk -v n="$ndx" '$1 == n { print $4, $5; exit }')
	[[ -n ${addr:-} ]] || return 1
	echo $((16#$value - 16#$addr + 16#$off))
}
offset=$(file_offset plugin_version) || { say "no plugin_version in $so"; echo "0 passed, 1 failed"; exit 1; }
# read and rewrite the 32-bit little-endian version number
have=$(od -An -tu4 -j "$offset" -N4 "$so" | tr -d ' ')
ver() { printf '%d.%02d.%d' $(($1 >> 16)) $((($1 >> 8) & 255)) $(($1 & 255)); }
check "the copy's plugin_version is this Slurm's ($(ver "$have"), slurmctld ${SLURM_VERSION:-?})" \
	test "$(ver "$have")" = "${SLURM_VERSION%%-*}"
next=$((have + 1))

export MFPRIO_PLUGIN_DIR=$pdir
start_cluster "$here/priority-default.conf"
check "control: the unpatched copy is the plugin slurmctld loads" loaded_is "$so"

python3 - "$so" "$offset" "$next" <<'EOF'
import struct, sys
path, off, val = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, 'r+b') as f:
    f.seek(off)
    f.write(struct.pack('<I', val))
EOF
check "the copy now says $(ver "$next")" \
	test "$(od -An -tu4 -j "$offset" -N4 "$so" | tr -d ' ')" = "$next"

lines_before=$(wc -l <"$LOG")
restart_ctld mismatch || { not_ok "slurmctld did not come back with a plugin of another release first on PluginDir"; finish; }
new_log() { tail -n +"$((lines_before + 1))" "$LOG"; }
check "slurmctld logs our copy as of another release" \
	eval "new_log | grep -F 'Incompatible Slurm plugin $so version ($(ver "$next"))' >/dev/null"
check "it loaded upstream's plugin from the next directory ($(loaded_so))" loaded_is "$UPSTREAM_SO"
check "and not ours (no 'mfprio: priority/multifactor loaded' since the restart)" \
	eval "! new_log | grep -F 'mfprio: priority/multifactor loaded' >/dev/null"
check "slurmctld answers (scontrol ping)" ctld_alive
# a job that stays pending: the node drained
scontrol update nodename="$NODE" state=drain reason=mfprio-mismatch
j=$(sbatch --parsable -D /tmp -o /dev/null --uid=u1 -A b -p debug --wrap 'sleep 1' | cut -d';' -f1)
for _ in $(seq 60); do
	sprio -l -j "$j" 2>/dev/null | awk 'NR > 1 { print $1 }' | grep -qx "$j" && break
	sleep 1
done
check "sprio lists a pending job" eval "sprio -l -j '$j' | awk 'NR > 1 { print \$1 }' | grep -qx '$j'"
check "sshare answers" eval "sshare -a -l -P | grep -q '^root|'"
scancel "$j" 2>/dev/null
scontrol update nodename="$NODE" state=resume
rm -rf "$pdir"
finish

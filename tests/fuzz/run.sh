#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh: build the libFuzzer harnesses of tests/fuzz (clang,
# -fsanitize=fuzzer,address,undefined, in a build directory of their own)
# and run each for a bounded time over its seed corpus
# (tests/fuzz/corpus/NAME, with tests/fuzz/NAME.dict when there is one).
# Prints one line per harness (runs, new inputs, result) and exits non-zero
# if any harness found a crash, a leak, undefined behaviour, an exit, a
# timeout or an out-of-memory.
#
# The seed corpus in the source tree is only read: what a run discovers goes
# to a scratch corpus under the build directory, and the input of a finding
# to BUILD/artifacts/.  See doc/robustness.md for running longer and for
# merging discoveries back into the seeds.
#
# Environment:
#   MFPRIO_FUZZ_BUILD   build directory (default: _build/fuzz in the tree)
#   MFPRIO_FUZZ_TIME    seconds per harness (default 11: thirteen harnesses
#                       in the time twelve had at 12)
#   MFPRIO_FUZZ_ONLY    names of the harnesses to run, space-separated
#                       (default: all, e.g. "slurm_conf jobs")
#   MFPRIO_FUZZ_JOBS    parallel fuzzing processes per harness (default 1)
#   CC                  a clang (default clang)
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fz=$top/tests/fuzz
build=${MFPRIO_FUZZ_BUILD:-$top/_build/fuzz}
secs=${MFPRIO_FUZZ_TIME:-11}
jobs=${MFPRIO_FUZZ_JOBS:-1}
cc=${CC:-clang}
all=(slurm_conf jobs jobs_json qos sacctmgr sshare assoc_mgr timestr hostlist usage_record state_files sacct live)
read -r -a names <<<"${MFPRIO_FUZZ_ONLY:-${all[*]}}"

# the longest input each harness is given (bytes): the length of a real
# dump of a few records, so that the fuzzer mutates structure, not bulk
declare -A maxlen=([slurm_conf]=4096 [jobs]=8192 [jobs_json]=16384 [qos]=1024
		   [sacctmgr]=2048 [sshare]=1024 [assoc_mgr]=4096
		   [timestr]=64 [hostlist]=128 [usage_record]=2048 [state_files]=512
		   [sacct]=2048 [live]=2048)

die() { echo "fuzz: $*" >&2; exit 2; }
command -v "$cc" >/dev/null || die "no $cc: install clang (tests/install-deps)"

# ---------------------------------------------------------------- build
mkdir -p "$build/obj" "$build/bin" || die "cannot create $build"
san=(-fsanitize=address,undefined -fno-sanitize-recover=all)
# src/release_table.h, which configure writes in a build tree, from the
# release table itself (the fuzz build has no configure)
mkdir -p "$build/gen" || die "cannot create $build/gen"
sh "$top/release/releases.sh" c-header >"$build/gen/release_table.h.tmp" &&
	{ cmp -s "$build/gen/release_table.h.tmp" "$build/gen/release_table.h" ||
	  mv -f "$build/gen/release_table.h.tmp" "$build/gen/release_table.h"; } ||
	die "release/releases.sh c-header failed"
rm -f "$build/gen/release_table.h.tmp"
cflags=(-g -O1 -std=gnu11 -fno-omit-frame-pointer "${san[@]}"
	-I"$top" -I"$top/src/core" -I"$top/src/input" -I"$build/gen"
	$(pkg-config --cflags glib-2.0))
libs=($(pkg-config --libs glib-2.0) -lm)
# the parsers and what they call: the whole core and every reader of the
# command (src/input)
srcs=("$top"/src/core/*.c "$top"/src/input/*.c)
cflags+=($(pkg-config --cflags json-glib-1.0))
libs=($(pkg-config --libs json-glib-1.0) "${libs[@]}")
objs=()
# a header newer than an object rebuilds it
newest_h=$(ls -t "$top"/src/core/*.h "$top"/src/input/*.h "$build/gen/release_table.h" | head -n 1)
for src in "${srcs[@]}"; do
	obj=$build/obj/$(basename "${src%.c}").o
	objs+=("$obj")
	[[ $obj -nt $src && $obj -nt $newest_h ]] && continue
	"$cc" "${cflags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" ||
		die "cannot compile $src"
done
rm -f "$build/libparsers.a"
ar rcs "$build/libparsers.a" "${objs[@]}" || die "ar failed"
for n in "${names[@]}"; do
	[[ -f $fz/fuzz_$n.c ]] || die "no harness $fz/fuzz_$n.c"
	"$cc" "${cflags[@]}" -Wall -Wextra -Werror -fsanitize=fuzzer \
		"$fz/fuzz_$n.c" \
		"$build/libparsers.a" "${libs[@]}" -o "$build/bin/fuzz_$n" ||
		die "cannot build fuzz_$n"
done

# ---------------------------------------------------------------- run
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export G_SLICE=always-malloc G_DEBUG=gc-friendly
mkdir -p "$build/logs" "$build/artifacts"
found=0
printf '%-12s %10s %8s  %s\n' harness runs corpus result
for n in "${names[@]}"; do
	scratch=$build/corpus/$n
	mkdir -p "$scratch"
	args=(-max_total_time="$secs" -max_len="${maxlen[$n]:-4096}"
	      -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10
	      -print_final_stats=1 -artifact_prefix="$build/artifacts/$n-")
	[[ -f $fz/$n.dict ]] && args+=(-dict="$fz/$n.dict")
	[[ $jobs -gt 1 ]] && args+=(-jobs="$jobs" -workers="$jobs")
	log=$build/logs/$n.log
	# leaks a library makes on its own (NAME.supp, each with its reason)
	# are suppressed; the full stack is then unwound on each allocation,
	# as the libraries have no frame pointers
	env=()
	[[ -f $fz/$n.supp ]] &&
		env=(LSAN_OPTIONS="suppressions=$fz/$n.supp:print_suppressions=0"
		     ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0")
	# the scratch corpus first: libFuzzer writes new inputs only there
	(cd "$build" && env "${env[@]}" "$build/bin/fuzz_$n" "${args[@]}" \
		"$scratch" "$fz/corpus/$n") >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	size=$(find "$scratch" "$fz/corpus/$n" -type f | wc -l)
	if [[ $rc -eq 0 ]]; then
		res=ok
	else
		found=1
		res="FINDING (exit $rc): $(grep -m1 -E 'ERROR|runtime error|SUMMARY' "$log")"
		art=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
		[[ -n $art ]] && res+=" input: $art"
		res+=" log: $log"
	fi
	printf '%-12s %10s %8s  %s\n' "$n" "${runs:-?}" "$size" "$res"
	# a finding told here whole enough to be mended from this output
	# alone: the input (base64: it may hold any byte), then the report
	if [[ $rc -ne 0 ]]; then
		[[ -n ${art:-} && -f $art ]] &&
			{ echo "  input, base64 (base64 -d to replay it):"; head -c 2048 "$art" | base64 | sed 's/^/    /'; }
		grep -m 1 -A 14 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/  | /'
	fi
	art=
done
exit "$found"

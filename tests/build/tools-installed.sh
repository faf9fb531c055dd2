#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools-installed.sh: every external command the tests call is installed
# by the project's own install step.  A fresh machine has only what
# tests/install-deps installs besides a minimal Debian bookworm
# (debootstrap --variant=minbase: the Essential and Priority: required
# packages); a command that comes from anything else (installed here by
# hand, or pulled in deep in some package's dependencies, which may
# change) would pass here and fail there, as curl did for test-metrics.sh.
#
# Scope (the scripts a test run executes on the host):
#   tests/run-all, tests/install-deps, every tests/**/*.sh (make check's
#   command tests, the build checks, the cluster tests and the release
#   matrix, the package tests, the fuzzer driver), .ci/run (CI's entry
#   point) and examples/*.sh (the demo, README's other command).
# Not in scope: bench/ (manual benchmarks, not run by any test or by CI),
# the Python scripts (they start no command), debian/rules and
# rpm/mfprio.spec (their build dependencies are the packages' own
# Build-Depends/BuildRequires), and what runs inside the chroot of
# test-smd-deb.sh (installed there by that test).
#
# How: each script is read as shell (comments, single-quoted text and
# here-documents skipped; command substitutions inside double quotes
# read), and the first word of each simple command is taken (after
# assignments and redirections, and after env, nice, timeout, exec,
# nohup, setsid, xargs, time and !, and after the scripts' own wrappers,
# functions that run "$@", such as check WHAT CMD... and wait_for SECONDS
# CMD...), as are the commands `command -v` asks about.  Shell keywords
# and builtins, functions defined in any script of the scope, and words
# with a $ or a / are not commands.  (Not seen: a command inside a quoted
# string run by sh -c, eval or chroot, or in a here-document.)  The reader
# is first checked on a sample.  Each command is then looked up on this
# machine in /usr/sbin:/usr/bin:/sbin:/bin (type -P), its file resolved
# (symbolic links, Debian's alternatives: any provider will do, the /bin
# <-> /usr/bin merge) to the package that ships it (dpkg -S), and that
# package must be
#   - Essential: yes or Priority: required (dpkg-query -W -f
#     '${Essential} ${Priority}'): in every minbase system;
#   - or in tests/install-deps' list;
#   - or a direct Depends/Pre-Depends of a package of that list (apt
#     installs it with it, as gcc and make with build-essential, python3's
#     /usr/bin/python3 from python3-minimal).
# Fails on a command found nowhere on this machine, or owned by no
# package, or by any other package, naming the scripts and lines that
# call it.
#
# OPTIONAL (below) lists the commands a script calls only when present
# (behind `command -v`), each with the script that falls back; INDIRECT
# the commands called in a way the reading cannot see (through a
# variable, as another command's argument), checked as the others.
#
# Usage: tools-installed.sh [INSTALL-DEPS]   (default tests/install-deps;
#        another file to check against another list, e.g. one without
#        curl, to see it fail)
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
deps=${1:-$top/tests/install-deps}

# command: why it need not be installed
declare -A OPTIONAL=(
	[wget]="slurm-release.sh download(): tried only when curl is absent, then Python"
	[git]="pkg_copy_tree (pkg-lib.sh): in a git checkout its file list, else tar of the tree"
)

# commands the reading above cannot see (a variable's value, an argument
# of another command), checked as if called: command: who calls it
declare -A INDIRECT=(
	[clang]="tests/fuzz/run.sh (\$CC, default clang)"
	[valgrind]="tests/run-all (libtool --mode=execute valgrind)"
)

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAILED: $*"; fail=$((fail + 1)); }

if ! command -v dpkg-query >/dev/null || ! command -v python3 >/dev/null; then
	echo "tools-installed: needs dpkg-query and python3 (Debian)"
	echo "0 passed, 1 failed"
	exit 1
fi

# the packages of install-deps' list: the words of its pkgs=( ... ) array
mapfile -t listed < <(sed 's/#.*//' "$deps" | sed -n '/^pkgs=(/,/)/p' | sed 's/^pkgs=(//; s/)//' | tr -s ' \t' '\n' | sed '/^$/d')
[[ ${#listed[@]} -ge 10 ]] || { bad "only ${#listed[@]} packages read from $deps's pkgs=( ... )"; echo "$pass passed, $fail failed"; exit 1; }
ok "${#listed[@]} packages in $(basename "$deps")'s list"

mapfile -t scripts < <(cd "$top" && { echo tests/run-all; echo tests/install-deps; echo .ci/run
	find tests examples -name '*.sh' -type f; } | sort -u | while read -r f; do [[ -f $top/$f ]] && echo "$f"; done)

# the reader: COMMAND FILE:LINE, one a line, for every command the
# scripts given call
read -r -d '' scanner <<'PY'
import re, sys

KEYWORDS = set("""if then else elif fi case esac for select while until do done in
function time { } ! [[ ]] coproc""".split())
# after these the next word is a command again
RESTART = set("if then else elif do while until ! { time".split())
# wrappers: skip their options (and, for some, one argument), then a command
BASE_WRAP = {"env": 0, "nice": 0, "nohup": 0, "setsid": 0, "exec": 0,
             "xargs": 0, "timeout": 1, "stdbuf": 0}
WRAP = dict(BASE_WRAP)
WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+-]*$")


def strip_heredocs(lines):
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        # <<WORD, <<'WORD', <<"WORD", <<-WORD; not <<< (here-string)
        for m in re.finditer(r"(?<!<)<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2", line):
            dash, word = m.group(1), m.group(3)
            while i < len(lines):
                body = lines[i]
                i += 1
                out.append("")            # keep the line numbers
                if (body.lstrip("\t") if dash else body) == word:
                    break
    return out


class Scanner:
    def __init__(self, text):
        self.s, self.i, self.line = text, 0, 1
        self.found = []                   # (word, line)
        self.funcs = set()

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def adv(self, n=1):
        for _ in range(n):
            if self.i < len(self.s) and self.s[self.i] == "\n":
                self.line += 1
            self.i += 1

    def skip_single(self):                # after the opening '
        while self.i < len(self.s) and self.peek() != "'":
            self.adv()
        self.adv()

    def skip_double(self):                # after the opening "
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\":
                self.adv(2)
            elif c == '"':
                self.adv()
                return
            elif c == "$" and self.peek(1) == "(" and self.peek(2) != "(":
                self.adv(2)
                self.scan(")")
            elif c == "`":
                self.adv()
                self.scan("`")
            elif c == "$" and self.peek(1) == "{":
                self.adv(2)
                self.skip_braces()
            else:
                self.adv()

    def skip_braces(self):                # ${ ... }, after ${
        depth = 1
        while self.i < len(self.s) and depth:
            c = self.peek()
            if c == "\\":
                self.adv(2)
                continue
            if c == '"':
                self.adv()
                self.skip_double()
                continue
            if c == "'":
                self.adv()
                self.skip_single()
                continue
            if c == "$" and self.peek(1) == "(" and self.peek(2) != "(":
                self.adv(2)
                self.scan(")")
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            self.adv()

    def skip_arith(self):                 # (( ... )) or $(( ... )), after ((
        depth = 2
        while self.i < len(self.s) and depth:
            c = self.peek()
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            self.adv()

    def skip_test(self):                  # [[ ... ]], after [[
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\":
                self.adv(2)
            elif c == "'":
                self.adv()
                self.skip_single()
            elif c == '"':
                self.adv()
                self.skip_double()
            elif c == "$" and self.peek(1) == "(" and self.peek(2) != "(":
                self.adv(2)
                self.scan(")")
            elif c == "]" and self.peek(1) == "]" and self.s[self.i - 1] in " \t":
                self.adv(2)
                return
            else:
                self.adv()

    def word(self):
        """Read one shell word; return its text with quoted parts as Q."""
        out = []
        while self.i < len(self.s):
            c = self.peek()
            if c in " \t\n;&|<>()`" and not (c == "(" and out and out[-1] in ("$", "=")):
                break
            if c == "\\":
                out.append(self.peek(1))
                self.adv(2)
            elif c == "'":
                self.adv()
                self.skip_single()
                out.append("\x01")         # quoted text: never a command name
            elif c == '"':
                self.adv()
                self.skip_double()
                out.append("\x01")
            elif c == "$" and self.peek(1) == "(" and self.peek(2) == "(":
                self.adv(3)
                self.skip_arith()
                out.append("$")
            elif c == "$" and self.peek(1) == "(":
                self.adv(2)
                self.scan(")")
                out.append("$")
            elif c == "$" and self.peek(1) == "{":
                self.adv(2)
                self.skip_braces()
                out.append("$")
            elif c == "=" and self.peek(1) == "(" :       # a=( array )
                out.append("=")
                self.adv()
                return "".join(out)
            else:
                out.append(c)
                self.adv()
        return "".join(out)

    def scan(self, end=None):
        """Scan commands until END (')' or '`') or the end of the text."""
        start = True          # at a command's first word
        wrap = None           # [name, arguments left to skip]
        case_depth = 0        # case ... esac open here
        await_in = False      # after `case WORD`, before `in`
        pattern = False       # reading a case item's patterns, up to ")"
        cmdv = False          # after `command -v`
        prev = ""
        while self.i < len(self.s):
            c = self.peek()
            if pattern:
                if c in " \t\n|(":
                    self.adv()
                    continue
                if c == "#" and self.s[self.i - 1] in " \t\n":
                    while self.i < len(self.s) and self.peek() != "\n":
                        self.adv()
                    continue
                if c == ")":
                    self.adv()
                    pattern, start = False, True
                    continue
                w = self.word()
                if w == "esac":
                    case_depth -= 1
                    pattern, start = False, False
                elif not w:
                    self.adv()
                continue
            if end and c == end:
                self.adv()
                return
            if c in " \t":
                self.adv()
                continue
            if c == "\\" and self.peek(1) == "\n":
                self.adv(2)
                continue
            if c == "#" and (self.i == 0 or self.s[self.i - 1] in " \t\n;"):
                while self.i < len(self.s) and self.peek() != "\n":
                    self.adv()
                continue
            if c in "\n;&|":
                if c == ";" and self.peek(1) in ";&" and case_depth:
                    # ;; ;& ;;& end a case item: patterns follow
                    while self.peek() in ";&":
                        self.adv()
                    pattern = True
                    continue
                self.adv()
                start, wrap, cmdv = True, None, False
                continue
            if c == "(" and self.peek(1) == "(":
                self.adv(2)
                self.skip_arith()
                start = False
                continue
            if c == "(":
                self.adv()
                self.scan(")")
                start = False
                continue
            if c == ")":            # a case pattern's end, or stray
                self.adv()
                start = True
                continue
            if c == "`":
                self.adv()
                self.scan("`")
                continue
            if c in "<>":
                # redirection: the operator, then its word
                while self.peek() in "<>&":
                    self.adv()
                while self.peek() in " \t":
                    self.adv()
                if self.peek() == "(":                 # <( process )
                    self.adv()
                    self.scan(")")
                else:
                    self.word()
                continue
            line = self.line
            w = self.word()
            if not w:
                self.adv()
                continue
            # a redirection glued to a number: 2>&1, 8>file
            if re.fullmatch(r"[0-9]+", w) and self.peek() in "<>":
                continue
            if cmdv:
                if WORD.match(w):
                    self.found.append((w, line))
                continue
            if w == "case" and start:
                case_depth += 1
                start, await_in = False, True
                continue
            if w == "in" and await_in:
                await_in, pattern = False, True
                continue
            if w == "esac":
                case_depth -= 1
                start = False
                continue
            if w == "function":
                start = False
                prev = w
                continue
            if prev == "function":
                self.funcs.add(w.rstrip("()"))
                prev = ""
                continue
            if self.s.startswith("()", self.i) or self.s.startswith(" ()", self.i):
                self.funcs.add(w)
                start = False
                continue
            if wrap is not None:
                if w.startswith("-") or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", w):
                    if wrap[0] in ("nice", "timeout") and w in ("-n", "-s", "-k"):
                        wrap[1] += 1
                    continue
                if wrap[1] > 0:
                    wrap[1] -= 1
                    continue
                wrap = None
                start = True
            if w == "[[":
                self.skip_test()
                start = False
                continue
            if not start:
                prev = w
                continue
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=.*", w):
                if w.endswith("="):       # a=( ... ): the array
                    if self.peek() == "(":
                        self.adv()
                        depth = 1
                        while self.i < len(self.s) and depth:
                            ch = self.peek()
                            if ch == "(":
                                depth += 1
                            elif ch == ")":
                                depth -= 1
                            elif ch in "'\"":
                                self.adv()
                                (self.skip_single if ch == "'" else self.skip_double)()
                                continue
                            elif ch == "$" and self.peek(1) == "(" and self.peek(2) != "(":
                                self.adv(2)
                                self.scan(")")
                                continue
                            self.adv()
                continue                  # an assignment: still at the start
            if w in RESTART:
                continue
            start = False
            if w in KEYWORDS:
                continue
            if w in WRAP:
                wrap = [w, WRAP[w]]
                self.found.append((w, line))
                continue
            if w == "command" :
                cmdv = True if self.s[self.i:self.i + 3].strip() == "-v" else False
                if cmdv:
                    self.word()           # the -v
                continue
            self.found.append((w, line))


def wrappers(text):
    """Functions that run their arguments as a command after shifting N
    of them (check WHAT CMD..., not CMD..., wait_for SECONDS CMD...):
    {name: N}; every other function defined: {name: None}"""
    out = {}
    for m in re.finditer(r"(?m)^[ \t]*(?:function[ \t]+)?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\(\)[ \t]*\{", text):
        j, depth = m.end(), 1
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        body = text[m.end():j - 1]
        run = re.search(r'(?:^|[;{!&|(\n]|\b(?:if|then|do|while|until|else|elif))[ \t]*"\$@"', body)
        if not run:
            out[m.group(1)] = None
            continue
        before = body[:run.start()]
        n = sum(int(k or 1) for k in re.findall(r"\bshift(?:[ \t]+([0-9]+))?\b", before))
        out[m.group(1)] = n
    return out


texts = {}
for path in sys.argv[1:]:
    texts[path] = "\n".join(strip_heredocs(open(path, encoding="utf-8", errors="replace").read().split("\n")))
# wrappers of every script (a sourced library's serve its callers); a
# script's own definition first
shared_wrap = {}
for t in texts.values():
    shared_wrap.update({k: n for k, n in wrappers(t).items() if n is not None})
funcs, found = set(), []
for path, text in texts.items():
    WRAP.clear()
    WRAP.update(BASE_WRAP)
    WRAP.update(shared_wrap)
    for k, n in wrappers(text).items():
        if n is None:
            WRAP.pop(k, None)
        else:
            WRAP[k] = n
    sc = Scanner(text)
    sc.scan()
    funcs |= sc.funcs
    found += [(w, f"{path}:{n}") for w, n in sc.found]
for w, where in found:
    if w not in funcs and WORD.match(w):
        print(w, where)
PY

# the reader on a sample of the constructs the scripts use: each c_N is
# a command, nothing else is
tmp=$(mktemp -d /tmp/mfprio-tools-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/sample.sh" <<'SAMPLE'
check() { local w=$1; shift; if "$@"; then echo ok; fi; }
a=$(c_1 | c_2) # no_0 in a comment
if ! c_3; then c_4; fi
case $x in
a) c_5 ;;
b | c) c_6 ;;
esac
[[ $x =~ ^(no_1|no_2)$ ]] && c_7
check "no_3 desc" c_8 -x no_4
nice -n 10 c_9 no_5
timeout --kill-after=30 60 c_10 no_6
X=1 Y=no_7 c_11 >/dev/null 2>&1 </dev/null
while read -r l; do c_12 "$l"; done < <(c_13 -a)
echo "$(c_14 "$(c_15)")" 'no_8 x'
cat <<EOT
no_9 here-document
EOT
{ c_16; } 2>/dev/null
( c_17 )
f() {
	c_18
}
f
out=( $(c_19) )
command -v c_20 >/dev/null && c_20
SAMPLE
want="c_1 c_2 c_3 c_4 c_5 c_6 c_7 c_8 c_9 c_10 c_11 c_12 c_13 c_14 c_15 c_16 c_17 c_18 c_19 c_20"
got=$(python3 -c "$scanner" "$tmp/sample.sh" | awk '$1 ~ /^(c|no)_/ { print $1 }' | sort -u -t_ -k2,2n | paste -sd' ')
if [[ $got == "$want" ]]; then
	ok "the reader finds the 20 commands of its sample, and nothing else"
else
	bad "the reader's sample: found '$got', not '$want'"
fi

calls=$(cd "$top" && python3 -c "$scanner" "${scripts[@]}") ||
	{ bad "reading the scripts"; echo "$pass passed, $fail failed"; exit 1; }

# what the shell provides itself
mapfile -t builtins < <(compgen -b; compgen -k)
declare -A builtin=()
for b in "${builtins[@]}"; do builtin[$b]=1; done
# the listed packages, and what each of them depends on directly
# (Pre-Depends, Depends, every alternative): apt installs those with it
declare -A listed_set=() dep_of=()
for p in "${listed[@]}"; do listed_set[$p]=1; done
while read -r p d; do
	[[ -n $d && -z ${listed_set[$d]:-} && -z ${dep_of[$d]:-} ]] && dep_of[$d]=$p
done < <(dpkg-query -W -f '${Package} ${Pre-Depends}, ${Depends}\n' "${listed[@]}" 2>/dev/null |
	awk '{ p = $1; $1 = ""; n = split($0, a, /[,|]/)
	       for (i = 1; i <= n; i++) { d = a[i]; sub(/\(.*/, "", d); gsub(/[ \t]/, "", d); sub(/:any$/, "", d)
	                                  if (d != "") print p, d } }')

# the commands are looked up where Debian's packages put them, not in
# /usr/local or a user's PATH (a pyenv shim is no package)
syspath=/usr/sbin:/usr/bin:/sbin:/bin

# owner FILE: the package that ships FILE (resolving links, and /bin,
# /sbin vs /usr/bin, /usr/sbin)
owner() {
	local f=$1 r c p
	for c in "$f" "$(readlink -f "$f")"; do
		for r in "$c" "${c/#\/usr\/bin\//\/bin\/}" "${c/#\/bin\//\/usr\/bin\/}" \
			"${c/#\/usr\/sbin\//\/sbin\/}" "${c/#\/sbin\//\/usr\/sbin\/}"; do
			p=$(dpkg -S "$r" 2>/dev/null | grep -v '^diversion by' | head -n 1 | cut -d: -f1)
			[[ -n $p ]] && { echo "$p"; return 0; }
		done
	done
	return 1
}

n=0
others=""
declare -A seen=()
for cmd in "${!INDIRECT[@]}"; do
	calls+=$'\n'"$cmd (indirect)"
done
while read -r cmd where; do
	[[ -n $cmd && -z ${builtin[$cmd]:-} ]] || continue
	if [[ -n ${seen[$cmd]:-} ]]; then
		seen[$cmd]+=" $where"
		continue
	fi
	seen[$cmd]=$where
done <<<"$calls"

for cmd in $(printf '%s\n' "${!seen[@]}" | sort); do
	where=${seen[$cmd]}
	at=$(tr ' ' '\n' <<<"$where" | head -n 3 | paste -sd' ')
	[[ $(wc -w <<<"$where") -gt 3 ]] && at+=" ..."
	[[ -n ${INDIRECT[$cmd]:-} ]] && at="${INDIRECT[$cmd]}${at:+, }${at/(indirect)/}"
	n=$((n + 1))
	if [[ -n ${OPTIONAL[$cmd]:-} ]]; then
		echo "   $cmd: optional (${OPTIONAL[$cmd]})"
		continue
	fi
	path=$(PATH=$syspath type -P "$cmd") ||
		{ bad "$cmd ($at): not installed on this machine (not in $syspath): no package provides it"; continue; }
	# a command of Debian's alternatives (awk: mawk, gawk, ...): any of
	# its providers will do
	files=("$path")
	if [[ $(readlink "$path") == /etc/alternatives/* ]]; then
		mapfile -t files < <(update-alternatives --list "$(basename "$(readlink "$path")")" 2>/dev/null)
		[[ ${#files[@]} -gt 0 ]] || files=("$path")
	fi
	verdict=""
	for f in "${files[@]}"; do
		pkg=$(owner "$f") || continue
		pkg=${pkg%%,*}
		pkg=${pkg%:*}            # libfoo:amd64 -> libfoo
		if [[ -n ${listed_set[$pkg]:-} ]]; then
			verdict="$pkg (listed)"
			break
		fi
		read -r ess prio < <(dpkg-query -W -f '${Essential} ${Priority}\n' "$pkg" 2>/dev/null | head -n 1)
		if [[ $ess == yes || $prio == required ]]; then
			verdict="$pkg ($([[ $ess == yes ]] && echo "Essential, ")Priority: $prio)"
			break
		fi
		if [[ -n ${dep_of[$pkg]:-} ]]; then
			verdict="$pkg (a dependency of ${dep_of[$pkg]}, listed)"
			break
		fi
		others+="${others:+, }$pkg (Priority: ${prio:-none})"
	done
	if [[ -n $verdict ]]; then
		echo "   $cmd: $verdict"
	elif [[ -z $others ]]; then
		bad "$cmd ($at): $path belongs to no package"
	else
		bad "$cmd ($at): from $others, which $(basename "$deps") does not install and a minimal bookworm lacks"
	fi
	others=""
done
if [[ $n -gt 20 ]]; then
	ok "$n commands called by ${#scripts[@]} scripts, each checked above"
else
	bad "only $n commands found in ${#scripts[@]} scripts: the reading is broken"
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]

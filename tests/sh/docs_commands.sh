#!/bin/sh
# Description: the commands shown in README.md and docs/*.md still run, and
# the output they show is still what they print (issue 17: docs stay true).
#
# The rules a code block follows to be checked (docs/docs-tests.md says the
# same for doc writers; keep the two in step):
#  - A block with lines starting with "$ " is a shell session. Each "$ CMD"
#    (continued on the next lines while a line ends in "\") is run; the lines
#    after it, up to the next "$ " line or the end of the block, are its shown
#    output. They must equal lines of what it prints (stdout, then stderr), in
#    order and adjacent; a line holding only "..." (any indent) stands for
#    lines left out, and "..." inside a line for any text. A command exits 0,
#    unless a shown line starts with "iosched: " (and is not a warning): then
#    it must fail; <!-- doc-test: exit N --> before the block says N
#    (0: success, else failure) for its commands. "$ cat NAME" when NAME does
#    not exist yet writes the shown lines to NAME: the session shows a job
#    file, then runs it.
#  - A ```sh block is a script: it runs with sh -e and must exit 0; its
#    output is not compared.
#  - <!-- doc-test: skip REASON --> as the last non-blank line before a
#    block: the block is not run, and the test prints the reason.
#  - <!-- doc-test: file NAME --> before a block: its text is written to NAME
#    for the commands after it.
#  - A block with a command that needs root, builds, or touches /dev, /sys or
#    a real disk (sudo, make, mount, losetup, apt-get, --real, ...) is never
#    run: it fails the test until it is marked skipped.
#  - Any other block (job files, C, output samples, synopses) is not run, but
#    an unmarked block that is not ```sh and has a line starting "./iosched "
#    (or "iosched " naming examples/) fails the test: a command shown must be checked or skipped visibly.
# Commands run from a temporary directory, one per doc file and shared by its
# blocks in order, holding links to the repository's examples/, docs/, tests/
# and scripts/; "iosched" and "./iosched" are IOSCHED_BIN. Nothing is written
# into the repository. Each command runs under "timeout 60".
BIN=${IOSCHED_BIN:-./iosched}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || { echo "no binary $BIN"; exit 77; }
ROOT=$(pwd)
# What a doc shows is what the normal build prints; the sanitizer builds
# (make check's second suite) run the same code through every other test,
# and this one alone would be a fifth of their time.
if [ "${BUILD:-build}" != build ]; then
	echo "docs_commands: not run in the sanitizer build ($BUILD): the docs show the normal build's output"
	exit 77
fi
[ -f "$ROOT/README.md" ] || { echo "run from the repository root"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
TO=${DOCTEST_TIMEOUT:-60}

blocks=0; cmds=0; skipped=0; fails=0; skips=""

# Split one doc into $2/bN.* files: bN.kind (session, sh, file, skip, none,
# bad), bN.line, bN.arg (skip reason, file name), bN.text (the block), and for
# sessions bN.cK (command K) and bN.oK (its shown output).
split_doc() {
	awk -v D="$2" '
	/^```/ && !inb {
		inb = 1; n++; lang = substr($0, 4); kind = ""; arg = ""; nc = 0; cont = 0; ex = ""
		if (prev ~ /^<!-- doc-test: skip /) { kind = "skip"; arg = prev; sub(/^<!-- doc-test: skip */, "", arg); sub(/ *-->.*$/, "", arg) }
		else if (prev ~ /^<!-- doc-test: exit [0-9]+ -->/) { ex = prev; gsub(/[^0-9]/, "", ex) }
		else if (prev ~ /^<!-- doc-test: file /) { kind = "file"; arg = prev; sub(/^<!-- doc-test: file */, "", arg); sub(/ *-->.*$/, "", arg) }
		print NR > (D "/b" n ".line"); close(D "/b" n ".line")
		printf "" > (D "/b" n ".text")
		hasdollar = 0; hascmd = 0
		next
	}
	/^```/ && inb {
		inb = 0
		if (kind == "") {
			if (hasdollar) kind = "session"
			else if (lang == "sh") kind = "sh"
			else if (hascmd) kind = "bad"
			else kind = "none"
		}
		print kind > (D "/b" n ".kind"); close(D "/b" n ".kind")
		print arg > (D "/b" n ".arg"); close(D "/b" n ".arg")
		print nc > (D "/b" n ".ncmd"); close(D "/b" n ".ncmd")
		print ex > (D "/b" n ".exit"); close(D "/b" n ".exit")
		close(D "/b" n ".text")
		for (k = 1; k <= nc; k++) { close(D "/b" n ".c" k); close(D "/b" n ".o" k) }
		prev = ""
		next
	}
	inb {
		print > (D "/b" n ".text")
		if ($0 ~ /^\.\/iosched / || $0 ~ /^iosched .*examples\//) hascmd = 1
		if (cont) {
			line = $0; cont = (line ~ /\\$/)
			print line > (D "/b" n ".c" nc)
			next
		}
		if ($0 ~ /^\$ /) {
			hasdollar = 1; nc++
			line = substr($0, 3); cont = (line ~ /\\$/)
			print line > (D "/b" n ".c" nc)
			printf "" > (D "/b" n ".o" nc)
			next
		}
		if (nc > 0) print > (D "/b" n ".o" nc)
		next
	}
	$0 !~ /^[ \t]*$/ { prev = $0 }
	' "$1"
	echo "$n" >/dev/null
}

# Does the shown output $1 appear in the actual output $2? Prints the first
# shown line that does not, and exits 1.
match_output() {
	awk '
	function m(pat, s,    parts, np, i, p, pos) {
		np = split(pat, parts, /\.\.\./)
		if (np == 1) return pat == s
		if (index(s, parts[1]) != 1) return 0
		pos = length(parts[1]) + 1
		for (i = 2; i < np; i++) {
			p = index(substr(s, pos), parts[i]); if (!p) return 0
			pos += p - 1 + length(parts[i])
		}
		if (parts[np] == "") return 1
		return length(s) - pos + 1 >= length(parts[np]) && substr(s, length(s) - length(parts[np]) + 1) == parts[np]
	}
	NR == FNR { a[++na] = $0; next }
	{ s[++ns] = $0 }
	END {
		i = 1; free = 1
		for (k = 1; k <= ns; k++) {
			if (s[k] ~ /^[ \t]*\.\.\.[ \t]*$/) { free = 1; continue }
			if (free) { while (i <= na && !m(s[k], a[i])) i++ }
			if (i > na || !m(s[k], a[i])) { print "shown line " k " not printed there: " s[k]; exit 1 }
			i++; free = 0
		}
	}' "$2" "$1"
}

# Commands the test must never run, whatever a doc says: they need root, touch
# the machine or build. A block with one fails unless marked skipped.
unsafe() { grep -Eq '(^|[;&|(] *)(sudo|make|mount|umount|losetup|apt-get|dd|rm)( |$)|install-deps|/sys/|/dev/|--real' "$1"; }

# (a report's last line, "iosched: simulated on ...", is no error)
expects_failure() { grep -v '^iosched: warning:\|^iosched: simulated on ' "$1" | grep -q '^iosched: '; }

run_session_cmd() { # dir, block, k, where
	c=$2.c$3; o=$2.o$3
	if unsafe "$c"; then
		fails=$((fails+1)); echo "FAIL $4: not run (root, build, /dev, /sys or --real): mark the block <!-- doc-test: skip REASON -->"
		return
	fi
	# "$ cat NAME" shows a file the next commands use: the shown lines are it
	if grep -Eq '^cat [A-Za-z0-9_.-]+$' "$c" && [ ! -e "$1/$(cut -c5- "$c")" ]; then
		cp "$o" "$1/$(cut -c5- "$c")"
	fi
	cmds=$((cmds+1))
	start=$(date +%s)
	(cd "$1" && PATH="$1/bin:$PATH" timeout "$TO" sh "$c" >"$T/out" 2>"$T/err")
	rc=$?
	cat "$T/out" "$T/err" >"$T/all"
	printf '  %s: %ss, exit %s: %s\n' "$4" "$(($(date +%s)-start))" "$rc" "$(head -n 1 "$c")"
	want_fail=0; expects_failure "$o" && want_fail=1
	[ -n "$5" ] && { [ "$5" = 0 ] && want_fail=0 || want_fail=1; }
	why=""
	if [ $rc -eq 124 ]; then why="timed out after ${TO}s"
	elif [ $want_fail = 0 ] && [ $rc -ne 0 ]; then why="exit $rc, the doc shows a success"
	elif [ $want_fail = 1 ] && [ $rc -eq 0 ]; then why="exit 0, the doc shows an error"
	elif ! r=$(match_output "$o" "$T/all"); then why=$r
	fi
	if [ -n "$why" ]; then
		fails=$((fails+1))
		echo "FAIL $4: $why"
		echo "    actual output (stdout, then stderr):"
		sed 's/^/    | /' "$T/all" | head -n 60
	fi
}

for doc in README.md docs/*.md; do
	P=$T/plan/$(basename "$doc" .md); mkdir -p "$P"
	W=$T/work/$(basename "$doc" .md); mkdir -p "$W/bin"
	for d in examples docs tests scripts; do ln -s "$ROOT/$d" "$W/$d"; done
	ln -s "$BIN" "$W/iosched"; ln -s "$BIN" "$W/bin/iosched"
	split_doc "$doc" "$P"
	n=1
	while [ -f "$P/b$n.kind" ]; do
		b=$P/b$n; kind=$(cat "$b.kind"); where="$doc:$(cat "$b.line")"
		case $kind in
		none) ;;
		skip)
			blocks=$((blocks+1)); skipped=$((skipped+1))
			skips="$skips
  $where: $(cat "$b.arg")" ;;
		file)
			blocks=$((blocks+1)); cp "$b.text" "$W/$(cat "$b.arg")" ;;
		bad)
			blocks=$((blocks+1)); fails=$((fails+1))
			echo "FAIL $where: a block with an ./iosched command is neither \`\`\`sh, a \$ session nor marked <!-- doc-test: skip ... -->" ;;
		sh)
			blocks=$((blocks+1))
			if unsafe "$b.text"; then
				fails=$((fails+1)); echo "FAIL $where: not run (root, build, /dev, /sys or --real): mark the block <!-- doc-test: skip REASON -->"
				n=$((n+1)); continue
			fi
			cmds=$((cmds+$(grep -c '^[^# ]' "$b.text")))
			start=$(date +%s)
			(cd "$W" && PATH="$W/bin:$PATH" timeout "$TO" sh -e "$b.text" >"$T/all" 2>&1)
			rc=$?
			printf '  %s: %ss, exit %s: sh block of %s lines\n' "$where" "$(($(date +%s)-start))" "$rc" "$(wc -l <"$b.text")"
			if [ $rc -ne 0 ]; then
				fails=$((fails+1)); echo "FAIL $where: the sh block exits $rc"
				sed 's/^/    | /' "$T/all" | tail -n 30
			fi ;;
		session)
			blocks=$((blocks+1)); k=1
			while [ "$k" -le "$(cat "$b.ncmd")" ]; do
				run_session_cmd "$W" "$b" "$k" "$where" "$(cat "$b.exit")"
				k=$((k+1))
			done ;;
		esac
		n=$((n+1))
	done
done

echo "$((blocks-skipped)) blocks checked, $cmds commands run, $skipped blocks skipped:$skips"
[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
exit 0

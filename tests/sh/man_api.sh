#!/bin/sh
# Description: libiosched(3) lists what the public headers declare: every
# struct, union and enum named ios_*, every enum constant and IOS_ macro,
# every ios_ function-pointer typedef, and every field line of every
# top-level struct of include/iosched/*.h appears in the page. The names
# are found here with awk, independently of scripts/man-api.py, which
# writes the page's section; the section is also checked to be what the
# script makes of the headers now (make man). A page with one field or one
# constant taken out is caught (the check is tried on such copies).
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
page=man/libiosched.3
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# what the headers declare, one item a line: "name WORD" or "line TEXT"
for h in include/iosched/*.h; do
	awk '
	# comments out (a multi-line one too), then one line of code at a time
	{
		line = $0
		while (1) {
			if (incom) {
				e = index(line, "*/")
				if (!e) { line = ""; break }
				line = substr(line, e + 2); incom = 0
				continue
			}
			s = index(line, "/*")
			if (!s) break
			rest = substr(line, s + 2)
			e = index(rest, "*/")
			if (e) line = substr(line, 1, s - 1) substr(rest, e + 2)
			else { line = substr(line, 1, s - 1); incom = 1 }
		}
		gsub(/[ \t]+/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
		# the extern "C" { ... } for C++ is no scope of the declarations
		if (line == "extern \"C\" {" || (line == "}" && depth == 0))
			line = ""
	}
	line ~ /^# *define IOS_/ {
		n = line; sub(/^# *define /, "", n); sub(/[( ].*/, "", n); print "name " n
	}
	depth == 0 && match(line, /^(typedef )?(struct|union|enum) ios_[a-z0-9_]+ \{/) {
		n = line; sub(/^(typedef )?(struct|union|enum) /, "", n); sub(/ .*/, "", n)
		print "name " n
	}
	depth == 0 && line ~ /^(typedef )?enum( ios_[a-z0-9_]+)? \{/ { inenum = 1 }
	depth == 0 && line ~ /^(typedef )?(struct|union) ios_[a-z0-9_]+ \{/ { instruct = 1 }
	depth == 0 && match(line, /^typedef .*\(\*ios_[a-z0-9_]+\)/) {
		n = line; sub(/^[^(]*\(\*/, "", n); sub(/\).*/, "", n); print "name " n
	}
	inenum && depth >= 1 && match(line, /^IOS_[A-Z0-9_]+/) { print "name " substr(line, 1, RLENGTH) }
	instruct && depth >= 1 && line ~ /;$/ && line !~ /^}/ { print "line " line }
	{
		o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
		depth += o - c
		if (depth == 0) { inenum = 0; instruct = 0 }
	}
	' "$h"
done >"$d/want"
n_names=$(grep -c '^name ' "$d/want")
n_lines=$(grep -c '^line ' "$d/want")
[ "$n_names" -gt 300 ] && [ "$n_lines" -gt 500 ] ||
	fail "the headers gave only $n_names names and $n_lines field lines: the extraction broke"

# $1: a page; prints what of the headers it lacks
lacks() {
	tr -s ' \t' '  ' <"$1" | sed 's/\\e/\\/g; s/^\\&//; s/^ //' >"$d/page.txt"
	# one pass (a grep per item was 2,300 processes, ~25 s a call): a
	# "line" is a fixed string within one line of the page (grep -F), a
	# "name" a whole word (grep -w: no letter, digit or _ on either side)
	awk -v page="$d/page.txt" '
	BEGIN { while ((getline l < page) > 0) all = all "\n" l; all = all "\n" }
	function word(c) { return c ~ /[A-Za-z0-9_]/ }
	function has_word(t,    rest, off, i, b, a) {
		rest = all; off = 0
		while ((i = index(rest, t)) > 0) {
			b = substr(all, off + i - 1, 1); a = substr(all, off + i + length(t), 1)
			if (!word(b) && !word(a)) return 1
			off += i; rest = substr(all, off + 1)
		}
		return 0
	}
	{
		what = $1; text = substr($0, length(what) + 2)
		if (what == "name" && !has_word(text)) print text
		if (what == "line" && !index(all, text)) print text
	}' "$d/want"
}

missing=$(lacks "$page")
[ -z "$missing" ] || fail "$page lacks (run make man): $(echo "$missing" | head -5)"
python3 scripts/man-api.py --check "$page" || fail "$page is not what make man makes of the headers"

# the check itself catches a field, and a constant, taken out
grep -v 'uint32_t device;' "$page" >"$d/p1.3"
[ -n "$(lacks "$d/p1.3")" ] || fail "a page without ios_replay_info.device passed"
grep -vw 'IOS_REPLAY_IOLOG3,' "$page" >"$d/p2.3"
lacks "$d/p2.3" | grep -qx IOS_REPLAY_IOLOG3 || fail "a page without IOS_REPLAY_IOLOG3 passed"
cp "$page" "$d/p3.3"
printf 'struct ios_replay_rec {\n\tuint64_t extra;\n};\n' >"$d/extra.h"
python3 scripts/man-api.py --check "$d/p3.3" include/iosched/*.h "$d/extra.h" 2>/dev/null &&
	fail "--check passed a page that lacks a header's declarations"
echo "PASS: $n_names names and $n_lines field lines of include/iosched/*.h in $page"

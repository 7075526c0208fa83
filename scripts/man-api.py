#!/usr/bin/env python3
"""Write the STRUCTURES AND CONSTANTS section of man/libiosched.3 from the headers.

For every public header (include/iosched/*.h, as make install puts them) the
section lists, as the header declares them: each struct (and union) with its
fields, each enum with its constants, each IOS_ macro, each typedef and each
exported table. The header's own comments on a line of code stay (folded to
one line); comments standing alone are left out, and so are the functions,
which the rest of the page and the headers describe.

The section sits between the lines '.\\" BEGIN STRUCTURES' and
'.\\" END STRUCTURES' of the page; nothing else is touched.

usage: man-api.py [--check] PAGE [HEADER...]
  (no HEADER: include/iosched/*.h; --check: exit 1 when PAGE is not up to date)
"""
import glob
import os
import re
import sys

BEGIN = '.\\" BEGIN STRUCTURES'
END = '.\\" END STRUCTURES'


def fold_comments(text):
    """Drop comments that stand alone; fold one after code onto its line."""
    out, i, n = [], 0, len(text)
    line_has_code = False
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            body = text[i + 2:j - 2]
            if line_has_code:
                words = ' '.join(w.strip().lstrip('*').strip() for w in body.split('\n'))
                out.append('/* ' + ' '.join(words.split()) + ' */')
            i = j
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        c = text[i]
        out.append(c)
        if c == '\n':
            line_has_code = False
        elif not c.isspace():
            line_has_code = True
        i += 1
    # lines the comments left empty go
    return '\n'.join(l.rstrip() for l in ''.join(out).split('\n'))


def declarations(path):
    """The header's public types and constants, in order, as lists of lines."""
    lines = fold_comments(open(path, encoding='utf-8').read()).split('\n')
    decls, i = [], 0
    while i < len(lines):
        l = lines[i]
        s = l.strip()
        if s.startswith('#define IOS_'):
            block = [l]
            while block[-1].endswith('\\') and i + 1 < len(lines):
                i += 1
                block.append(lines[i])
            if len(block) > 1:
                block = [block[0].rstrip('\\').rstrip() + ' ...']
            decls.append(block)
            i += 1
            continue
        # top level only (not a line of a static inline function's body)
        if re.match(r'(typedef\s+)?(struct|union|enum)(\s+\w+)?\s*\{', l) or \
                re.match(r'typedef\b', l) or re.match(r'extern\s+const\b', l):
            block, depth = [], 0
            while i < len(lines):
                block.append(lines[i])
                depth += lines[i].count('{') - lines[i].count('}')
                if depth <= 0 and lines[i].rstrip().endswith(';'):
                    break
                i += 1
            decls.append([b for b in block if b.strip()])
        i += 1
    return decls


def roff(line):
    line = line.expandtabs(8).replace('\\', '\\e')
    if line.startswith(('.', "'")):
        line = '\\&' + line
    return line


def section(headers):
    out = [BEGIN, '.SH STRUCTURES AND CONSTANTS',
           'What each public header declares besides its functions: structs and their',
           'fields, enums and their constants, macros, typedefs and tables, with the',
           "header's own one-line notes (the headers hold the longer ones).",
           'This section is made from the headers by scripts/man-api.py, and',
           'tests/sh/man_api.sh fails when a header declares a name it does not list.']
    for h in headers:
        decls = declarations(h)
        if not decls:
            continue
        out.append('.SS <iosched/%s>' % os.path.basename(h))
        out.append('.nf')
        for k, d in enumerate(decls):
            if k and (len(d) > 1 or len(decls[k - 1]) > 1):
                out.append('')
            out.extend(roff(x) for x in d)
        out.append('.fi')
    out.append(END)
    return out


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == '--check'
    if check:
        args = args[1:]
    if not args:
        sys.exit(__doc__.strip().split('usage: ')[1])
    page = args[0]
    headers = args[1:] or sorted(glob.glob('include/iosched/*.h'))
    text = open(page, encoding='utf-8').read().split('\n')
    if BEGIN not in text or END not in text:
        sys.exit('%s: no "%s" ... "%s" lines' % (page, BEGIN, END))
    a, b = text.index(BEGIN), text.index(END)
    new = text[:a] + section(headers) + text[b + 1:]
    if check:
        if new != text:
            sys.exit('%s: not up to date with the headers (run make man)' % page)
        return 0
    if new != text:
        with open(page, 'w', encoding='utf-8') as fh:
            fh.write('\n'.join(new))
    return 0


if __name__ == '__main__':
    sys.exit(main())

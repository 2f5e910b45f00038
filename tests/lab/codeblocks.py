#!/usr/bin/python3
"""Writes every code block of a Markdown or HTML report to its own file.

usage: codeblocks.py REPORT OUTDIR
Markdown: each fenced block (```); HTML: each <pre> element, entities
decoded. Files are OUTDIR/NNN.sh; prints how many were written. A block
whose every command line starts with 'nft ' is also listed in
OUTDIR/nft.list, one file name a line, for `nft -c`."""
import html
import os
import re
import sys


def blocks(text, is_html):
    if is_html:
        for m in re.finditer(r'<pre[^>]*>(.*?)</pre>', text, re.S):
            yield html.unescape(re.sub(r'<[^>]+>', '', m.group(1)))
        return
    cur = None
    for line in text.splitlines():
        if line.startswith('```'):
            if cur is None:
                cur = []
            else:
                yield '\n'.join(cur) + '\n'
                cur = None
        elif cur is not None:
            cur.append(line)


def main():
    path, out = sys.argv[1], sys.argv[2]
    text = open(path, encoding='utf-8').read()
    n = 0
    nft = []
    for b in blocks(text, path.endswith('.html')):
        n += 1
        name = os.path.join(out, '%03d.sh' % n)
        with open(name, 'w', encoding='utf-8') as f:
            f.write(b)
        cmds = [l for l in b.splitlines() if l.strip() and
                not l.lstrip().startswith('#')]
        if cmds and all(l.startswith('nft ') for l in cmds):
            nft.append(name)
    with open(os.path.join(out, 'nft.list'), 'w') as f:
        f.write(''.join(x + '\n' for x in nft))
    print(n)


main()

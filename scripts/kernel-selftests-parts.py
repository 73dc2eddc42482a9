#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kernel-selftests-parts.py - the selftests as the patches of the series add them.

The project keeps one copy of tools/testing/selftests/xsk.  The kernel series
adds it in parts (scripts/kernel-patches.sh names them, in order), each a
patch of its own: a file grows across the patches, part by part.  A line
of a file belongs to the part named by the last marker above it:

    /* kernel-patches: NAME */      (C)
    # kernel-patches: NAME          (Makefile)

and the lines above a file's first marker to the first part, except when
the marker is the file's second line: then the first (the SPDX line) goes
with it, and a file that begins with a later part appears with that part.
Markers are not copied.

  emit --parts a,b,c --upto b SRC DEST FILE...
      write into DEST each FILE (a path relative to SRC) as it is once
      parts a..b are applied; a file with nothing yet is not written (and
      removed from DEST).  Blank lines that omitted parts leave doubled
      are made one, and none is left at either end of the file.
  tests --parts a,b,c --part b FILE
      the kselftest_harness tests (fixture.variant.test) that part b adds
      to FILE, a paragraph per fixture: "fixture.{v1, v2}: t1 t2" (wrapped
      at 72 columns); the last line is the count.
"""
import argparse
import os
import re
import sys
import textwrap

MARK = re.compile(r'^\s*(?:/\*|#)\s*kernel-patches:\s*([A-Za-z0-9_-]+)\s*(?:\*/)?\s*$')


def die(msg):
    sys.exit('kernel-selftests-parts: ' + msg)


def split(path, parts):
    """[(part, line)] of path, markers left out."""
    with open(path) as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    for n in [m.group(1) for m in map(MARK.match, lines) if m]:
        if n not in parts:
            die(f'{path}: marker of an unknown part "{n}" (parts: {",".join(parts)})')
    cur = parts[0]
    if len(lines) > 1 and MARK.match(lines[1]):
        cur = MARK.match(lines[1]).group(1)
    out = []
    for ln in lines:
        m = MARK.match(ln)
        if m:
            cur = m.group(1)
            continue
        out.append((cur, ln))
    return out


def text_upto(path, parts, upto):
    keep = set(parts[:parts.index(upto) + 1])
    lines = [ln for p, ln in split(path, parts) if p in keep]
    out = []
    for ln in lines:
        if ln.strip() == '' and (not out or out[-1].strip() == ''):
            continue
        out.append(ln)
    while out and out[-1].strip() == '':
        out.pop()
    return '\n'.join(out) + '\n' if out else ''


def emit(args, parts):
    if args.upto not in parts:
        die(f'--upto {args.upto}: not one of {",".join(parts)}')
    for f in args.files:
        t = text_upto(os.path.join(args.src, f), parts, args.upto)
        dst = os.path.join(args.dest, f)
        if not t:
            if os.path.exists(dst):
                os.remove(dst)
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, 'w') as o:
            o.write(t)
        os.chmod(dst, os.stat(os.path.join(args.src, f)).st_mode & 0o777)


FIXTURE = re.compile(r'^FIXTURE\((\w+)\)')
VARIANT = re.compile(r'^FIXTURE_VARIANT_ADD\((\w+),\s*(\w+)\)')
TEST_F = re.compile(r'^TEST_F(?:_TIMEOUT)?\((\w+),\s*(\w+)')
TEST = re.compile(r'^TEST\((\w+)\)')


def tests(args, parts):
    if args.part not in parts:
        die(f'--part {args.part}: not one of {",".join(parts)}')
    order, variants, names = [], {}, {}
    for p, ln in split(args.file, parts):
        if p != args.part:
            continue
        for rx in (FIXTURE, VARIANT, TEST_F):
            m = rx.match(ln)
            if not m:
                continue
            f = m.group(1)
            if f not in order:
                order.append(f)
            if rx is VARIANT:
                variants.setdefault(f, []).append(m.group(2))
            elif rx is TEST_F:
                names.setdefault(f, []).append(m.group(2))
        m = TEST.match(ln)
        if m:
            order.append('global')
            names.setdefault('global', []).append(m.group(1))
    n = 0
    for f in order:
        if f not in names:
            continue
        v = variants.get(f, [])
        n += max(len(v), 1) * len(names[f])
        vs = '.{' + ', '.join(v) + '}' if len(v) > 1 else ('.' + v[0] if v else '')
        print(textwrap.fill(f'{f}{vs}: {" ".join(names[f])}', width=72,
                            initial_indent='  ', subsequent_indent='    ',
                            break_on_hyphens=False, break_long_words=False))
    print(n)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    e = sub.add_parser('emit')
    e.add_argument('--parts', required=True)
    e.add_argument('--upto', required=True)
    e.add_argument('src')
    e.add_argument('dest')
    e.add_argument('files', nargs='*')
    t = sub.add_parser('tests')
    t.add_argument('--parts', required=True)
    t.add_argument('--part', required=True)
    t.add_argument('file')
    args = ap.parse_args()
    parts = args.parts.split(',')
    if args.cmd == 'emit':
        emit(args, parts)
    else:
        tests(args, parts)


if __name__ == '__main__':
    main()

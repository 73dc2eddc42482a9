#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# lib-layers.py DIR < LAYERS - check lib/'s layers: every #include "x.h" of
# a file in DIR/LAYER/ names a header of a layer LAYER may use, and no
# header includes itself through others (a cycle).
#
# LAYERS, one line a layer, is what `make -s print-layers` prints:
#
#   measure: base measure
#
# A quoted include that no layer holds (the AF_XDP core's, a BPF
# skeleton, a system header) is left to the compiler, whose -I lists say
# the same as LAYERS (Makefile, lib_inc).  Prints each finding as
# "lib-layers: FILE: ..." and exits 1 when there is one, 2 on bad input,
# else 0 with a line of counts.
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def die(msg, status=2):
    print(f'lib-layers: {msg}', file=sys.stderr)
    sys.exit(status)


def read_layers(text):
    uses = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, sep, rest = line.partition(':')
        if not sep or not name.strip() or not rest.split():
            die(f'layers, line {n}: not "LAYER: USED..." : {line!r}')
        uses[name.strip()] = set(rest.split())
    for name, used in uses.items():
        if name not in used:
            die(f'layer {name} does not use itself')
        unknown = used - set(uses)
        if unknown:
            die(f'layer {name} uses no such layer: {" ".join(sorted(unknown))}')
    if not uses:
        die('no layers given')
    return uses


def scan(root, uses):
    """{path: (layer, [included names])}, and {header name: its path}"""
    files, headers = {}, {}
    for layer in sorted(uses):
        d = os.path.join(root, layer)
        if not os.path.isdir(d):
            die(f'{d}: no such directory')
        for name in sorted(os.listdir(d)):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(d, name)
            with open(path, encoding='utf-8', errors='replace') as f:
                files[path] = (layer, INCLUDE.findall(f.read()))
            if name.endswith('.h'):
                if name in headers:
                    die(f'{path}: {name} is also {headers[name]}')
                headers[name] = path
    return files, headers


def wrong_way(files, headers, uses):
    bad = []
    for path, (layer, incs) in files.items():
        for inc in incs:
            held = headers.get(os.path.basename(inc))
            if not held:
                continue
            other = files[held][0]
            if other not in uses[layer]:
                bad.append(f'{path}: includes {inc} of layer {other}, '
                           f'above {layer} (it may use {" ".join(sorted(uses[layer]))})')
    return bad


def module(path):
    """a module: NAME.c and NAME.h (and NAME.bpf.c) of one directory"""
    return os.path.join(os.path.dirname(path),
                        os.path.basename(path).split('.')[0])


def cycles(files, headers):
    """each cycle of modules that include each other's headers, once"""
    graph = {}
    for p, (_, incs) in files.items():
        deps = graph.setdefault(module(p), set())
        for i in incs:
            h = headers.get(os.path.basename(i))
            if h and module(h) != module(p):
                deps.add(module(h))
    found, state, stack = [], {}, []

    def visit(m):
        state[m] = 'open'
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 'open':
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 'done'

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print('usage: make -s print-layers | lib-layers.py DIR', file=sys.stderr)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    uses = read_layers(sys.stdin.read())
    files, headers = scan(sys.argv[1], uses)
    bad = wrong_way(files, headers, uses)
    bad += [f'{c[0]}: an include cycle: {" -> ".join(c)}'
            for c in cycles(files, headers)]
    for b in bad:
        print(f'lib-layers: {b}')
    if bad:
        sys.exit(1)
    print(f'lib-layers: {len(files)} files in {len(uses)} layers: '
          'every include downward, no cycle')


if __name__ == '__main__':
    main()

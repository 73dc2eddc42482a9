#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# upstream-report.py BASE.tap SERIES.tap - one line per case of a part of
# scripts/upstream-check.sh, its result on the baseline and on the series
# kernel, then the counts; a file that is missing is "not run".  Reads
# KTAP (xdp.py: "ok 3 xdp.name # SKIP why") and test_progs' subtest lines
# ("#1/2     name/SUBTEST:OK").
import re, sys

def cases(path):
    res = {}
    try:
        text = open(path).read()
    except OSError:
        return None
    for line in text.splitlines():
        # KTAP (xdp.py): "ok 3 xdp.name # SKIP why"; test_progs: "#1/2 name:OK"
        m = re.match(r'^(not ok|ok) \d+ (\S+)(?: # (SKIP|XFAIL).*)?$', line)
        if m:
            r = 'fail' if m.group(1) == 'not ok' else (m.group(3) or 'pass').lower()
            res[m.group(2)] = r
            continue
        m = re.match(r'^#\d+/\d+\s+(\S+):(OK|FAIL|SKIP)$', line)
        if m:
            res[m.group(1)] = {'OK': 'pass', 'FAIL': 'fail', 'SKIP': 'skip'}[m.group(2)]
    return res

base, series = cases(sys.argv[1]), cases(sys.argv[2])
names = list((series or {}).keys())
names += [n for n in (base or {}) if n not in names]
if not names:
    print('  (no results: see the consoles)')
for n in names:
    b = base.get(n, '-') if base is not None else 'not run'
    s = series.get(n, '-') if series is not None else 'not run'
    print(f'  {n:55s} baseline {b:5s} series {s}')
for label, r in (('baseline', base), ('series', series)):
    if r is not None:
        c = {k: list(r.values()).count(k) for k in ('pass', 'fail', 'skip')}
        print(f'  {label}: {c["pass"]} pass, {c["fail"]} fail, {c["skip"]} skip')

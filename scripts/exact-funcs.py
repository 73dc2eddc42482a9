#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""exact-funcs.py - the exact mode's per-function counts, host side
(Documentation/exact_cost.rst, "Per-function counts").

  exact-funcs.py fold --insns FILE --kallsyms FILE [--windows DIR] SWEEP.json...
      fold the QEMU plugin's per-PC counts of each run's window
      (plugin/insn_window.c) into guest functions, add them to each sweep
      result as points[].functions (Documentation/sweep.schema.json), and
      print each point's top functions in instructions per packet
  exact-funcs.py show [--top N] SWEEP.json...
      print them again
  exact-funcs.py ab [--top N] A.json B.json
      per path, B's window count against A's and the functions that moved:
      "XDP_DROP native 64B 1 flow: +3.60 insns/pkt (spread 0.40): f +2.90, ..."
  exact-funcs.py check [--floor F] [--schema FILE] [--judge-upto N]
                       A.json ONE.json B.json=N...
      judge an injected cost (make kernel-ab-test): every result validates
      against FILE and its functions sum to its window's count; ONE is A
      with one spin unit more, which gives the program's unit u (in
      bpf_prog_xdp_action, XDP_DROP); each B has N units more (0: A again)
      and must have +N*u in that symbol within 1 insn/pkt, and for N up to
      --judge-upto (10) every other function within the spread of its runs
      in A plus B (at least F, 0.3), memory-management state left out
      (the per-CPU allocator, __zap_vma_range) and, on every path but
      XDP_DROP, page recycling (the page pool's slow path and the page
      allocator under it); above it they are shown.
      A line per check, "ok: ...", "FAIL: ..." or "info: ..."; exit
      status 3 when a check failed.

Symbols: the guest's /proc/kallsyms (kernel text, written once a boot) and
its [bpf] lines of each window (--windows DIR/bpf-ID.syms: the programs
loaded in that window).  bpf_prog_<tag>_<name> is folded to
bpf_prog_<name>, so that a program whose code changed (its tag) is still
the same function in an A/B.  User mode is one bucket, [user].  Exit
status 1, with the reason, on input that does not fit.
"""
import argparse
import bisect
import json
import os
import re
import sys

USER = "[user]"
UNKNOWN = "[unknown]"
BPF_REACH = 1 << 16     # a JIT image is at most this far past its symbol
CACHE_NOTE = "modelled, not measured: L1d and L1i each 32 KiB, 8-way, 64 B lines, LRU, virtually indexed, no prefetch"


class Error(Exception):
    pass


def open_input(path):
    """path opened for reading, or Error naming it"""
    try:
        return open(path)
    except OSError as e:
        raise Error("%s: %s" % (path, e.strerror))


def fold_bpf(name):
    m = re.match(r"^bpf_prog_[0-9a-f]{16}_(.*)$", name)
    return "bpf_prog_" + m.group(1) if m else name


def read_syms(path, bpf_only=False):
    """[(addr, name, is_bpf)] of a kallsyms file: text and [bpf] symbols"""
    out = []
    with open_input(path) as f:
        for n, line in enumerate(f, 1):
            p = line.split()
            if len(p) < 3:
                raise Error("%s:%d: not a kallsyms line: %r" % (path, n, line.strip()))
            try:
                addr = int(p[0], 16)
            except ValueError:
                raise Error("%s:%d: bad address %r" % (path, n, p[0]))
            bpf = len(p) > 3 and p[3] == "[bpf]"
            if bpf_only and not bpf:
                continue
            if p[1] not in "tTwW" and not bpf:
                continue
            if addr == 0:
                raise Error("%s:%d: address 0: kallsyms read without root or with kptr_restrict" % (path, n))
            out.append((addr, fold_bpf(p[2]) if bpf else p[2], bpf))
    return out


class Symbols:
    """PC to function: kernel text up to _etext, then the window's BPF"""

    def __init__(self, kernel, bpf):
        kernel = sorted(kernel)
        self.etext = next((a for a, n, b in kernel if n == "_etext"), None)
        syms = sorted(kernel + bpf)
        self.addr = [a for a, n, b in syms]
        self.name = [n for a, n, b in syms]
        self.bpf = [b for a, n, b in syms]
        self.cache = {}

    def lookup(self, pc):
        if pc == 0:
            return USER
        s = self.cache.get(pc)
        if s is not None:
            return s
        i = bisect.bisect_right(self.addr, pc) - 1
        if i < 0:
            s = UNKNOWN
        elif self.bpf[i]:
            s = self.name[i] if pc - self.addr[i] < BPF_REACH else UNKNOWN
        elif self.etext is not None and pc >= self.etext:
            s = UNKNOWN
        else:
            s = self.name[i]
        self.cache[pc] = s
        return s


def read_windows(path):
    """{id: {"insns", "l1d", "l1i", "pcs": [(pc, insns, l1d, l1i)]}}, cache flag"""
    wins, cur, cache = {}, None, None
    with open_input(path) as f:
        for n, line in enumerate(f, 1):
            p = line.split()
            where = "%s:%d" % (path, n)
            if not p:
                continue
            if p[0] == "#":
                if len(p) > 3 and p[1] == "insn_window":
                    cache = p[3] == "cache=on"
                if len(p) > 4 and p[1] == "slots" and p[4] != "0":
                    raise Error("%s: %s kernel PCs found no slot (MAX_SLOTS in plugin/insn_window.c)" % (where, p[4]))
                continue
            if p[0] == "X":
                raise Error("%s: window %s: %s" % (where, p[1], " ".join(p[2:])))
            try:
                if p[0] == "W":
                    if cur is not None:
                        raise Error("%s: window %s opens inside window %d" % (where, p[1], cur))
                    cur = int(p[1])
                    wins[cur] = {"insns": int(p[2]), "l1d": int(p[3]),
                                 "l1i": int(p[4]), "pcs": []}
                elif p[0] == "E":
                    if cur is None or int(p[1]) != cur:
                        raise Error("%s: end of window %s that is not open" % (where, p[1]))
                    cur = None
                elif cur is not None and len(p) == 4:
                    wins[cur]["pcs"].append((int(p[0], 16), int(p[1]), int(p[2]), int(p[3])))
                else:
                    raise Error("%s: not a plugin line: %r" % (where, line.strip()))
            except ValueError:
                raise Error("%s: not a plugin line: %r" % (where, line.strip()))
    if cur is not None:
        raise Error("%s: window %d has no end (QEMU stopped in it?)" % (path, cur))
    if cache is None:
        raise Error("%s: no '# insn_window' header: not the plugin's output" % path)
    return wins, cache


def fold_window(w, syms):
    """{symbol: [insns, l1d, l1i]}; the symbols' insns add up to the window's"""
    f = {}
    for pc, n, d, i in w["pcs"]:
        s = f.setdefault(syms.lookup(pc), [0, 0, 0])
        s[0] += n
        s[1] += d
        s[2] += i
    got = sum(v[0] for v in f.values())
    if got != w["insns"]:
        raise Error("the window's functions add up to %d insns, its count is %d" % (got, w["insns"]))
    return f


def mean(v):
    return sum(v) / len(v)


def point_functions(runs, cache):
    """points[].functions from the ok runs' folded windows: [(packets, fold, window)]"""
    names = set()
    for _, f, _ in runs:
        names.update(f)
    tot = [w["insns"] / pk for pk, _, w in runs]
    syms = []
    for s in names:
        v = [f.get(s, [0, 0, 0])[0] / pk for pk, f, _ in runs]
        e = {"symbol": s, "insns_per_pkt": mean(v), "min": min(v), "max": max(v)}
        if cache:
            e["l1d_misses_per_pkt"] = mean([f.get(s, [0, 0, 0])[1] / pk for pk, f, _ in runs])
            e["l1i_misses_per_pkt"] = mean([f.get(s, [0, 0, 0])[2] / pk for pk, f, _ in runs])
        syms.append(e)
    syms.sort(key=lambda e: (-e["insns_per_pkt"], e["symbol"]))
    fn = {"source": "QEMU TCG plugin plugin/insn_window.c: every guest instruction of each run's window, user mode as [user]",
          "runs": len(runs),
          "window_insns_per_pkt": {"mean": mean(tot), "min": min(tot), "max": max(tot)},
          "cache_model": CACHE_NOTE if cache else None,
          "symbols": syms}
    if cache:
        fn["l1d_misses_per_pkt"] = mean([w["l1d"] / pk for pk, _, w in runs])
        fn["l1i_misses_per_pkt"] = mean([w["l1i"] / pk for pk, _, w in runs])
    return fn


def label(doc, p):
    """As xdp_compare names a point: "XDP_DROP igb native 64B 1 flow",
    "AF_XDP rxdrop igb native-with-zerocopy 64B" """
    drv = doc.get("options", {}).get("driver")
    drv = "" if drv in (None, "veth") else " " + drv
    if "stack" in p:
        st = p["stack"] if p["stack"] == "recvmmsg" else p["stack"].upper()
        return "%s rxdrop%s %s %dB" % (st, drv, p["mode"], p["size"])
    return "%s%s %s %dB %d flow%s" % (p["action"], drv, p["mode"], p["size"], p["flows"],
                                      "" if p["flows"] == 1 else "s")


def rows(doc):
    """The matrix's points, then the receive-stack rows (AF_XDP rxdrop)"""
    return doc.get("points", []) + doc.get("stacks", [])


def load(path):
    with open_input(path) as f:
        try:
            return json.load(f)
        except ValueError as e:
            raise Error("%s: not JSON: %s" % (path, e))


def cmd_fold(a):
    wins, cache = read_windows(a.insns)
    kernel = read_syms(a.kallsyms)
    if not kernel:
        raise Error("%s: no text symbols" % a.kallsyms)
    for path in a.sweep:
        doc = load(path)
        if doc.get("options", {}).get("cost_unit") != "insns":
            raise Error("%s: not an --icount sweep" % path)
        for p in rows(doc):
            runs = []
            ok = [r for r in p.get("runs", []) if r.get("ok")]
            if "stack" in p and not any("window" in r for r in ok):
                continue    # an xdp_sweep whose receive-stack rows have no windows
            for r in ok:
                if "window" not in r:
                    raise Error("%s: %s: a run has no window id (xdp_sweep without icount windows)" % (path, label(doc, p)))
                w = wins.get(r["window"])
                if w is None:
                    raise Error("%s: %s: window %d is not in %s" % (path, label(doc, p), r["window"], a.insns))
                bpf = []
                if a.windows:
                    bpf = read_syms(os.path.join(a.windows, "bpf-%d.syms" % r["window"]), True)
                try:
                    f = fold_window(w, Symbols(kernel, bpf))
                except Error as e:
                    raise Error("%s: %s: window %d: %s" % (path, label(doc, p), r["window"], e))
                if not r.get("packets"):
                    raise Error("%s: %s: a run with no packets" % (path, label(doc, p)))
                runs.append((r["packets"], f, w))
            if runs:
                p["functions"] = point_functions(runs, cache)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.rename(tmp, path)
        show(path, doc, a.top)


def show(path, doc, top):
    pts = [p for p in rows(doc) if "functions" in p]
    if not pts:
        return
    print("%s: per function, guest instructions per packet in the run's window" % os.path.basename(path))
    print("(the window holds the generator, the receive path and the tool; mean of %d runs)" %
          pts[0]["functions"]["runs"])
    for p in pts:
        fn = p["functions"]
        w = fn["window_insns_per_pkt"]
        cache = fn["cache_model"] is not None
        head = "  %s: %.2f insns/pkt in the window (runs %.2f-%.2f)" % (label(doc, p), w["mean"], w["min"], w["max"])
        if cache:
            head += ", modelled L1d %.2f / L1i %.2f misses/pkt" % (fn["l1d_misses_per_pkt"], fn["l1i_misses_per_pkt"])
        print(head)
        print("    %10s %8s%s  %s" % ("insns/pkt", "share",
              "  %8s %8s" % ("L1d-miss", "L1i-miss") if cache else "", "function"))
        for s in fn["symbols"][:top]:
            print("    %10.2f %7.1f%%%s  %s" % (s["insns_per_pkt"], 100 * s["insns_per_pkt"] / w["mean"],
                  "  %8.3f %8.3f" % (s["l1d_misses_per_pkt"], s["l1i_misses_per_pkt"]) if cache else "",
                  s["symbol"]))
        rest = fn["symbols"][top:]
        if rest:
            print("    %10.2f %7.1f%%  (%d more functions)" % (sum(s["insns_per_pkt"] for s in rest),
                  100 * sum(s["insns_per_pkt"] for s in rest) / w["mean"], len(rest)))
    if any(p["functions"]["cache_model"] for p in pts):
        print("  L1d/L1i misses: %s" % CACHE_NOTE)


def cmd_show(a):
    for path in a.sweep:
        show(path, load(path), a.top)


def deltas(pa, pb):
    """(total delta, spread, [(symbol, delta, spread)] by |delta|, sum)"""
    fa, fb = pa["functions"], pb["functions"]
    wa, wb = fa["window_insns_per_pkt"], fb["window_insns_per_pkt"]
    sa = {s["symbol"]: s for s in fa["symbols"]}
    sb = {s["symbol"]: s for s in fb["symbols"]}
    zero = {"insns_per_pkt": 0, "min": 0, "max": 0}
    d = []
    for s in set(sa) | set(sb):
        x, y = sa.get(s, zero), sb.get(s, zero)
        d.append((s, y["insns_per_pkt"] - x["insns_per_pkt"],
                  (x["max"] - x["min"]) + (y["max"] - y["min"])))
    d.sort(key=lambda t: (-abs(t[1]), t[0]))
    return (wb["mean"] - wa["mean"], (wa["max"] - wa["min"]) + (wb["max"] - wb["min"]),
            d, sum(t[1] for t in d))


def moved(t):
    """beyond the spread of its runs in A and B (and a rounding floor)"""
    return abs(t[1]) > max(t[2], 0.005)


def cmd_ab(a):
    da, db = load(a.a), load(a.b)
    pb = {label(db, p): p for p in rows(db) if "functions" in p}
    n = 0
    for p in rows(da):
        q = pb.get(label(da, p))
        if "functions" not in p or q is None:
            continue
        n += 1
        tot, spread, d, s = deltas(p, q)
        mv = [t for t in d if moved(t)]
        parts = ", ".join("%s %+.2f" % (t[0], t[1]) for t in mv[:a.top]) or \
            "no function beyond its spread"
        print("%s: %+.2f insns/pkt in the window (spread %.2f): %s" % (label(da, p), tot, spread, parts))
        sa = {x["symbol"]: x["insns_per_pkt"] for x in p["functions"]["symbols"]}
        sb = {x["symbol"]: x["insns_per_pkt"] for x in q["functions"]["symbols"]}
        if mv:
            print("    %11s %11s %9s %7s  %s" % ("A insns/pkt", "B insns/pkt", "delta", "spread", "function"))
        for t in mv[:a.top]:
            print("    %11.2f %11.2f %+9.2f %7.2f  %s" % (sa.get(t[0], 0), sb.get(t[0], 0), t[1], t[2], t[0]))
        rest = sum(t[1] for t in d) - sum(t[1] for t in mv[:a.top])
        print("    the other %d functions %+.2f; all %d sum to %+.2f = the window's delta %+.2f" %
              (len(d) - len(mv[:a.top]), rest, len(d), s, tot))
    if not n:
        raise Error("%s and %s have no point with per-function counts in common" % (a.a, a.b))


PROG = "bpf_prog_xdp_action"
# memory-management state: the per-CPU allocator (the generator's program
# load in the window) and the page-table teardown of an munmap in it
ALLOC = re.compile(r"^(pcpu_|_find_next_zero_bit$|__zap_vma_range$)")
# page recycling, on the paths whose pages come back from another CPU
# (XDP_TX: the peer's NAPI returns them through the page pool's ring):
# how many come back in time and how many the pool allocates anew follows
# the vCPUs' interleaving, which a longer program shifts (CI of
# 2026-12-02, N = 10 on XDP_TX: xdp_test_run_init_page +0.81,
# __free_frozen_pages +0.60, free_frozen_page_commit +0.54,
# __rmqueue_pcplist +0.38; N = 100: +1.20, +1.20, +1.09, +0.76);
# xdp_update_frame_from_buff with them, which xdp_test_run_init_page calls
# for each new page (the next CI: +0.17 between two sets of one program)
RECYCLE = re.compile(r"^(xdp_test_run_init_page|xdp_update_frame_from_buff|page_pool_return_netmem|"
                     r"page_pool_refill_alloc_cache|__page_pool_alloc_netmems_slow|"
                     r"__ptr_ring_consume|alloc_pages_bulk_noprof|__rmqueue_pcplist|"
                     r"__free_frozen_pages|free_frozen_page_commit)$")
LOCAL = ("XDP_DROP",)   # pages recycled on the CPU that runs the program


def cmd_check(a):
    """the injected cost's per-function checks; the number that failed"""
    try:
        import jsonschema
    except ImportError:
        raise Error("python3-jsonschema is not installed (make deps)")
    schema = load(a.schema)
    sets = []
    for arg in a.b:
        path, _, n = arg.rpartition("=")
        if not path or not n.isdigit():
            raise Error("'%s' is not B.json=N (N units more than A)" % arg)
        sets.append((path, int(n)))
    docs = {p: load(p) for p in [a.a, a.one] + [x[0] for x in sets]}
    fail = 0

    def verdict(v, what):
        nonlocal fail
        fail += v == "fail"
        print("%s: per function: %s" % ({"fail": "FAIL"}.get(v, v), what))

    for path, doc in docs.items():
        name = os.path.basename(path)
        try:
            jsonschema.validate(doc, schema)
            verdict("ok", "%s validates" % name)
        except jsonschema.ValidationError as e:
            verdict("fail", "%s: %s" % (name, e.message))
        for p in doc["points"]:
            f = p.get("functions")
            if f is None:
                verdict("fail", "%s %s: no per-function counts" % (name, label(doc, p)))
                continue
            tot = f["window_insns_per_pkt"]["mean"]
            got = sum(s["insns_per_pkt"] for s in f["symbols"])
            verdict("ok" if abs(got - tot) <= 1e-9 * tot else "fail",
                    "%s %s: the %d functions sum to %.4f, the window's count %.4f insns/pkt"
                    % (name, p["action"], len(f["symbols"]), got, tot))
    if fail:
        return fail

    def syms(path, act):
        for p in docs[path]["points"]:
            if p["action"] == act and "functions" in p:
                return {s["symbol"]: s for s in p["functions"]["symbols"]}
        raise Error("%s: no %s point with per-function counts" % (path, act))

    zero = {"insns_per_pkt": 0, "min": 0, "max": 0}
    cal, a0 = syms(a.one, "XDP_DROP"), syms(a.a, "XDP_DROP")
    u = cal.get(PROG, zero)["insns_per_pkt"] - a0.get(PROG, zero)["insns_per_pkt"]
    acts = [p["action"] for p in docs[a.a]["points"]]
    for path, n in sets:
        for act in acts:
            x, y = syms(a.a, act), syms(path, act)
            what = "+%d unit(s)" % n if n else "baseline again (%s)" % os.path.basename(path)
            got = y.get(PROG, zero)["insns_per_pkt"] - x.get(PROG, zero)["insns_per_pkt"]
            verdict("ok" if abs(got - n * u) <= 1 and (u > 0 or not n) else "fail",
                    "%s %s: %s %+.2f insns/pkt, expected %+.2f within 1 (u = %.4f)"
                    % (act, what, PROG, got, n * u, u))
            bad, alloc, recycle, worst = [], 0.0, 0.0, None
            names = (set(x) | set(y)) - {PROG}
            remote = act not in LOCAL
            for s in sorted(names):
                p, q = x.get(s, zero), y.get(s, zero)
                dl = q["insns_per_pkt"] - p["insns_per_pkt"]
                if ALLOC.match(s):
                    alloc += dl
                    continue
                if remote and RECYCLE.match(s):
                    recycle += dl
                    continue
                room = max(a.floor, (p["max"] - p["min"]) + (q["max"] - q["min"]))
                if worst is None or abs(dl) / room > worst[0]:
                    worst = (abs(dl) / room, s, dl, room)
                if abs(dl) > room:
                    bad.append("%s %+.2f (allowed +-%.2f)" % (s, dl, room))
            v = "info" if n > a.judge_upto else "fail" if bad else "ok"
            verdict(v, "%s %s: %d of the other %d functions moved beyond their spread%s; memory-management state's (not judged) %+.2f%s"
                    % (act, what, len(bad), len(names), ": " + ", ".join(sorted(bad)[:6]) if bad else
                       " (nearest its limit: %s %+.2f, allowed +-%.2f)" % (worst[1], worst[2], worst[3])
                       if worst else "", alloc,
                       "; page recycling's (not judged) %+.2f" % recycle if remote else ""))
    return fail


def main():
    ap = argparse.ArgumentParser(prog="exact-funcs.py",
                                 description="per-function exact counts (Documentation/exact_cost.rst)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fold")
    f.add_argument("--insns", required=True)
    f.add_argument("--kallsyms", required=True)
    f.add_argument("--windows")
    f.add_argument("--top", type=int, default=10)
    f.add_argument("sweep", nargs="+")
    s = sub.add_parser("show")
    s.add_argument("--top", type=int, default=10)
    s.add_argument("sweep", nargs="+")
    b = sub.add_parser("ab")
    b.add_argument("--top", type=int, default=8)
    b.add_argument("a")
    b.add_argument("b")
    c = sub.add_parser("check")
    c.add_argument("--floor", type=float, default=0.3)
    c.add_argument("--schema", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "Documentation", "sweep.schema.json"))
    c.add_argument("--judge-upto", type=int, default=10)
    c.add_argument("a")
    c.add_argument("one")
    c.add_argument("b", nargs="+")
    a = ap.parse_args()
    try:
        failed = {"fold": cmd_fold, "show": cmd_show, "ab": cmd_ab,
                  "check": cmd_check}[a.cmd](a)
    except Error as e:
        print("exact-funcs: %s" % e, file=sys.stderr)
        return 1
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

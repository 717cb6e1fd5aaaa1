#!/usr/bin/env python3
"""instrument-price against an independent Black-Scholes (math.erfc) and the simple instruments."""
import math
import subprocess
import sys

EXE = sys.argv[1]


def run(*args):
    p = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def bs(call, s, k, r, vol, t):
    n = lambda d: 0.5 * math.erfc(-d / math.sqrt(2))
    d1 = (math.log(s / k) + (r + vol * vol / 2) * t) / (vol * math.sqrt(t))
    d2 = d1 - vol * math.sqrt(t)
    return s * n(d1) - k * math.exp(-r * t) * n(d2) if call else k * math.exp(-r * t) * n(-d2) - s * n(-d1)


def check(args, expected):
    rc, out, err = run(*args)
    if rc != 0 or abs(float(out) - expected) > 1e-6 * max(1, abs(expected)) or out.endswith("\n"):
        print("FAIL:", args, rc, repr(out), err, "expected", expected, file=sys.stderr)
        sys.exit(1)


check(["spot", 100, 12.5, "", "", "", ""], 1250)
check(["zcb", 1000, "", 0.03, "", 2, ""], 1000 * math.exp(-0.06))
check(["call", 10, 100, 0.02, 95, 0.5, 0.25], 10 * bs(True, 100, 95, 0.02, 0.25, 0.5))
check(["put", -3, 100, 0.02, 105, 1.5, 0.3], -3 * bs(False, 100, 105, 0.02, 0.3, 1.5))
for bad in (["swap", 1, 1, 1, 1, 1, 1], ["call", 1, 100, 0.02, "", 1, 0.2], ["spot", "x", 1, "", "", "", ""]):
    rc, out, err = run(*bad)
    if rc != 2 or not err.startswith("instrument-price:"):
        print("FAIL: bad input accepted:", bad, rc, out, err, file=sys.stderr)
        sys.exit(1)
print("instrument-price: ok")

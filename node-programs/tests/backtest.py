"""var-backtest against an independent reference and published figures.

The reference is written from the papers' formulas (node-programs/README.md, "var-backtest"), in
plain Python (math only): the binomial cumulative probability from exact binomial coefficients,
Kupiec's likelihood ratio in its textbook form -2 ln[(1-p)^(n-x) p^x] + 2 ln[(1-x/n)^(n-x)
(x/n)^x], Christoffersen's likelihood ratios from the transition counts, chi-square survival
functions in closed form. Usage: backtest.py VAR_BACKTEST WORK_DIR
"""

import csv
import datetime
import math
import os
import random
import shutil
import subprocess
import sys

BIN, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
TOL = 1e-9
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, file=sys.stderr)


def close(a, b, tol=TOL):
    return abs(a - b) <= tol * max(1.0, abs(b))


# ---------------------------------------------------------------- the reference, from the papers
def xlny(a, b):
    """a ln b with 0^0 = 1 (a zero count contributes nothing to a likelihood)."""
    return 0.0 if a == 0 else a * math.log(b)


def binom_cdf(x, n, p):
    return min(1.0, sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(x + 1)))


def zone(x, n, p):
    c = binom_cdf(x, n, p)
    return ("red" if c >= 0.9999 else "yellow" if c >= 0.95 else "green"), c


BASEL_PLUS = {5: 0.40, 6: 0.50, 7: 0.65, 8: 0.75, 9: 0.85}


def kupiec(x, n, p):
    ph = x / n
    lr = -2 * (xlny(n - x, 1 - p) + xlny(x, p)) + 2 * (xlny(n - x, 1 - ph) + xlny(x, ph))
    return max(lr, 0.0)


def chi2_sf1(x):
    return math.erfc(math.sqrt(x / 2)) if x > 0 else 1.0


def chi2_sf2(x):
    return math.exp(-x / 2) if x > 0 else 1.0


def christoffersen(hits):
    t = {(0, 0): 0, (0, 1): 0, (1, 0): 0, (1, 1): 0}
    for a, b in zip(hits, hits[1:]):
        t[(a, b)] += 1
    n00, n01, n10, n11 = t[(0, 0)], t[(0, 1)], t[(1, 0)], t[(1, 1)]
    pi01 = n01 / (n00 + n01) if n00 + n01 else 0.0
    pi11 = n11 / (n10 + n11) if n10 + n11 else 0.0
    pi = (n01 + n11) / (n00 + n01 + n10 + n11)
    lu = xlny(n00, 1 - pi01) + xlny(n01, pi01) + xlny(n10, 1 - pi11) + xlny(n11, pi11)
    lr = -2 * (xlny(n00 + n10, 1 - pi) + xlny(n01 + n11, pi)) + 2 * lu
    return (n00, n01, n10, n11), max(lr, 0.0)


def reference(var, pnl, business_date, window):
    """var: {(date, node, conf_text): value}; pnl: {(date, node): (hyp, act or None)}."""
    days = sorted({k[0] for k in var} | {k[0] for k in pnl})
    upto = [d for d in days if d <= business_date]
    end = len(upto) - 1
    start = max(1, end - window + 1)
    groups = sorted({(k[1], float(k[2]), k[2]) for k in var})
    summary, exceptions = {}, []
    for node, conf, ctext in groups:
        p = 1 - conf
        for kind in ("hypothetical", "actual"):
            obs = []
            for t in range(start, end + 1):
                d, prev = upto[t], upto[t - 1]
                v = var.get((prev, node, ctext))
                row = pnl.get((d, node))
                if v is None or row is None:
                    continue
                value = row[0] if kind == "hypothetical" else row[1]
                if value is None:
                    continue
                obs.append((prev, d, v, value, 1 if -value > v else 0))
            if kind == "actual" and not obs:
                continue
            hits = [o[4] for o in obs]
            n, x = len(hits), sum(hits)
            rec = {"observations": n, "exceptions": x}
            if n:
                z, c = zone(x, n, p)
                rec.update(zone=z, cumulative_probability=c, kupiec_lr=kupiec(x, n, p))
                rec["kupiec_p_value"] = chi2_sf1(rec["kupiec_lr"])
                rec["first_date"], rec["last_date"] = obs[0][1], obs[-1][1]
                if n == 250 and abs(p - 0.01) < 1e-12:
                    rec["plus_factor"] = 0.0 if x < 5 else BASEL_PLUS.get(x, 1.0)
            if n >= 2:
                (n00, n01, n10, n11), lri = christoffersen(hits)
                rec.update(n00=n00, n01=n01, n10=n10, n11=n11, independence_lr=lri)
                rec["independence_p_value"] = chi2_sf1(lri)
                rec["conditional_coverage_lr"] = rec["kupiec_lr"] + lri
                rec["conditional_coverage_p_value"] = chi2_sf2(rec["conditional_coverage_lr"])
            summary[(node, ctext, kind)] = rec
            exceptions += [(node, ctext, kind, o[0], o[1], o[2], o[3]) for o in obs if o[4]]
    return summary, exceptions


# ---------------------------------------------------------------- running the program
def business_days(first, count):
    d, out = datetime.date.fromisoformat(first), []
    while len(out) < count:
        if d.weekday() < 5:
            out.append(d.isoformat())
        d += datetime.timedelta(days=1)
    return out


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def run(name, var_rows, pnl_rows, *args, var_header=None, pnl_header=None, compress_in=False):
    d = os.path.join(WORK, name)
    os.makedirs(d)
    vh = var_header or ["run_id", "business_date", "node", "confidence", "var",
                        "expected_shortfall"][: len(var_rows[0]) if var_rows else 6]
    ph = pnl_header or ["business_date", "node", "pnl_hypothetical", "pnl_actual"]
    vp, pp = os.path.join(d, "var.csv"), os.path.join(d, "pnl.csv")
    write(vp, vh, var_rows)
    write(pp, ph, pnl_rows)
    if compress_in:  # blocked gzip, as the staging gateway writes it
        for p in (vp, pp):
            subprocess.run(["bgzip", "-f", p], check=True)
        vp, pp = vp + ".gz", pp + ".gz"
    out = os.path.join(d, "out")
    os.makedirs(out)
    r = subprocess.run([BIN, "--var-history", vp, "--pnl", pp, "--out-dir", out, "--run-id", "42",
                        *args], capture_output=True, text=True)
    return r, out


def read_out(out, name):
    with open(os.path.join(out, name), newline="") as f:
        return list(csv.DictReader(f))


def compare(label, out, ref_summary, ref_exceptions, business_date):
    rows = read_out(out, "backtest_summary.csv")
    check(len(rows) == len(ref_summary), f"{label}: {len(rows)} summary rows, reference {len(ref_summary)}")
    for r in rows:
        key = (r["node"], r["confidence"], r["pnl_type"])
        ref = ref_summary.get(key)
        if ref is None:
            check(False, f"{label}: unexpected row {key}")
            continue
        check(r["run_id"] == "42" and r["business_date"] == business_date, f"{label}: run context {r}")
        for col in ("observations", "exceptions", "n00", "n01", "n10", "n11"):
            if col in ref:
                check(int(r[col]) == ref[col], f"{label} {key} {col}: {r[col]} != {ref[col]}")
            else:
                check(r[col] == "", f"{label} {key} {col} should be empty: {r[col]}")
        for col in ("zone", "first_date", "last_date"):
            check(r[col] == ref.get(col, ""), f"{label} {key} {col}: {r[col]} != {ref.get(col, '')}")
        for col in ("cumulative_probability", "plus_factor", "kupiec_lr", "kupiec_p_value",
                    "independence_lr", "independence_p_value", "conditional_coverage_lr",
                    "conditional_coverage_p_value"):
            if col in ref:
                check(r[col] != "" and close(float(r[col]), ref[col]),
                      f"{label} {key} {col}: {r[col]} != {ref[col]!r}")
            else:
                check(r[col] == "", f"{label} {key} {col} should be empty: {r[col]}")
        p = 1 - float(r["confidence"])
        check(close(float(r["expected_exceptions"]), ref["observations"] * p),
              f"{label} {key} expected_exceptions {r['expected_exceptions']}")
    exc = read_out(out, "backtest_exceptions.csv")
    got = sorted((e["node"], e["confidence"], e["pnl_type"], e["var_date"], e["pnl_date"],
                  float(e["var"]), float(e["pnl"])) for e in exc)
    check(got == sorted(ref_exceptions), f"{label}: exceptions differ: {len(got)} against {len(ref_exceptions)}")
    return rows


# ---------------------------------------------------------------- 1. generated series, reference
def generated(seed, compress_in=False):
    rng = random.Random(seed)
    days = business_days("2024-01-02", 320)
    nodes = ["BANK", "BANK/MARKETS/RATES", "BANK/MARKETS/EQUITY", "BANK/TREASURY"]
    confs = ["0.95", "0.975", "0.99"]
    z = {"0.95": 1.6449, "0.975": 1.96, "0.99": 2.3263}
    var, pnl = {}, {}
    for node in nodes:
        vol = 1e6 * (1 + rng.random())
        state = 1.0
        for i, d in enumerate(days):
            # Volatility clustering that the VaR does not follow: runs of exceptions.
            state = 0.9 * state + 0.1 * (3.0 if rng.random() < 0.04 else 1.0)
            if node == "BANK/TREASURY" and i % 37 == 5:
                pass  # a missing VaR day
            else:
                for c in confs:
                    var[(d, node, c)] = round(z[c] * vol * rng.uniform(0.9, 1.1), 2)
            if node == "BANK/MARKETS/EQUITY" and i % 53 == 7:
                continue  # a missing P&L day
            hyp = round(rng.gauss(0, vol * state), 2)
            act = None
            if node in ("BANK", "BANK/MARKETS/RATES") and i % 11 != 3:
                act = round(hyp + rng.gauss(0, vol * 0.1), 2)
            pnl[(d, node)] = (hyp, act)
    var_rows = [("r" + d, d, n, c, v, v * 1.2) for (d, n, c), v in var.items()]
    rng.shuffle(var_rows)
    pnl_rows = [(d, n, h, "" if a is None else a) for (d, n), (h, a) in pnl.items()]
    rng.shuffle(pnl_rows)
    return days, var, pnl, var_rows, pnl_rows


days, var, pnl, var_rows, pnl_rows = generated(7)
for window, bdate, label in ((250, None, "default window"), (120, days[-30], "120 days to a past date"),
                             (500, None, "window longer than the history")):
    args = ["--window-days", str(window)] + (["--business-date", bdate] if bdate else [])
    r, out = run(f"ref-{window}", var_rows, pnl_rows, *args)
    check(r.returncode == 0, f"{label}: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        b = bdate or max(d for d, _ in pnl)
        s, e = reference(var, pnl, b, window)
        rows = compare(label, out, s, e, b)
        if window >= 250:
            check(any(x["zone"] != "green" for x in rows), f"{label}: the series should leave the green zone")
        check(any(x["pnl_type"] == "actual" for x in rows), f"{label}: actual P&L rows expected")
        check(any(int(x["n11"] or 0) > 0 for x in rows), f"{label}: consecutive exceptions expected")

# Blocked gzip inputs and outputs give the same figures.
r, out = run("ref-gz", var_rows, pnl_rows, "--compress-output", compress_in=True)
check(r.returncode == 0, f"gz: exit {r.returncode}: {r.stderr}")
if r.returncode == 0:
    plain = os.path.join(WORK, "ref-250", "out")
    for name in ("backtest_summary.csv", "backtest_exceptions.csv"):
        z = subprocess.run(["gzip", "-dc", os.path.join(out, name + ".gz")], capture_output=True, check=True).stdout
        with open(os.path.join(plain, name), "rb") as f:
            check(z == f.read(), f"compressed {name} differs from the plain run's")

# ---------------------------------------------------------------- 2. published figures
# Basel Committee (1996), "Supervisory framework for the use of backtesting ...", table 2: zones,
# plus factors and cumulative probabilities for 250 observations at 99% coverage.
BASEL_TABLE = {0: ("green", 0.00, 8.11), 1: ("green", 0.00, 28.58), 2: ("green", 0.00, 54.32),
               3: ("green", 0.00, 75.81), 4: ("green", 0.00, 89.22), 5: ("yellow", 0.40, 95.88),
               6: ("yellow", 0.50, 98.63), 7: ("yellow", 0.65, 99.60), 8: ("yellow", 0.75, 99.89),
               9: ("yellow", 0.85, 99.97), 10: ("red", 1.00, 99.99),
               11: ("red", 1.00, 100.00)}  # 11: beyond the table's last row ("10 or more")


def fixed_series(hits, conf="0.99", node="DESK"):
    """A VaR of 100 every day and a P&L of -150 on the days in hits, +10 otherwise."""
    n = len(hits)
    d = business_days("2025-01-02", n + 1)
    var_rows = [("r", x, node, conf, 100) for x in d[:n]]
    pnl_rows = [(x, node, -150 if h else 10, "") for x, h in zip(d[1:], hits)]
    return var_rows, pnl_rows


for x, (zn, plus, cum) in BASEL_TABLE.items():
    hits = [1 if i % 25 == 3 and i // 25 < x else 0 for i in range(250)]
    if x == 11:
        hits[249] = 1
    check(sum(hits) == x, f"basel {x}: {sum(hits)} hits")
    r, out = run(f"basel-{x}", *fixed_series(hits), var_header=["run_id", "business_date", "node", "confidence", "var"])
    check(r.returncode == 0, f"basel {x}: exit {r.returncode}: {r.stderr}")
    if r.returncode:
        continue
    row = read_out(out, "backtest_summary.csv")[0]
    check(row["zone"] == zn, f"basel {x}: zone {row['zone']} != {zn}")
    check(abs(float(row["plus_factor"]) - plus) < 1e-12, f"basel {x}: plus {row['plus_factor']} != {plus}")
    check(round(100 * float(row["cumulative_probability"]), 2) == cum,
          f"basel {x}: cumulative {row['cumulative_probability']} != {cum}%")
    check(int(row["observations"]) == 250 and int(row["exceptions"]) == x, f"basel {x}: {row}")

# Kupiec's worked case: N = 250, x = 10, p = 0.01.
#   LR_POF = -2 ln[0.99^240 0.01^10] + 2 ln[0.96^240 0.04^10]
#          = -2 (240 ln 0.99 + 10 ln 0.01) + 2 (240 ln 0.96 + 10 ln 0.04)
#          = 2 (240 ln(0.96/0.99) + 10 ln 4) = 12.9555 (to 4 decimals), p = erfc(sqrt(12.9555/2)) = 0.000319
row = read_out(os.path.join(WORK, "basel-10", "out"), "backtest_summary.csv")[0]
check(abs(float(row["kupiec_lr"]) - 12.9555) < 5e-5, f"kupiec 250/10: {row['kupiec_lr']}")
check(abs(float(row["kupiec_p_value"]) - 0.000319) < 5e-7, f"kupiec 250/10 p: {row['kupiec_p_value']}")

# Kupiec (1995), as tabulated in Jorion, "Value at Risk", "Model backtesting, 95% nonrejection
# confidence regions": the counts of exceptions the POF test does not reject at 5%. The table
# prints "N < 7" for p = 1%, T = 252: the exact test also rejects N = 0 there (LR = -2 x 252 x
# ln 0.99 = 5.07 > 3.84), which the table leaves out; the check below takes N >= 1.
KUPIEC_REGIONS = {(0.01, 252): (1, 6), (0.01, 510): (2, 10), (0.01, 1000): (5, 16),
                  (0.025, 252): (3, 11), (0.025, 510): (7, 20), (0.025, 1000): (16, 35),
                  (0.05, 252): (7, 19), (0.05, 510): (17, 35), (0.05, 1000): (38, 64)}
for (p, t), (lo, hi) in KUPIEC_REGIONS.items():
    conf = f"{1 - p:g}"
    for x in (lo - 1, lo, hi, hi + 1):
        if x < 0:
            continue
        hits = [1 if i < x else 0 for i in range(t)]
        r, out = run(f"kupiec-{p}-{t}-{x}", *fixed_series(hits, conf), "--window-days", str(t))
        check(r.returncode == 0, f"kupiec region {p} {t} {x}: {r.stderr}")
        if r.returncode:
            continue
        row = read_out(out, "backtest_summary.csv")[0]
        accepted = float(row["kupiec_p_value"]) >= 0.05
        check(accepted == (lo <= x <= hi), f"kupiec region p={p} T={t} x={x}: p-value {row['kupiec_p_value']}")

# Christoffersen's independence statistic written out for a small case: 10 days with exceptions
# on days 3, 4 and 8 (0-based: hits 0 0 0 1 1 0 0 0 1 0): transitions n00 = 4, n01 = 2, n10 = 2,
# n11 = 1; pi01 = 2/6, pi11 = 1/3, pi = 3/9 = 1/3, so LR_ind = 0 exactly (the exception after an
# exception is as likely as after a quiet day), and LR_cc = LR_POF.
hits = [0, 0, 0, 1, 1, 0, 0, 0, 1, 0]
r, out = run("christoffersen-small", *fixed_series(hits, "0.9"), "--window-days", "10")
row = read_out(out, "backtest_summary.csv")[0]
check((row["n00"], row["n01"], row["n10"], row["n11"]) == ("4", "2", "2", "1"), f"transitions {row}")
check(float(row["independence_lr"]) < 1e-12 and float(row["independence_p_value"]) > 1 - 1e-12, f"LR_ind {row}")
# LR_POF for x = 3 of n = 10 at p = 0.1: 2 (7 ln(0.7/0.9) + 3 ln(0.3/0.1)) = 3.0732...
lr = 2 * (7 * math.log(0.7 / 0.9) + 3 * math.log(3))
check(close(float(row["conditional_coverage_lr"]), lr), f"LR_cc {row['conditional_coverage_lr']} != {lr}")

# ---------------------------------------------------------------- 3. zero and all exceptions
r, out = run("zero", *fixed_series([0] * 250))
row = read_out(out, "backtest_summary.csv")[0]
n, p = 250, 1 - 0.99
check(row["exceptions"] == "0" and row["zone"] == "green" and float(row["plus_factor"]) == 0, f"zero: {row}")
check(close(float(row["kupiec_lr"]), -2 * n * math.log(1 - p)), f"zero: LR_POF {row['kupiec_lr']}")
check(float(row["independence_lr"]) == 0 and row["n00"] == "249", f"zero: LR_ind {row}")
check(len(read_out(out, "backtest_exceptions.csv")) == 0, "zero: exceptions listed")
r, out = run("all", *fixed_series([1] * 250))
row = read_out(out, "backtest_summary.csv")[0]
check(row["exceptions"] == "250" and row["zone"] == "red" and float(row["plus_factor"]) == 1, f"all: {row}")
check(close(float(row["kupiec_lr"]), -2 * n * math.log(p)), f"all: LR_POF {row['kupiec_lr']}")
check(float(row["independence_lr"]) == 0 and row["n11"] == "249", f"all: LR_ind {row}")
check(len(read_out(out, "backtest_exceptions.csv")) == 250, "all: exceptions not all listed")
# A loss equal to the VaR is not an exception (Basel: losses that exceed the VaR).
v, pl = fixed_series([0] * 5)
pl[2] = (pl[2][0], pl[2][1], -100, "")
r, out = run("equal", v, pl)
check(read_out(out, "backtest_summary.csv")[0]["exceptions"] == "0", "a loss equal to VaR counted")
# A node with VaR but no P&L: a row with no observations and empty statistics.
r, out = run("no-pnl", [("r", "2025-01-02", "A", "0.99", 1), ("r", "2025-01-02", "B", "0.99", 1)],
             [("2025-01-03", "A", 5, "")])
rows = read_out(out, "backtest_summary.csv")
check(len(rows) == 2 and rows[1]["node"] == "B" and rows[1]["observations"] == "0" and rows[1]["zone"] == "" and rows[1]["kupiec_lr"] == "", f"no P&L: {rows}")

# ---------------------------------------------------------------- 4. bad input
GOOD_VAR = [("r", "2025-01-02", "A", "0.99", "100"), ("r", "2025-01-03", "A", "0.99", "100")]
GOOD_PNL = [("2025-01-03", "A", "5", ""), ("2025-01-06", "A", "-500", "-400")]
BAD = [
    ("var-date", [GOOD_VAR[0], ("r", "2026-02-30", "A", "0.99", "100")], GOOD_PNL, None, None, "var.csv:3:", "2026-02-30"),
    ("var-number", [GOOD_VAR[0], ("r", "2025-01-03", "A", "0.99", "1e6x")], GOOD_PNL, None, None, "var.csv:3:", "1e6x"),
    ("var-negative", [GOOD_VAR[0], ("r", "2025-01-03", "A", "0.99", "-100")], GOOD_PNL, None, None, "var.csv:3:", "negative"),
    ("confidence", [("r", "2025-01-02", "A", "99", "100")], GOOD_PNL, None, None, "var.csv:2:", "confidence '99'"),
    ("var-duplicate", GOOD_VAR + [("r", "2025-01-02", "A", "0.99", "101")], GOOD_PNL, None, None, "var.csv:4:", "line 2"),
    ("var-column", GOOD_VAR, GOOD_PNL, ["run_id", "business_date", "node", "conf", "var"], None, "var.csv:1:", "'confidence'"),
    ("var-fields", [GOOD_VAR[0], ("r", "2025-01-03", "A", "0.99")], GOOD_PNL, ["run_id", "business_date", "node", "confidence", "var"], None, "var.csv:3:", "fields"),
    ("pnl-number", GOOD_VAR, [GOOD_PNL[0], ("2025-01-06", "A", "n/a", "")], None, None, "pnl.csv:3:", "'n/a'"),
    ("pnl-actual", GOOD_VAR, [GOOD_PNL[0], ("2025-01-06", "A", "1", "one")], None, None, "pnl.csv:3:", "pnl_actual"),
    ("pnl-duplicate", GOOD_VAR, GOOD_PNL + [("2025-01-03", "A", "6", "")], None, None, "pnl.csv:4:", "line 2"),
    ("pnl-column", GOOD_VAR, GOOD_PNL, None, ["business_date", "node", "pnl", "pnl_actual"], "pnl.csv:1:", "'pnl_hypothetical'"),
    ("pnl-node", GOOD_VAR, [GOOD_PNL[0], ("2025-01-06", "", "1", "")], None, None, "pnl.csv:3:", "node"),
]
for name, vr, pr, vh, ph, where, what in BAD:
    r, out = run("bad-" + name, vr, pr, var_header=vh or ["run_id", "business_date", "node", "confidence", "var"], pnl_header=ph)
    check(r.returncode != 0, f"bad {name}: accepted")
    check(where in r.stderr and what in r.stderr, f"bad {name}: message {r.stderr!r} lacks {where} / {what}")
    check(os.listdir(out) == [], f"bad {name}: left {os.listdir(out)}")
for name, args, what in (("window", ["--window-days", "0"], "--window-days"),
                         ("date", ["--business-date", "2025-13-01"], "--business-date"),
                         ("option", ["--windows", "5"], "unknown option")):
    r, out = run("bad-opt-" + name, GOOD_VAR, GOOD_PNL, *args)
    check(r.returncode != 0 and what in r.stderr and os.listdir(out) == [], f"bad option {name}: {r.stderr!r}")
# An empty file, and a corrupt blocked gzip file.
r, out = run("bad-empty", [], GOOD_PNL)
check(r.returncode == 0 and len(read_out(out, "backtest_summary.csv")) == 0, "a header-only VaR file")
os.truncate(os.path.join(WORK, "bad-empty", "var.csv"), 0)
shutil.rmtree(out)
os.makedirs(out)
r = subprocess.run([BIN, "--var-history", os.path.join(WORK, "bad-empty", "var.csv"), "--pnl",
                    os.path.join(WORK, "bad-empty", "pnl.csv"), "--out-dir", out], capture_output=True, text=True)
check(r.returncode != 0 and "var.csv:1: no header" in r.stderr and os.listdir(out) == [], f"empty file: {r.stderr!r}")
r, out = run("bad-gz", GOOD_VAR, GOOD_PNL, compress_in=True)
gz = os.path.join(WORK, "bad-gz", "pnl.csv.gz")
with open(gz, "r+b") as f:
    f.seek(30)
    f.write(b"\xff\xff\xff\xff")
shutil.rmtree(out)
os.makedirs(out)
r = subprocess.run([BIN, "--var-history", os.path.join(WORK, "bad-gz", "var.csv.gz"), "--pnl", gz,
                    "--out-dir", out], capture_output=True, text=True)
check(r.returncode != 0 and "pnl.csv.gz" in r.stderr and os.listdir(out) == [], f"corrupt gzip: {r.stderr!r}")

# --help names every output column (the headers the files carry).
h = subprocess.run([BIN, "--help"], capture_output=True, text=True)
check(h.returncode == 0, "--help failed")
text = " ".join(h.stdout.split())
good = os.path.join(WORK, "ref-250", "out")
for name in ("backtest_summary.csv", "backtest_exceptions.csv"):
    with open(os.path.join(good, name)) as f:
        header = f.readline().strip()
    check(name in text and all(c in text for c in header.split(",")), f"--help lacks {name}'s columns")

r, out = run("good-small", GOOD_VAR, GOOD_PNL)
check(r.returncode == 0, f"small good input refused: {r.stderr}")
rows = read_out(out, "backtest_summary.csv")
check([x["pnl_type"] for x in rows] == ["hypothetical", "actual"], f"small: {rows}")
check([x["exceptions"] for x in rows] == ["1", "1"], f"small: {rows}")

if FAILURES:
    print(f"{len(FAILURES)} failures", file=sys.stderr)
    sys.exit(1)
print("var-backtest: reference, Basel table, Kupiec regions, Christoffersen case, edge cases, bad input: ok")

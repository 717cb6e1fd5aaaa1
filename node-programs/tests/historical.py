"""Independent historical-simulation VaR: pivots the history, replays every overlapping
h-day window on today's levels, revalues the book with its own Black-Scholes (math.erf),
and takes the empirical quantile with exact decimal arithmetic for k = ceil((1-a) n); ES
weights the boundary scenario by the fractional part of (1-a) n (Acerbi-Tasche). Every
factor of mcvar-gen's data moves by a log return.
usage: historical.py IN_DIR OUT_DIR"""
import csv, math, sys
from fractions import Fraction

ind, outd = sys.argv[1], sys.argv[2]
params = {r["name"]: r["value"] for r in csv.DictReader(open(f"{ind}/params.csv"))}
h = int(params["horizon_days"])
levels, is_rate = {}, {}
for r in csv.DictReader(open(f"{ind}/factors.csv")):
    levels[r["factor_id"]] = float(r["level"])
    is_rate[r["factor_id"]] = r["kind"] == "rate"
hist = {}
for r in csv.DictReader(open(f"{ind}/history.csv")):
    hist.setdefault(r["as_of"], {})[r["factor_id"]] = float(r["level"])
dates = sorted(hist)

def ncdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))

def bs(call, s, k, r, v, t):
    if t <= 0:
        return max(s - k, 0) if call else max(k - s, 0)
    d1 = (math.log(s / k) + (r + v * v / 2) * t) / (v * math.sqrt(t))
    d2 = d1 - v * math.sqrt(t)
    df = math.exp(-r * t)
    return s * ncdf(d1) - k * df * ncdf(d2) if call else k * df * ncdf(-d2) - s * ncdf(-d1)

def value(p, lv, horizon_years):
    q = float(p["quantity"])
    if p["instrument"] == "spot":
        return q * lv[p["factor_id"]]
    t = float(p["maturity_years"]) - horizon_years
    if p["instrument"] == "zcb":
        rate = p["rate_factor_id"] or p["factor_id"]
        return q * (math.exp(-lv[rate] * t) if t > 0 else 1.0)
    return q * bs(p["instrument"] == "call", lv[p["factor_id"]], float(p["strike"]),
                  lv[p["rate_factor_id"]], float(p["volatility"]), t)

book = list(csv.DictReader(open(f"{ind}/positions.csv")))
today = sum(value(p, levels, 0.0) for p in book)
pnl = []
for s in range(len(dates) - h):
    a, b = hist[dates[s]], hist[dates[s + h]]
    lv = {f: levels[f] * b[f] / a[f] for f in levels}
    pnl.append(sum(value(p, lv, h / 252.0) for p in book) - today)
n = len(pnl)
srt = sorted(pnl)
bad = 0
for r in csv.DictReader(open(f"{outd}/var_summary.csv")):
    if "/" in r["node"]:
        continue  # the top node holds the whole book
    conf = Fraction(r["confidence"])
    w = (1 - conf) * n
    k, m = max(1, math.ceil(w)), math.floor(w)
    var = -srt[k - 1]
    es = -(sum(srt[:m]) + float(w - m) * (srt[m] if w > m else 0.0)) / float(w)
    got_var, got_es = float(r["var"]), float(r["expected_shortfall"])
    scale = max(1.0, abs(var))
    print(f"confidence {r['confidence']}: n {n} k {k}: VaR {got_var} vs {var}, ES {got_es} vs {es}")
    if int(r["scenarios"]) != n or abs(got_var - var) > 1e-9 * scale or abs(got_es - es) > 1e-9 * scale:
        bad += 1
sys.exit(1 if bad else 0)

"""Checks mcvar's outputs for internal consistency: contributions add up to each VaR
(within 1e-9 relative), histogram counts add up to the scenario count, ES >= VaR."""
import csv, gzip, os, sys

def rows(d, name):
    p = os.path.join(d, name)
    if os.path.exists(p + ".gz"):
        return list(csv.DictReader(gzip.open(p + ".gz", "rt")))
    return list(csv.DictReader(open(p)))

d = sys.argv[1]
summary = rows(d, "var_summary.csv")
dist = rows(d, "pnl_distribution.csv")
contrib = rows(d, "contributions.csv")
n = int(summary[0]["scenarios"])
assert sum(int(r["count"]) for r in dist) == n, "histogram counts do not add up"
for s in summary:
    var, es = float(s["var"]), float(s["expected_shortfall"])
    assert es >= var - 1e-9 * abs(var), f"ES {es} below VaR {var}"
    cs = [float(r["contribution"]) for r in contrib if r["confidence"] == s["confidence"]]
    total = sum(cs)
    tol = 1e-9 * max(1.0, sum(abs(c) for c in cs))
    assert abs(total - var) <= tol, f"contributions {total} != VaR {var} at {s['confidence']}"
print(f"{d}: {len(summary)} levels, contributions add up, {n} scenarios")

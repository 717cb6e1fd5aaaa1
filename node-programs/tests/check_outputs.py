"""Checks mcvar's outputs for internal consistency: for every node and confidence, the
positions' contributions to the top node and the child nodes' contributions to their parent
add up to the VaR and the ES (within 1e-9 relative); histogram counts add up to the
scenario count; ES >= VaR; every row carries the run's business date.
usage: check_outputs.py OUT_DIR"""
import csv, gzip, os, sys
from collections import defaultdict

def rows(d, name):
    p = os.path.join(d, name)
    if os.path.exists(p + ".gz"):
        return list(csv.DictReader(gzip.open(p + ".gz", "rt")))
    return list(csv.DictReader(open(p)))

def close(total, want, parts):
    return abs(total - want) <= 1e-9 * max(1.0, sum(abs(c) for c in parts))

d = sys.argv[1]
summary = rows(d, "var_summary.csv")
run = rows(d, "run.csv")[0]
n = int(summary[0]["scenarios"])
top = summary[0]["node"]
counts = defaultdict(int)
for r in rows(d, "pnl_distribution.csv"):
    counts[r["node"]] += int(r["count"])
assert all(c == n for c in counts.values()), "histogram counts do not add up"
pos, child = defaultdict(list), defaultdict(list)
for r in rows(d, "contributions.csv"):
    pos[(r["node"], r["confidence"])].append(r)
for r in rows(d, "node_contributions.csv"):
    child[(r["node"], r["confidence"])].append(r)
for name in ("var_summary.csv", "contributions.csv", "node_contributions.csv", "run_inputs.csv"):
    assert all(r["business_date"] == run["business_date"] for r in rows(d, name)), name
for s in summary:
    var, es = float(s["var"]), float(s["expected_shortfall"])
    assert es >= var - 1e-9 * abs(var), f"ES {es} below VaR {var}"
    key = (s["node"], s["confidence"])
    parts = pos[key] if s["node"] == top else child[key]
    if s["node"] == top or parts:
        for col, want in (("var_contribution", var), ("es_contribution", es)):
            cs = [float(r[col]) for r in parts]
            assert close(sum(cs), want, cs), f"{col} of {key}: {sum(cs)} != {want}"
print(f"{d}: {len(summary)} node levels, contributions add up, {n} scenarios")

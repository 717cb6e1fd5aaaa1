"""Helpers of the added-factor test.
  add_factor.py DIR last|first NEW_ID   copies DIR to DIR's sibling named last|first with
      factor NEW_ID added (history: EQ-US's returns plus noise, so it is correlated with the
      others; a covariance.csv gets NEW_ID with variance 1e-4 and 0 with every other factor)
      and a position on it on node BANK/LE-NEW/DESK
  add_factor.py covariance DIR          writes DIR/covariance.csv: the sample covariance
      (n - 1) of the daily returns of the history, each factor's return type
  add_factor.py compare OUT_A OUT_B SKIP  node_pnl columns of every node of OUT_A other than
      the top and those under SKIP are byte-identical in OUT_B"""
import csv, gzip, math, os, shutil, sys
import numpy as np


def rows(path):
    return list(csv.DictReader(open(path)))


def returns(kind_ret, a, b, shift):
    if kind_ret == "log":
        return math.log(b / a)
    if kind_ret == "absolute":
        return b - a
    if kind_ret == "relative":
        return b / a - 1
    return math.log((b + shift) / (a + shift))


def covariance(d):
    fac = rows(f"{d}/factors.csv")
    hist = {}
    for r in rows(f"{d}/history.csv"):
        hist.setdefault(r["as_of"], {})[r["factor_id"]] = float(r["level"])
    dates = sorted(hist)
    ids = [f["factor_id"] for f in fac]
    rt = {f["factor_id"]: f["return_type"] or ("absolute" if f["kind"] == "rate" else "log") for f in fac}
    sh = {f["factor_id"]: float(f["shift"] or 0) for f in fac}
    x = np.array([[returns(rt[i], hist[dates[t]][i], hist[dates[t + 1]][i], sh[i]) for i in ids]
                  for t in range(len(dates) - 1)])
    c = np.cov(x, rowvar=False)
    with open(f"{d}/covariance.csv", "w") as out:
        out.write("factor_i,factor_j,covariance\n")
        for a in range(len(ids)):
            for b in range(a, len(ids)):
                out.write(f"{ids[a]},{ids[b]},{float(c[a, b])!r}\n")


def add(d, where, new):
    dst = os.path.join(os.path.dirname(d) or ".", where)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    for name in os.listdir(d):
        if name.endswith(".csv"):
            shutil.copy(os.path.join(d, name), dst)
    rng = np.random.default_rng(5)
    hist = {}
    for r in rows(f"{d}/history.csv"):
        if r["factor_id"] == "EQ-US":
            hist[r["as_of"]] = float(r["level"])
    dates = sorted(hist)
    lv = [100.0]
    for t in range(1, len(dates)):
        lv.append(lv[-1] * hist[dates[t]] / hist[dates[t - 1]] * math.exp(0.004 * rng.standard_normal()))
    with open(f"{dst}/history.csv", "a") as out:
        for t, day in enumerate(dates):
            out.write(f"{day},{new},{lv[t]!r}\n")
    with open(f"{dst}/factors.csv", "a") as out:
        out.write(f"{new},equity,{lv[-1]!r},USD,,,,,\n")
    with open(f"{dst}/positions.csv", "a") as out:
        out.write(f"NEWPOS,BANK/LE-NEW/DESK,spot,{new},,,,,,1000,,,\n")
    if os.path.exists(f"{dst}/covariance.csv"):
        ids = [f["factor_id"] for f in rows(f"{d}/factors.csv")]
        with open(f"{dst}/covariance.csv", "a") as out:
            out.write(f"{new},{new},0.0001\n")
            for i in ids:
                out.write(f"{new},{i},0\n")


def compare(a, b, skip):
    ra = list(csv.reader(gzip.open(f"{a}/node_pnl.csv.gz", "rt")))
    rb = list(csv.reader(gzip.open(f"{b}/node_pnl.csv.gz", "rt")))
    ha, hb = ra[0], rb[0]
    top = ha[1].split("/")[0]
    checked = 0
    for j, node in enumerate(ha):
        if j == 0 or node == top or node.startswith(skip):
            continue
        k = hb.index(node)
        col_a = [r[j] for r in ra[1:]]
        col_b = [r[k] for r in rb[1:]]
        if col_a != col_b:
            diff = sum(x != y for x, y in zip(col_a, col_b))
            print(f"node {node}: {diff} of {len(col_a)} scenario P&Ls changed")
            return False
        checked += 1
    print(f"{checked} nodes unchanged byte for byte over {len(ra) - 1} scenarios")
    return checked > 0


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "covariance":
        covariance(sys.argv[2])
    elif cmd == "compare":
        sys.exit(0 if compare(sys.argv[2], sys.argv[3], sys.argv[4]) else 1)
    else:
        add(sys.argv[1], sys.argv[2], sys.argv[3])

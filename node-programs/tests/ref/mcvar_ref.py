"""Independent reference for mcvar's historical, stressed and mc-normal runs, written with numpy
from the formulas in node-programs/README.md (not from the C code): Philox4x32-10 (from
"Parallel random numbers: as easy as 1, 2, 3") keyed as the README says, Box-Muller, the
covariance of the look-back window and its Cholesky factor; returns per return type, the
instruments (Garman-Kohlhagen, fx-forwards, zcbs on interpolated curves), conversion into the
base currency at each scenario's fx levels, the node hierarchy, VaR, ES with fractional
weighting of the boundary scenario (Acerbi-Tasche), diversification, Euler contributions of
positions and child nodes, tail scenarios, the stress window (given or searched) and what-if.

usage: mcvar_ref.py check IN_DIR OUT_DIR          compares every output file (to 1e-9)
       mcvar_ref.py what-if IN_DIR NEW_POSITIONS OUT_DIR   compares what_if.csv"""
import csv, gzip, math, os, sys
from fractions import Fraction
import numpy as np

TOL = 1e-9
erfc = np.vectorize(math.erfc, otypes=[float])


def ncdf(x):
    return 0.5 * erfc(-np.asarray(x, dtype=float) / math.sqrt(2.0))


def rows(path):
    if os.path.exists(path + ".gz"):
        return list(csv.DictReader(gzip.open(path + ".gz", "rt")))
    return list(csv.DictReader(open(path)))


M32 = np.uint64(0xFFFFFFFF)


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 on uint64 arrays holding 32-bit words (the paper's constants)."""
    k0, k1 = np.uint64(k0), np.uint64(k1)
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        n0 = (p1 >> np.uint64(32)) ^ c1 ^ k0
        n2 = (p0 >> np.uint64(32)) ^ c3 ^ k1
        c1, c3, c0, c2 = p1 & M32, p0 & M32, n0, n2
        k0 = (k0 + np.uint64(0x9E3779B9)) & M32
        k1 = (k1 + np.uint64(0xBB67AE85)) & M32
    return c0, c1, c2, c3


def fnv1a(s):
    h = 0xcbf29ce484222325
    for ch in s.encode():
        h = ((h ^ ch) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def keyed_normals(seed, fid, n):
    """README "Random numbers": scenarios 2j, 2j+1 from counter (j lo, j hi, h lo, h hi)."""
    h = fnv1a(fid)
    j = np.arange((n + 1) // 2, dtype=np.uint64)
    full = lambda v: np.full(j.shape, v, dtype=np.uint64)
    w0, w1, w2, w3 = philox4x32_10(j & M32, j >> np.uint64(32), full(h & 0xFFFFFFFF),
                                   full(h >> 32), seed & 0xFFFFFFFF, seed >> 32)
    u1 = (((w0 << np.uint64(32)) | w1) >> np.uint64(11)).astype(float) + 0.5
    u2 = (((w2 << np.uint64(32)) | w3) >> np.uint64(11)).astype(float) + 0.5
    u1, u2 = u1 * 2.0 ** -53, u2 * 2.0 ** -53
    r, a = np.sqrt(-2 * np.log(u1)), 2 * math.pi * u2
    z = np.empty(2 * len(j))
    z[0::2], z[1::2] = r * np.cos(a), r * np.sin(a)
    return z[:n]


class Market:
    def __init__(self, ind, params):
        self.f = {r["factor_id"]: r for r in rows(f"{ind}/factors.csv")}
        for fid, r in self.f.items():
            r["ret"] = r.get("return_type") or ("absolute" if r["kind"] == "rate" else "log")
            r["shift_v"] = float(r.get("shift") or 0)
            r["level_v"] = float(r["level"])
        hist = {}
        for r in rows(f"{ind}/history.csv"):
            hist.setdefault(r["as_of"], {})[r["factor_id"]] = float(r["level"])
        self.dates = sorted(hist)
        self.hist = hist
        self.h = int(params.get("horizon_days", 1))

    def ret(self, fid, a, b):
        r = self.f[fid]
        t, s = r["ret"], r["shift_v"]
        if t == "log":
            return np.log(b / a)
        if t == "relative":
            return b / a - 1
        if t == "absolute":
            return b - a
        return np.log((b + s) / (a + s))

    def apply(self, fid, l0, x):
        r = self.f[fid]
        t, s = r["ret"], r["shift_v"]
        if t == "log":
            return l0 * np.exp(x)
        if t == "relative":
            return l0 * (1 + x)
        if t == "absolute":
            return l0 + x
        return (l0 + s) * np.exp(x) - s

    def scenario_levels(self, dates):
        """{factor: array of scenario levels} over the h-day windows of `dates`."""
        n = len(dates) - self.h
        out = {}
        for fid, r in self.f.items():
            a = np.array([self.hist[dates[s]][fid] for s in range(n)])
            b = np.array([self.hist[dates[s + self.h]][fid] for s in range(n)])
            out[fid] = self.apply(fid, r["level_v"], self.ret(fid, a, b))
        return out, n

    def mc_levels(self, dates, params):
        """mc-normal: x = sqrt(h) L z, L the Cholesky factor of the sample covariance (n - 1)
        of the daily returns over `dates`, factors in id order."""
        ids = sorted(self.f)
        r = np.array([[self.ret(i, self.hist[dates[t]][i], self.hist[dates[t + 1]][i]) for i in ids]
                      for t in range(len(dates) - 1)])
        lam = float(params.get("ewma_lambda") or 0)
        if lam:  # RiskMetrics: zero mean, weights (1 - lambda) lambda^(T-1-t) / (1 - lambda^T)
            T = len(r)
            w = (1 - lam) * lam ** (T - 1 - np.arange(T)) / (1 - lam ** T)
            cov = (r * w[:, None]).T @ r
        else:
            cov = np.cov(r, rowvar=False)
        L = np.linalg.cholesky(cov)
        n, seed = int(params.get("scenarios", 10000)), int(params.get("seed", 1))
        z = np.array([keyed_normals(seed, i, n) for i in ids])
        x = math.sqrt(self.h) * (L @ z)
        return {i: self.apply(i, self.f[i]["level_v"], x[a]) for a, i in enumerate(ids)}, n

    def today(self):
        return {fid: r["level_v"] for fid, r in self.f.items()}


def gk(call, s, k, rd, rf, sig, t):
    s, rd, rf, sig = (np.asarray(v, dtype=float) for v in (s, rd, rf, sig))
    if t <= 0:
        return np.maximum(s - k, 0) if call else np.maximum(k - s, 0)
    dd, df = np.exp(-rd * t), np.exp(-rf * t)
    st = sig * math.sqrt(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        d1 = (np.log(s / k) + (rd - rf + 0.5 * sig * sig) * t) / st
    d2 = d1 - st
    val = s * df * ncdf(d1) - k * dd * ncdf(d2) if call else k * dd * ncdf(-d2) - s * df * ncdf(-d1)
    zero = np.maximum(s * df - k * dd, 0) if call else np.maximum(k * dd - s * df, 0)
    return np.where(sig == 0, zero, val)


class Book:
    def __init__(self, path, mkt, base):
        self.p = rows(path)
        self.m, self.base = mkt, base

    def curve_rate(self, curve, T, lv):
        pts = sorted((float(r["tenor_years"]), fid) for fid, r in self.m.f.items()
                     if r.get("curve") == curve)
        lo = [p for p in pts if p[0] <= T]
        hi = [p for p in pts if p[0] >= T]
        a = lo[-1] if lo else hi[0]
        b = hi[0] if hi else lo[-1]
        if a[1] == b[1]:
            return lv[a[1]]
        return lv[a[1]] + (lv[b[1]] - lv[a[1]]) * (T - a[0]) / (b[0] - a[0])

    def currency(self, p):
        f = self.m.f
        if p["instrument"] == "cash":
            return p["currency"]
        if p["instrument"] == "zcb":
            rid = p["rate_factor_id"] or p["factor_id"]
            if rid:
                return f[rid]["currency"]
            return next(r["currency"] for r in f.values() if r.get("curve") == p["curve"])
        return f[p["factor_id"]]["currency"]

    def fx_path(self, c):
        """README: directly or inverted through one fx factor, else through one intermediate
        currency; fx factors in id order, first path found."""
        fx = sorted((fid, r["quote"][:3], r["quote"][3:]) for fid, r in self.m.f.items()
                    if r["kind"] == "fx")
        if c == self.base:
            return []
        for fid, b, q in fx:
            if b == c and q == self.base:
                return [(fid, 1)]
            if q == c and b == self.base:
                return [(fid, -1)]
        for fid, b, q in fx:
            if b == c:
                via, s1 = q, 1
            elif q == c:
                via, s1 = b, -1
            else:
                continue
            for gid, b2, q2 in fx:
                if gid == fid:
                    continue
                if b2 == via and q2 == self.base:
                    return [(fid, s1), (gid, 1)]
                if q2 == via and b2 == self.base:
                    return [(fid, s1), (gid, -1)]
        raise ValueError(f"no path for {c}")

    def convert(self, c, lv):
        out = 1.0
        for fid, sign in self.fx_path(c):
            out = out * (lv[fid] if sign > 0 else 1.0 / lv[fid])
        return out

    def unit_value(self, p, lv, t):
        inst, q = p["instrument"], float(p["quantity"])
        T = float(p["maturity_years"] or 0)
        s = lv[p["factor_id"]] if p["factor_id"] else None
        if inst == "spot":
            return q * s
        if inst == "cash":
            return q * 1.0
        rd = None
        if inst == "zcb":
            rid = p["rate_factor_id"] or p["factor_id"]
            rd = lv[rid] if rid else self.curve_rate(p["curve"], T, lv)
            return q * (np.exp(-rd * t) if t > 0 else 1.0 + 0 * rd)
        rd = lv[p["rate_factor_id"]]
        k = float(p["strike"])
        if inst == "fx-forward":
            rf = lv[p["foreign_rate_factor_id"]]
            return q * (s * np.exp(-rf * t) - k * np.exp(-rd * t) if t > 0 else s - k)
        rf = lv[p["foreign_rate_factor_id"]] if p.get("foreign_rate_factor_id") else 0.0
        sig = lv[p["vol_factor_id"]] if p.get("vol_factor_id") else float(p["volatility"])
        return q * gk(inst == "call", s, k, rd, rf, sig, t)

    def pnl(self, lv, n):
        """{position id: P&L array in base}"""
        today, h = self.m.today(), self.m.h / 252.0
        out = {}
        for p in self.p:
            c, T = self.currency(p), float(p["maturity_years"] or 0)
            v0 = self.unit_value(p, today, T) * self.convert(c, today)
            v1 = self.unit_value(p, lv, T - h) * self.convert(c, lv)
            out[p["position_id"]] = np.broadcast_to(np.asarray(v1 - v0, dtype=float), (n,)).copy()
        return out


def nodes_of(book):
    ns = set()
    for p in book.p:
        parts = p["node"].split("/")
        for i in range(1, len(parts) + 1):
            ns.add("/".join(parts[:i]))
    return sorted(ns)


def under(node, path):
    return path == node or path.startswith(node + "/")


def stats(pnl, conf):
    n = len(pnl)
    order = np.lexsort((np.arange(n), pnl))
    w = (1 - Fraction(conf)) * n
    k, m = max(1, math.ceil(w)), math.floor(w)
    frac = float(w - m)
    wf = float(w)
    srt = pnl[order]
    var = -srt[k - 1]
    es = -(srt[:m].sum() + (frac * srt[m] if frac > 0 else 0.0)) / wf
    hw = int(0.0025 * n)
    lo, hi = max(1, k - hw), min(n, k + hw)
    weights = np.zeros(n)
    weights[:m] = 1.0 / wf
    if frac > 0:
        weights[m] = frac / wf
    a = wf / n  # README "Standard errors"
    d = math.ceil(math.sqrt(n * a * (1 - a)))
    var_se = (srt[min(n, k + d) - 1] - srt[max(1, k - d) - 1]) / 2
    es_se = np.std(np.maximum(-pnl - var, 0), ddof=1) / (a * math.sqrt(n))
    return dict(var=var, es=es, order=order, k=k, lo=lo, hi=hi, weights=weights,
                win_mean=srt[lo - 1:hi].mean(), var_se=var_se, es_se=es_se)


def contribution(st, part):
    ps = part[st["order"]]
    mean = ps[st["lo"] - 1:st["hi"]].mean()
    var_c = mean * st["var"] / st["win_mean"] if st["win_mean"] != 0 else -mean
    es_c = -(st["weights"] * ps).sum()
    return var_c, es_c


def analyse(ind, positions_path=None, dates_override=None):
    params = {r["name"]: r["value"] for r in rows(f"{ind}/params.csv")}
    mkt = Market(ind, params)
    book = Book(positions_path or f"{ind}/positions.csv", mkt, params["base_currency"])
    confs = params.get("confidence_levels", "0.95;0.99").split(";")
    dates = mkt.dates
    stress = ("", "")
    if params.get("stress_from"):
        dates = [d for d in dates if params["stress_from"] <= d <= params["stress_to"]]
        stress = (dates[0], dates[-1])
    elif params.get("stress_window_days"):
        pass  # searched below
    elif int(params.get("lookback_days", 0) or 0) > 0:
        dates = dates[-(int(params["lookback_days"]) + 1):]
    if dates_override:
        dates = dates_override
    mc = params.get("method") == "mc-normal"
    lv, n = mkt.mc_levels(dates, params) if mc else mkt.scenario_levels(dates)
    pos = book.pnl(lv, n)
    nodes = nodes_of(book)
    npnl = {nd: sum((pos[p["position_id"]] for p in book.p if under(nd, p["node"])), np.zeros(n))
            for nd in nodes}
    if params.get("stress_window_days") and not dates_override:
        L, top = int(params["stress_window_days"]), nodes[0]
        cmax = max(confs, key=Fraction)
        best, first = None, 0
        for s0 in range(len(mkt.dates) - L + 1):
            v = stats(npnl[top][s0:s0 + L - mkt.h], cmax)["var"]
            if best is None or v > best:
                best, first = v, s0
        window = mkt.dates[first:first + L]
        res = analyse(ind, positions_path, window)
        res["stress"] = (window[0], window[-1])
        return res
    return dict(params=params, mkt=mkt, book=book, confs=confs, dates=dates, n=n, pos=pos,
                nodes=nodes, npnl=npnl, stress=stress, mc=mc)


def near(a, b, scale):
    return abs(a - b) <= TOL * max(1.0, abs(scale))


def check(ind, outd):
    R = analyse(ind)
    bad = []
    nodes, npnl, confs, book = R["nodes"], R["npnl"], R["confs"], R["book"]
    top = nodes[0]
    st = {(nd, c): stats(npnl[nd], c) for nd in nodes for c in confs}
    children = {nd: [c for c in nodes if c.rsplit("/", 1)[0] == nd and c != nd] for nd in nodes}
    got = rows(f"{outd}/var_summary.csv")
    if len(got) != len(nodes) * len(confs):
        bad.append(f"var_summary has {len(got)} rows, want {len(nodes) * len(confs)}")
    for r in got:
        s = st[(r["node"], r["confidence"])]
        for col, want in (("var", s["var"]), ("expected_shortfall", s["es"])):
            if not near(float(r[col]), want, want):
                bad.append(f"{r['node']} {r['confidence']} {col}: {r[col]} vs {want!r}")
        if int(r["scenarios"]) != R["n"]:
            bad.append(f"scenarios {r['scenarios']} vs {R['n']}")
        if R["mc"]:
            if not near(float(r["var_stderr"]), s["var_se"], s["var"]) or \
                    not near(float(r["es_stderr"]), s["es_se"], s["es"]):
                bad.append(f"{r['node']} {r['confidence']} stderr {r['var_stderr']}, "
                           f"{r['es_stderr']} vs {s['var_se']!r}, {s['es_se']!r}")
        elif r["var_stderr"] or r["es_stderr"]:
            bad.append("historical run with standard errors")
        kids = children[r["node"]]
        if kids:
            dv = sum(st[(c, r["confidence"])]["var"] for c in kids) - s["var"]
            de = sum(st[(c, r["confidence"])]["es"] for c in kids) - s["es"]
            if not near(float(r["diversification_var"]), dv, s["var"]) or \
                    not near(float(r["diversification_es"]), de, s["es"]):
                bad.append(f"{r['node']} diversification {r['diversification_var']} vs {dv!r}")
        elif r["diversification_var"] != "":
            bad.append(f"leaf {r['node']} has a diversification")
    # positions: to the top node and to their own node
    want = {}
    for p in book.p:
        for nd in {top, p["node"]}:
            for c in confs:
                want[(nd, p["position_id"], c)] = contribution(st[(nd, c)], R["pos"][p["position_id"]])
    got = rows(f"{outd}/contributions.csv")
    if len(got) != len(want):
        bad.append(f"contributions has {len(got)} rows, want {len(want)}")
    for r in got:
        v, e = want[(r["node"], r["position_id"], r["confidence"])]
        s = st[(r["node"], r["confidence"])]
        q = float(next(p["quantity"] for p in book.p if p["position_id"] == r["position_id"]))
        if not near(float(r["var_contribution"]), v, s["var"]) or \
                not near(float(r["es_contribution"]), e, s["es"]) or \
                not near(float(r["marginal_var"]), v / q, s["var"]):
            bad.append(f"contribution {r['node']} {r['position_id']} {r['confidence']}: "
                       f"{r['var_contribution']}, {r['es_contribution']} vs {v!r}, {e!r}")
    got = rows(f"{outd}/node_contributions.csv")
    nchild = sum(len(children[nd]) for nd in nodes) * len(confs)
    if len(got) != nchild:
        bad.append(f"node_contributions has {len(got)} rows, want {nchild}")
    for r in got:
        s = st[(r["node"], r["confidence"])]
        v, e = contribution(s, npnl[r["child_node"]])
        if not near(float(r["var_contribution"]), v, s["var"]) or \
                not near(float(r["es_contribution"]), e, s["es"]):
            bad.append(f"node contribution {r['child_node']} -> {r['node']}: {r['var_contribution']} vs {v!r}")
    # tail scenarios: the k worst of every node at every confidence, with their dates
    got = rows(f"{outd}/tail_scenarios.csv")
    want_rows = 0
    for nd in nodes:
        for c in confs:
            if R["mc"]:
                continue  # historical and stressed runs only
            s = st[(nd, c)]
            want_rows += s["k"]
            mine = [r for r in got if r["node"] == nd and r["confidence"] == c]
            for rank, r in enumerate(mine, 1):
                sc = int(s["order"][rank - 1])
                if int(r["scenario"]) != sc or r["from_date"] != R["dates"][sc] or \
                        r["to_date"] != R["dates"][sc + R["mkt"].h] or int(r["rank"]) != rank:
                    bad.append(f"tail {nd} {c} rank {rank}: {r} vs scenario {sc}")
    if len(got) != want_rows:
        bad.append(f"tail_scenarios has {len(got)} rows, want {want_rows}")
    # node P&L
    got = rows(f"{outd}/node_pnl.csv")
    for nd in nodes:
        g = np.array([float(r[nd]) for r in got])
        if len(g) != R["n"] or np.max(np.abs(g - npnl[nd])) > TOL * max(1.0, np.max(np.abs(npnl[nd]))):
            bad.append(f"node_pnl of {nd} differs")
    run = rows(f"{outd}/run.csv")[0]
    if (run["stress_from"], run["stress_to"]) != R["stress"] or run["base_currency"] != R["params"]["base_currency"]:
        bad.append(f"run.csv {run} vs stress {R['stress']}")
    for line in bad[:30]:
        print("MISMATCH", line)
    top_var = {c: st[(top, c)]["var"] for c in confs}
    print(f"{len(nodes)} nodes, {len(book.p)} positions, {R['n']} scenarios, top VaR {top_var}, "
          f"stress {R['stress']}: {len(bad)} mismatches")
    return not bad


def what_if(ind, new_path, outd):
    base = analyse(ind)
    new = analyse(ind, new_path, base["dates"])
    bad = []
    got = rows(f"{outd}/what_if.csv")
    if len(got) != len(new["nodes"]) * len(new["confs"]):
        bad.append(f"what_if has {len(got)} rows")
    for r in got:
        nd, c = r["node"], r["confidence"]
        b = stats(base["npnl"][nd], c)
        a = stats(base["npnl"][nd] + new["npnl"][nd], c)
        for col, want, scale in (("var_before", b["var"], b["var"]), ("var_after", a["var"], a["var"]),
                                 ("incremental_var", a["var"] - b["var"], b["var"]),
                                 ("es_before", b["es"], b["es"]), ("es_after", a["es"], a["es"]),
                                 ("incremental_es", a["es"] - b["es"], b["es"])):
            if not near(float(r[col]), want, scale):
                bad.append(f"{nd} {c} {col}: {r[col]} vs {want!r}")
    for line in bad[:20]:
        print("MISMATCH", line)
    print(f"what-if: {len(got)} rows, {len(bad)} mismatches")
    return not bad


if __name__ == "__main__":
    if sys.argv[1] == "check":
        ok = check(sys.argv[2], sys.argv[3])
    else:
        ok = what_if(sys.argv[2], sys.argv[3], sys.argv[4])
    sys.exit(0 if ok else 1)

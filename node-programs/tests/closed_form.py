"""A linear Gaussian book: spot positions on correlated lognormal factors with small daily
volatilities, so P&L = sum w_f (e^x_f - 1) is normal to within far less than the Monte
Carlo error. Closed form: VaR = z sigma_p, ES = sigma_p phi(z) / (1 - alpha), sigma_p^2 =
w' Sigma w h. Checked within three Monte Carlo standard errors (asymptotic standard errors
of the empirical quantile and of the tail mean); the standard errors mcvar reports must lie
within about 25% of those asymptotic ones.
With `ewma`, the covariance is estimated by mcvar from a 300-day history whose last 60 days
are three times as volatile, over lookback_days 200 with ewma_lambda 0.94; the closed form
uses the RiskMetrics EWMA covariance of those 200 returns computed here (README formula).
usage: closed_form.py write DIR [ewma] | check DIR OUT [ewma]"""
import csv, math, statistics, sys

LEVELS = [100.0, 250.0, 40.0, 1.2, 75.0]
# Daily vols of a few basis points keep the lognormal convexity (about z sigma sqrt(h) / 2
# relative, here < 0.05%) far below the Monte Carlo error (about 1%).
VOLS = [0.0002, 0.00015, 0.0003, 0.0001, 0.00025]
CORR = 0.4
QTY = [300, -120, 500, 20000, 150]
SCEN, HORIZON = 100000, 4
norm = statistics.NormalDist()

def cov(i, j):
    return VOLS[i] * VOLS[j] * (1.0 if i == j else CORR)

EWMA_LAMBDA, LOOKBACK, DAYS = 0.94, 200, 300


def history_levels():
    """A deterministic history (its own LCG-free generator: random.Random) ending at LEVELS."""
    import random
    rnd = random.Random(11)
    n = len(LEVELS)
    lv = [list(LEVELS)]
    for t in range(DAYS - 1):
        calm = t >= 60  # counted back from today: the last 60 days are the stressed ones
        common = rnd.gauss(0, 1)
        prev = lv[-1]
        scale = 1.0 if calm else 3.0
        x = [scale * VOLS[i] * (math.sqrt(CORR) * common + math.sqrt(1 - CORR) * rnd.gauss(0, 1))
             for i in range(n)]
        lv.append([prev[i] * math.exp(-x[i]) for i in range(n)])
    return lv[::-1]  # oldest first, ends at LEVELS


def ewma_cov():
    lv = history_levels()[-(LOOKBACK + 1):]
    n, T = len(LEVELS), LOOKBACK
    r = [[math.log(lv[t + 1][i] / lv[t][i]) for i in range(n)] for t in range(T)]
    norm = (1 - EWMA_LAMBDA) / (1 - EWMA_LAMBDA ** T)
    return [[sum(norm * EWMA_LAMBDA ** (T - 1 - t) * r[t][i] * r[t][j] for t in range(T))
             for j in range(n)] for i in range(n)]


def dates():
    import datetime
    d0 = datetime.date(2025, 1, 1)
    return [(d0 + datetime.timedelta(days=t)).isoformat() for t in range(DAYS)]


def write(d, ewma=False):
    n = len(LEVELS)
    if ewma:
        with open(f"{d}/history.csv", "w") as f:
            f.write("as_of,factor_id,level\n")
            for day, row in zip(dates(), history_levels()):
                for i in range(n):
                    f.write(f"{day},EQ{i},{row[i]!r}\n")
    with open(f"{d}/factors.csv", "w") as f:
        f.write("factor_id,kind,level,currency,quote\n")
        for i in range(n):  # EQ3 is EURUSD: a spot on it holds EUR, worth quantity x level USD
            f.write(f"EQ{i},{'fx' if i == 3 else 'equity'},{LEVELS[i]},USD,{'EURUSD' if i == 3 else ''}\n")
    with open(f"{d}/covariance.csv", "w") as f:  # used by the plain case
        f.write("factor_i,factor_j,covariance\n")
        for i in range(n):
            for j in range(i, n):  # upper triangle only: mcvar fills the symmetric half
                f.write(f"EQ{i},EQ{j},{cov(i, j)!r}\n")
    with open(f"{d}/positions.csv", "w") as f:
        f.write("position_id,node,instrument,factor_id,rate_factor_id,quantity,strike,maturity_years,volatility\n")
        for i in range(n):
            f.write(f"P{i},BOOK/D{i % 2},spot,EQ{i},,{QTY[i]},,,\n")
    with open(f"{d}/params.csv", "w") as f:
        f.write(f"name,value\nbase_currency,USD\nscenarios,{SCEN}\nhorizon_days,{HORIZON}\n"
                "confidence_levels,0.95;0.99\nmethod,mc-normal\nseed,1\n")
        if ewma:
            f.write(f"ewma_lambda,{EWMA_LAMBDA}\nlookback_days,{LOOKBACK}\nbusiness_date,{dates()[-1]}\n"
                    "max_move_sigmas,20\n")  # the stressed days are many calm sigmas

def check(out, ewma=False):
    n = len(LEVELS)
    w = [QTY[i] * LEVELS[i] for i in range(n)]
    c = ewma_cov() if ewma else [[cov(i, j) for j in range(n)] for i in range(n)]
    sp = math.sqrt(HORIZON * sum(w[i] * w[j] * c[i][j] for i in range(n) for j in range(n)))
    if ewma:
        eq = math.sqrt(HORIZON * sum(w[i] * w[j] * cov(i, j) for i in range(n) for j in range(n)))
        print(f"EWMA sigma_p {sp:.3f} (constant-covariance sigma_p would be {eq:.3f})")
    bad = 0
    for r in csv.DictReader(open(f"{out}/var_summary.csv")):
        if r["node"] != "BOOK":
            continue
        a = float(r["confidence"])
        z = norm.inv_cdf(a)
        lam = norm.pdf(z) / (1 - a)
        var_cf, es_cf = z * sp, lam * sp
        se_var = math.sqrt(a * (1 - a) / SCEN) / norm.pdf(z) * sp
        tail_var = 1 + z * lam - lam * lam  # Var(Z | Z > z)
        se_es = sp * math.sqrt((tail_var + a * (lam - z) ** 2) / (SCEN * (1 - a)))
        var, es = float(r["var"]), float(r["expected_shortfall"])
        print(f"alpha {a}: VaR {var:.2f} vs {var_cf:.2f} (se {se_var:.2f}); "
              f"ES {es:.2f} vs {es_cf:.2f} (se {se_es:.2f})")
        if abs(var - var_cf) > 3 * se_var or abs(es - es_cf) > 3 * se_es:
            bad += 1
        # the reported standard errors (README: order-statistic interval, Chen's ES variance)
        # estimate the same asymptotic standard errors
        got_se_var, got_se_es = float(r["var_stderr"]), float(r["es_stderr"])
        print(f"  stderr VaR {got_se_var:.3f} vs {se_var:.3f}; ES {got_se_es:.3f} vs {se_es:.3f}")
        if not (0.75 < got_se_var / se_var < 1.33 and 0.8 < got_se_es / se_es < 1.25):
            bad += 1
        sd = float(r["pnl_stddev"])
        if abs(sd / sp - 1) > 3 * math.sqrt(0.5 / SCEN) + 0.002:
            print(f"stddev {sd} vs {sp}"); bad += 1
    sys.exit(1 if bad else 0)

ewma = sys.argv[-1] == "ewma"
if sys.argv[1] == "write":
    write(sys.argv[2], ewma)
else:
    check(sys.argv[3], ewma)

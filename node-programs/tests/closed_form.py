"""A linear Gaussian book: spot positions on correlated lognormal factors with small daily
volatilities, so P&L = sum w_f (e^x_f - 1) is normal to within far less than the Monte
Carlo error. Closed form: VaR = z sigma_p, ES = sigma_p phi(z) / (1 - alpha), sigma_p^2 =
w' Sigma w h. Checked within three Monte Carlo standard errors (asymptotic standard errors
of the empirical quantile and of the tail mean); the standard errors mcvar reports must lie
within about 25% of those asymptotic ones.
usage: closed_form.py write DIR | check DIR OUT"""
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

def write(d):
    n = len(LEVELS)
    with open(f"{d}/factors.csv", "w") as f:
        f.write("factor_id,kind,level,currency,quote\n")
        for i in range(n):  # EQ3 is EURUSD: a spot on it holds EUR, worth quantity x level USD
            f.write(f"EQ{i},{'fx' if i == 3 else 'equity'},{LEVELS[i]},USD,{'EURUSD' if i == 3 else ''}\n")
    with open(f"{d}/covariance.csv", "w") as f:
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

def check(out):
    n = len(LEVELS)
    w = [QTY[i] * LEVELS[i] for i in range(n)]
    sp = math.sqrt(HORIZON * sum(w[i] * w[j] * cov(i, j) for i in range(n) for j in range(n)))
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

if sys.argv[1] == "write":
    write(sys.argv[2])
else:
    check(sys.argv[3])

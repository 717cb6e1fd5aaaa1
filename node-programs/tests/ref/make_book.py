"""Writes a small bank's mcvar inputs for the reference tests: equities in USD, EUR, JPY and
GBP; fx quoted as markets quote them (EURUSD, USDJPY, GBPUSD and EURCHF, so CHF converts
through EUR); rate curves with negative EUR and JPY rates (absolute returns) and a
shifted-log GBP rate; an implied volatility factor; spot, cash, zcb (on a rate factor and on
curves), fx-forwards, Garman-Kohlhagen and Black-Scholes options, one expiring within the
horizon; five desks under two legal entities. History: 300 weekdays of fat-tailed (Student-t)
moves ending at the business date.
usage: make_book.py DIR [method] [extra name=value params...]"""
import datetime, os, sys
import numpy as np

FACTORS = [  # id, kind, level, currency, quote, return_type, shift, curve, tenor, daily sd
    ("EQ-US", "equity", 400.0, "USD", "", "", "", "", "", 0.012),
    ("EQ-EU", "equity", 50.0, "EUR", "", "", "", "", "", 0.013),
    ("EQ-JP", "equity", 30000.0, "JPY", "", "", "", "", "", 0.011),
    ("EQ-GB", "equity", 700.0, "GBP", "", "log", "", "", "", 0.010),
    ("FX-EURUSD", "fx", 1.08, "USD", "EURUSD", "", "", "", "", 0.005),
    ("FX-USDJPY", "fx", 151.2, "JPY", "USDJPY", "", "", "", "", 0.006),
    ("FX-GBPUSD", "fx", 1.27, "USD", "GBPUSD", "", "", "", "", 0.005),
    ("FX-EURCHF", "fx", 0.95, "CHF", "EURCHF", "", "", "", "", 0.004),
    ("USD-1Y", "rate", 0.045, "USD", "", "", "", "USD-OIS", "1", 0.0006),
    ("USD-5Y", "rate", 0.040, "USD", "", "absolute", "", "USD-OIS", "5", 0.0007),
    ("EUR-1Y", "rate", -0.004, "EUR", "", "", "", "EUR-ESTR", "1", 0.0005),
    ("EUR-5Y", "rate", -0.001, "EUR", "", "", "", "EUR-ESTR", "5", 0.0006),
    ("JPY-1Y", "rate", -0.001, "JPY", "", "", "", "", "", 0.0002),
    ("GBP-1Y", "rate", 0.045, "GBP", "", "shifted-log", "0.02", "", "", 0.008),
    ("VOL-EQ-US", "vol", 0.2, "", "", "", "", "", "", 0.03),
]

def positions(rng):
    q = lambda lo, hi: int(rng.integers(lo, hi))
    return [  # id, node, instrument, factor, rate, foreign, vol, curve, currency, qty, strike, maturity, volatility
        ("EQ1", "BANK/LE-US/EQ", "spot", "EQ-US", "", "", "", "", "", q(500, 2000), "", "", ""),
        ("EQ2", "BANK/LE-US/EQ", "call", "EQ-US", "USD-1Y", "", "VOL-EQ-US", "", "USD", q(-800, -100), 410, 0.5, ""),
        ("EQ3", "BANK/LE-US/EQ", "put", "EQ-US", "USD-1Y", "", "", "", "", q(100, 900), 380, 1.0, 0.22),
        ("EQ4", "BANK/LE-US/EQ", "call", "EQ-US", "USD-1Y", "", "", "", "", q(100, 900), 395, 0.002, 0.2),
        ("EQ5", "BANK/LE-EU/EQ", "spot", "EQ-EU", "", "", "", "", "EUR", q(5000, 20000), "", "", ""),
        ("EQ6", "BANK/LE-EU/EQ", "put", "EQ-EU", "EUR-1Y", "", "", "", "", q(1000, 5000), 48, 0.75, 0.25),
        ("EQ7", "BANK/LE-EU/EQ", "spot", "EQ-GB", "", "", "", "", "", q(200, 900), "", "", ""),
        ("EQ8", "BANK/LE-US/EQ", "spot", "EQ-JP", "", "", "", "", "JPY", q(5, 30), "", "", ""),
        ("FX1", "BANK/LE-EU/FX", "spot", "FX-EURUSD", "", "", "", "", "", q(-900000, -100000), "", "", ""),
        ("FX2", "BANK/LE-EU/FX", "spot", "FX-USDJPY", "", "", "", "", "", q(100000, 900000), "", "", ""),
        ("FX3", "BANK/LE-EU/FX", "cash", "", "", "", "", "", "JPY", q(10**7, 10**8), "", "", ""),
        ("FX4", "BANK/LE-EU/FX", "cash", "", "", "", "", "", "CHF", q(10**5, 10**6), "", "", ""),
        ("FX5", "BANK/LE-EU/FX", "cash", "", "", "", "", "", "GBP", q(-10**6, -10**5), "", "", ""),
        ("FX6", "BANK/LE-EU/FX", "fx-forward", "FX-EURUSD", "USD-1Y", "EUR-1Y", "", "", "", q(10**5, 10**6), 1.09, 0.5, ""),
        ("FX7", "BANK/LE-EU/FX", "call", "FX-USDJPY", "JPY-1Y", "USD-1Y", "", "", "", q(10**5, 10**6), 150, 0.25, 0.1),
        ("FX8", "BANK/LE-EU/FX", "put", "FX-EURUSD", "USD-1Y", "EUR-1Y", "", "", "", q(10**5, 10**6), 1.07, 0.5, 0.08),
        ("FX9", "BANK/LE-EU/FX", "cash", "", "", "", "", "", "USD", q(1000, 5000), "", "", ""),
        ("RT1", "BANK/LE-US/RATES", "zcb", "", "USD-1Y", "", "", "", "", q(10**6, 10**7), "", 1.0, ""),
        ("RT2", "BANK/LE-US/RATES", "zcb", "", "", "", "", "USD-OIS", "USD", q(-10**7, -10**6), "", 3.0, ""),
        ("RT3", "BANK/LE-EU/RATES", "zcb", "", "", "", "", "EUR-ESTR", "", q(10**6, 10**7), "", 2.0, ""),
        ("RT4", "BANK/LE-EU/RATES", "zcb", "", "", "", "", "EUR-ESTR", "", q(10**6, 10**7), "", 9.0, ""),
        ("RT5", "BANK/LE-EU/RATES", "zcb", "", "JPY-1Y", "", "", "", "", q(10**8, 10**9), "", 1.0, ""),
        ("RT6", "BANK/LE-EU/RATES", "zcb", "GBP-1Y", "GBP-1Y", "", "", "", "GBP", q(10**6, 10**7), "", 1.0, ""),
    ]

def write(d, method="historical", extra=()):
    rng = np.random.default_rng(20240101)
    os.makedirs(d, exist_ok=True)
    day, dates = datetime.date(2024, 1, 1), []
    while len(dates) < 300:
        if day.weekday() < 5:
            dates.append(day.isoformat())
        day += datetime.timedelta(days=1)
    n, nf = len(dates), len(FACTORS)
    # common market shock plus idiosyncratic, Student-t(5) clipped, with a calmer and a
    # stressed half (the second hundred days twice as volatile)
    common = np.clip(rng.standard_t(5, n), -6, 6)
    levels = np.zeros((n, nf))
    for j, f in enumerate(FACTORS):
        rt = f[5] or ("absolute" if f[1] == "rate" else "log")
        shift = float(f[6] or 0)
        eps = 0.5 * common + np.clip(rng.standard_t(5, n), -6, 6)
        eps[100:200] *= 2.0
        x = f[9] * eps / np.sqrt(1.25 * 5 / 3)
        lv = np.empty(n)
        lv[-1] = f[2]
        for t in range(n - 1, 0, -1):  # back from today's level
            if rt == "absolute":
                lv[t - 1] = lv[t] - x[t]
            elif rt == "shifted-log":
                lv[t - 1] = (lv[t] + shift) * np.exp(-x[t]) - shift
            else:
                lv[t - 1] = lv[t] * np.exp(-x[t])
        levels[:, j] = lv
    with open(f"{d}/factors.csv", "w") as out:
        out.write("factor_id,kind,level,currency,quote,return_type,shift,curve,tenor_years\n")
        for f in FACTORS:
            out.write(",".join(str(v) for v in f[:9]) + "\n")
    with open(f"{d}/history.csv", "w") as out:
        out.write("as_of,factor_id,level\n")
        for t in range(n):
            for j, f in enumerate(FACTORS):
                out.write(f"{dates[t]},{f[0]},{float(levels[t, j])!r}\n")
    with open(f"{d}/positions.csv", "w") as out:
        out.write("position_id,node,instrument,factor_id,rate_factor_id,foreign_rate_factor_id,"
                  "vol_factor_id,curve,currency,quantity,strike,maturity_years,volatility\n")
        for p in positions(rng):
            out.write(",".join(str(v) for v in p) + "\n")
    with open(f"{d}/params.csv", "w") as out:
        out.write(f"name,value\nbase_currency,USD\nbusiness_date,{dates[-1]}\nmethod,{method}\n"
                  "horizon_days,1\nconfidence_levels,0.95;0.975;0.99\nhistogram_bins,20\n"
                  "lookback_days,250\nscenarios,4000\nseed,7\ndof,5\n")
        for e in extra:
            name, value = e.split("=", 1)
            out.write(f"{name},{value}\n")

if __name__ == "__main__":
    write(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "historical", sys.argv[3:])

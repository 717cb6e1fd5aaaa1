"""Bad input stops mcvar with "file:line: what is wrong" from exactly one rank, a non-zero
exit, and no output files, not even an earlier run's. Covers unknown factor, negative
volatility, non-numeric field, missing column (in a row and in the header), a bad or unknown
parameter, a duplicate position_id, a zcb naming two different factors, and truncated or
corrupt compressed blocks (whose line is the first line the bad block would have completed,
line 1 for the first block).
usage: bad_input.py BIN WORK"""
import os, re, shutil, struct, subprocess, sys

BIN, WORK = sys.argv[1], sys.argv[2]
base = os.path.join(WORK, "base")
os.makedirs(base, exist_ok=True)
subprocess.run([f"{BIN}/mcvar-gen", "--out-dir", base, "--factors", "6", "--days", "60",
                "--positions", "20", "--option-share", "0.5", "--seed", "2"], check=True)

def lines(name):
    return open(os.path.join(base, name)).read().splitlines(keepends=True)

def members(data):
    """(offset, size) of each gzip member, from the BC subfield."""
    out, at = [], 0
    while at < len(data):
        xlen = struct.unpack_from("<H", data, at + 10)[0]
        bsize = struct.unpack_from("<H", data, at + 16)[0] + 1
        assert data[at + 12:at + 14] == b"BC" and xlen == 6
        out.append((at, bsize))
        at += bsize
    return out

failures = 0

STALE = ["var_summary.csv", "contributions.csv", "pnl_distribution.csv.gz"]

def case(name, expect, edit, stale=False):
    """edit(dir) changes the copied inputs and returns the history file name to use; with
    stale, the output directory starts with an earlier run's results, which must go."""
    global failures
    d = os.path.join(WORK, name)
    shutil.copytree(base, d)
    out = os.path.join(d, "out")
    os.mkdir(out)
    for f in STALE if stale else []:
        open(os.path.join(out, f), "w").write("run_id,stale\nearlier,1\n")
    history = edit(d) or "history.csv"
    cmd = ["mpirun", "--oversubscribe", "-np", "2", f"{BIN}/mcvar",
           "--factors", f"{d}/factors.csv", "--history", f"{d}/{history}",
           "--positions", f"{d}/positions.csv", "--params", f"{d}/params.csv",
           "--out-dir", out, "--buffer-size", "4096"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    msgs = [l for l in p.stderr.splitlines() if l.startswith("mcvar:")]
    problems = []
    if p.returncode == 0:
        problems.append("exit status 0")
    if len(msgs) != 1:
        problems.append(f"{len(msgs)} messages")
    if not any(re.search(expect, m) for m in msgs):
        problems.append(f"no message matching {expect!r}")
    if os.listdir(out):
        problems.append(f"files left in out dir: {os.listdir(out)}")
    status = "ok" if not problems else "FAIL " + "; ".join(problems)
    print(f"{name}: {status}: {msgs[0] if msgs else p.stderr.strip()[-300:]}")
    failures += bool(problems)

def append(name, row):
    def edit(d):
        with open(os.path.join(d, name), "a") as f:
            f.write(row + "\n")
    return edit

npos = len(lines("positions.csv"))
nhist = len(lines("history.csv"))
case("unknown_factor", rf"positions\.csv:{npos + 1}: unknown factor 'NOPE'",
     append("positions.csv", "PX,BANK/D,spot,NOPE,,10,,,"))
case("negative_volatility", rf"positions\.csv:{npos + 1}: negative volatility -0\.2",
     append("positions.csv", "PX,BANK/D,call,F00003,F00000,1,100,1,-0.2"))
case("non_numeric", rf"positions\.csv:{npos + 1}: quantity 'ten' is not a number",
     append("positions.csv", "PX,BANK/D,spot,F00002,,ten,,,"))
case("missing_column_in_row", rf"positions\.csv:{npos + 1}: missing column 'rate_factor_id'",
     append("positions.csv", "PX,BANK/D,spot,F00002"))
case("history_unknown_factor", rf"history\.csv:{nhist + 1}: unknown factor 'ZZZ'",
     append("history.csv", "2015-01-05,ZZZ,1.0"))
case("bad_parameter", r"params\.csv:\d+: method 'monte' is not",
     append("params.csv", "method,monte"))
nparams = len(lines("params.csv"))
case("unknown_parameter", rf"params\.csv:{nparams + 1}: unknown parameter 'scenario'",
     append("params.csv", "scenario,500"))
first_id = lines("positions.csv")[1].split(",")[0]
case("duplicate_position_id", rf"positions\.csv:{npos + 1}: duplicate position_id '{first_id}'",
     append("positions.csv", f"{first_id},BANK/D,spot,F00002,,10,,,"))
case("zcb_with_two_factors",
     rf"positions\.csv:{npos + 1}: zcb factor_id 'F00001' differs from rate_factor_id 'F00000'",
     append("positions.csv", "PX,BANK/D,zcb,F00001,F00000,100,,1,"))
case("failed_run_leaves_no_earlier_results", rf"positions\.csv:{npos + 1}: unknown factor",
     append("positions.csv", "PX,BANK/D,spot,NOPE,,10,,,"), stale=True)

def header_edit(d):
    p = os.path.join(d, "positions.csv")
    rows = open(p).read().splitlines(keepends=True)
    rows[0] = rows[0].replace(",quantity", ",qty")
    open(p, "w").write("".join(rows))
case("missing_column_in_header", r"positions\.csv:1: missing column 'quantity'", header_edit)

def missing_level(d):
    p = os.path.join(d, "history.csv")
    rows = open(p).read().splitlines(keepends=True)
    del rows[30]
    open(p, "w").write("".join(rows))
case("history_gap", r"history\.csv: date \S+ has no level for factor 'F0000\d'", missing_level)

# Compressed history with 1000-byte blocks; damage member 5 and expect the line that
# block would have completed: the first line not wholly inside members 0..4.
plain = open(os.path.join(base, "history.csv"), "rb").read()
line_of_block = plain[:5 * 1000].count(b"\n") + 1

def compressed(damage, member=5):
    def edit(d):
        gz = os.path.join(d, "history.csv.gz")
        subprocess.run([f"{BIN}/tests/gio-write", os.path.join(d, "history.csv"), gz, "1000"],
                       check=True)
        data = bytearray(open(gz, "rb").read())
        off, size = members(bytes(data))[member]
        open(gz, "wb").write(damage(data, off, size))
        return "history.csv.gz"
    return edit

def flip(data, off, size):
    data[off + size // 2] ^= 0xFF
    return bytes(data)

case("corrupt_block", rf"history\.csv\.gz:{line_of_block}: corrupt compressed block", compressed(flip))
case("truncated_block", rf"history\.csv\.gz:{line_of_block}: truncated compressed block",
     compressed(lambda data, off, size: bytes(data[:off + size // 2])))
case("corrupt_first_block", r"history\.csv\.gz:1: corrupt compressed block",
     compressed(flip, member=0))

# Input checks of a risk manager (README, "Input checks").
hist_rows = lines("history.csv")

def history_line(factor, nth):
    """1-based line of the nth (0-based) history row of factor, and the row."""
    seen = -1
    for i, row in enumerate(hist_rows):
        if row.split(",")[1] == factor:
            seen += 1
            if seen == nth:
                return i + 1, row
    raise KeyError(factor)

def edit_history(changes):
    """changes: {line: new row text}"""
    def edit(d):
        p = os.path.join(d, "history.csv")
        rows = open(p).read().splitlines(keepends=True)
        for line, text in changes.items():
            rows[line - 1] = text + "\n"
        open(p, "w").write("".join(rows))
    return edit

case("calendar_invalid_date", rf"history\.csv:{nhist + 1}: as_of '2015-02-30' is not a calendar date",
     append("history.csv", "2015-02-30,F00001,1.0"))

def params_without(name):
    def edit(d):
        p = os.path.join(d, "params.csv")
        rows = [r for r in open(p).read().splitlines(keepends=True) if not r.startswith(name + ",")]
        open(p, "w").write("".join(rows))
    return edit
case("missing_base_currency", r"params\.csv: parameter base_currency is missing",
     params_without("base_currency"))
case("history_not_at_business_date", r"history\.csv: the history ends at \S+, not at the business_date 2030-01-02",
     lambda d: (params_without("business_date")(d), append("params.csv", "business_date,2030-01-02")(d)) and None)

def rate_in_percent(d):
    p = os.path.join(d, "factors.csv")
    rows = open(p).read().splitlines(keepends=True)
    f = rows[1].split(",")
    f[2] = "3"
    rows[1] = ",".join(f)
    open(p, "w").write("".join(rows))
def today_off(d):
    p = os.path.join(d, "factors.csv")
    rows = open(p).read().splitlines(keepends=True)
    f = rows[4].split(",")
    f[2] = repr(float(f[2]) * 1.5)
    rows[4] = ",".join(f)
    open(p, "w").write("".join(rows))
case("today_inconsistent_with_history", r"factors\.csv:5: factor 'F00003': today's level is .* away from the history's last level", today_off)
case("rate_in_percent", r"factors\.csv:2: factor 'F00000': rate above max_rate 0\.5.*value 3\)", rate_in_percent)

line, row = history_line("F00003", 30)
d_, f_, v_ = row.strip().split(",")
case("units_slip_in_history", rf"history\.csv:{line}: factor 'F00003': the move .* beyond max_move_sigmas 10",
     edit_history({line: f"{d_},{f_},{float(v_) * 100!r}"}))
first, row = history_line("F00004", 40)
stale_value = row.strip().split(",")[2]
changes = {}
for i in range(12):
    line, row = history_line("F00004", 40 + i)
    changes[line] = ",".join(row.strip().split(",")[:2] + [stale_value])
stale_line = history_line("F00004", 50)[0]
case("stale_series", rf"history\.csv:{stale_line}: factor 'F00004': unchanged for 10 days", edit_history(changes))

def add_currency_column(d, extra_rows):
    p = os.path.join(d, "positions.csv")
    rows = open(p).read().splitlines()
    rows = [rows[0] + ",currency"] + [r + "," for r in rows[1:]] + extra_rows
    open(p, "w").write("\n".join(rows) + "\n")
case("no_conversion_path", rf"positions\.csv: position 'PX': no conversion from CHF into the base currency USD",
     lambda d: add_currency_column(d, ["PX,BANK/D,cash,,,1000,,,,CHF"]))

def fx_factor(d):
    """EURUSD with the levels of F00003 / 100, and a EUR rate with those of F00000."""
    for name, src, kind, extra, scale in (("FXEURUSD", "F00003", "fx", "USD,EURUSD,", 0.01),
                                          ("REUR", "F00000", "rate", "EUR,,log", 1.0)):
        lvl = None
        with open(os.path.join(d, "history.csv"), "a") as h:
            for row in hist_rows[1:]:
                dd, ff, vv = row.strip().split(",")
                if ff == src:
                    lvl = float(vv) * scale
                    h.write(f"{dd},{name},{lvl!r}\n")
        with open(os.path.join(d, "factors.csv"), "a") as f:
            f.write(f"{name},{kind},{lvl!r},{extra}\n")
case("fx_option_without_foreign_rate",
     rf"positions\.csv:{npos + 1}: position 'PX': call on fx factor 'FXEURUSD' needs foreign_rate_factor_id \(a EUR rate\)",
     lambda d: (fx_factor(d), append("positions.csv", "PX,BANK/D,call,FXEURUSD,F00000,1000,1.1,1,0.1")(d)) and None)
case("inconsistent_currency", rf"positions\.csv: .*position 'PX': currency EUR disagrees with the instrument's currency USD|positions\.csv:\d+: position 'PX': currency EUR disagrees",
     lambda d: add_currency_column(d, ["PX,BANK/D,spot,F00003,,10,,,,EUR"]))
case("node_outside_the_top", rf"positions\.csv:{npos + 1}: position 'PX': node 'OTHER/D' is not under the top node 'BANK'",
     append("positions.csv", "PX,OTHER/D,spot,F00003,,10,,,"))

# on_bad_data=report: the same units slip runs on and is listed in data_quality.csv.
d = os.path.join(WORK, "report_mode")
shutil.copytree(base, d)
line, row = history_line("F00003", 30)
edit_history({line: f"{d_},{f_},{float(v_) * 100!r}"})(d)
append("params.csv", "on_bad_data,report")(d)
out = os.path.join(d, "out")
p = subprocess.run(["mpirun", "--oversubscribe", "-np", "2", f"{BIN}/mcvar", "--factors", f"{d}/factors.csv",
                    "--history", f"{d}/history.csv", "--positions", f"{d}/positions.csv",
                    "--params", f"{d}/params.csv", "--out-dir", out], capture_output=True, text=True)
dq = open(os.path.join(out, "data_quality.csv")).read().splitlines() if p.returncode == 0 else []
ok = len(dq) >= 2 and dq[0] == "run_id,business_date,file,line,factor_id,check,value,action" and \
    any(f",{line},F00003,max_move_sigmas," in r and r.endswith(",reported") for r in dq[1:])
print(f"report_mode: {'ok' if ok else 'FAIL'}: {dq[1:3] if dq else p.stderr[-300:]}")
failures += not ok
sys.exit(1 if failures else 0)

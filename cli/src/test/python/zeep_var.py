"""The risk view's VaR operations (getVarSummary, getVarHistory,
getVarBacktest, getVarBacktestExceptions, getVarExplain, getVarLimits) through zeep, a SOAP stack
Gantry did not write, built from the checked-in WSDL contract as a Python user would build it.

Run by VarCommandTest against the server it shares (three VaR runs, results only alice may read):
alice gets every figure with its fields typed as the WSDL says, bob gets none, and a malformed date
is a Client fault naming the argument. Exits 0 when every check passed.
"""

import argparse
import datetime
import decimal
import sys

import requests
from zeep import Client
from zeep.exceptions import Fault
from zeep.transports import Transport


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def client(args, user, password):
    session = requests.Session()
    session.trust_env = False  # no proxy or CA bundle from the environment
    session.verify = args.cafile
    session.auth = (user.encode("utf-8"), password.encode("utf-8"))
    service = Client(args.wsdl, transport=Transport(session=session, timeout=30)).create_service(
        "{urn:gantry:jobmanagement:1}JobManagementServiceSoapBinding", args.url)
    return service


def checks(args, alice, bob):
    figures = alice.getVarSummary(businessDate=args.eve, node="BANK")
    check(len(figures) == 4, f"BANK and the node below it, two runs: {figures}")
    first = next(f for f in figures if f.runId == "run-a" and f.node == "BANK")
    check(first.var == 100.0 and first.expectedShortfall == 125.0, f"figures {first}")
    check(first.confidence == decimal.Decimal("0.99"), f"confidence {first.confidence!r}")
    check(first.supersededBy == "run-b", f"superseded by {first.supersededBy}")
    check(isinstance(first.stagedOutAt, datetime.datetime), f"stagedOutAt {first.stagedOutAt!r}")
    check(first.dataSource == "desk-results", f"data source {first.dataSource}")
    history = alice.getVarHistory(node="BANK", **{"from": args.eve, "to": args.day})
    check(sorted(f.runId for f in history) == ["run-a", "run-b", "run-c"], f"history {history}")
    check(not bob.getVarSummary(businessDate=args.eve), "bob may not use the results source")
    backtests = alice.getVarBacktest(node="BANK")
    check(sorted((b.runId, b.zone, b.supersededBy) for b in backtests)
          == [("bt-1", "green", "bt-2"), ("bt-2", "yellow", None)], f"backtests {backtests}")
    check(not bob.getVarBacktest(node="BANK"), "bob may not use the results source")
    explains = alice.getVarExplain(node="BANK", top=3, **{"from": args.eve, "to": args.day})
    check(len(explains) == 1, f"one explain of BANK: {explains}")
    explain = explains[0]
    check((explain.fromRunId, explain.toRunId) == ("run-b", "run-c"), f"runs {explain}")
    names = [c.name for c in explain.component]
    check(names[0] == "new positions" and names[-1] == "residual/interaction", f"names {names}")
    total = sum(c.amount for c in explain.component)
    check(abs(total - (explain.toVar - explain.fromVar)) < 1e-9, f"components sum to {total}")
    check(len(explain.position) == 3, f"top 3 positions {explain.position}")
    check(all(isinstance(p.change, float) for p in explain.position), "changes are doubles")
    check(not bob.getVarExplain(node="BANK", **{"from": args.eve, "to": args.day}),
          "bob may not use the results source")
    breaches = alice.getVarLimits(businessDate=args.day, breachesOnly=True)
    check([(b.node, b.breached) for b in breaches] == [("BANK", True)], f"breaches {breaches}")
    check(abs(breaches[0].usagePercent - 120.0) < 1e-9, f"usage {breaches[0].usagePercent}")
    limited = alice.getVarLimits(businessDate=args.day, node="BANK/GANTRY-EU", breachesOnly=False)
    check([(b.node, b.breached) for b in limited] == [("BANK/GANTRY-EU", False)], f"{limited}")
    day = alice.getVarSummary(businessDate=args.day, node="BANK")
    check(sorted((f.node, f.varLimit) for f in day if f.supersededBy is None)
          == [("BANK", 250.0), ("BANK/GANTRY-EU", 200.0)], f"summary limits {day}")
    exceptions = alice.getVarBacktestExceptions(node="BANK")
    check(sorted((e.runId, e.supersededBy, e.varDate, e.pnlDate, e.var, e.pnl) for e in exceptions)
          == [("bt-1", "bt-2", args.eve, args.day, 100.0, -150.0),
              ("bt-2", None, args.eve, args.day, 100.0, -150.0)], f"exceptions {exceptions}")
    check(not bob.getVarBacktestExceptions(node="BANK"), "bob may not use the results source")
    try:
        alice.getVarSummary(businessDate="yesterday")
        raise AssertionError("no fault for a malformed date")
    except Fault as fault:
        check(fault.code.endswith("Client"), f"fault code {fault.code}")
        check("argument businessDate" in fault.message, f"fault {fault.message!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wsdl", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--eve", required=True)
    parser.add_argument("--day", required=True)
    args = parser.parse_args()
    # the passwords come on standard input, never in the process arguments
    alice_password = sys.stdin.readline().rstrip("\n")
    bob_password = sys.stdin.readline().rstrip("\n")
    try:
        checks(args, client(args, "alice", alice_password), client(args, "bob", bob_password))
    except AssertionError as failed:
        print(f"zeep var: FAILED: {failed}", file=sys.stderr)
        return 1
    print("zeep var: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

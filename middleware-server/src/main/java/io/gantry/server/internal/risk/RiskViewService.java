package io.gantry.server.internal.risk;

import io.gantry.server.api.BacktestExceptionInfo;
import io.gantry.server.api.BacktestInfo;
import io.gantry.server.api.VarExplainInfo;
import io.gantry.server.api.VarFigureInfo;
import io.gantry.server.api.VarLimitInfo;
import io.gantry.server.api.VarPnlInfo;
import io.gantry.server.api.VarPositionInfo;
import io.gantry.server.internal.service.Caller;
import io.gantry.server.internal.service.InvalidArgumentException;
import jakarta.xml.ws.WebServiceException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * The morning risk view's operations for the SOAP API and the command line ({@code gantry var}):
 * each asks {@link RiskResults} for the calling user, so a user sees only the results data sources
 * they may use (docs/risk-view.md, "Results history"), and answers its figures as API types.
 */
public final class RiskViewService {
  private final RiskResults results;

  /**
   * @param results the reader, or null when this server reads no results data sources
   */
  public RiskViewService(RiskResults results) {
    this.results = results;
  }

  /**
   * Every figure of {@code date} for {@code node} and the nodes below it (every node if null), each
   * with the limit in force on that date and its usage where the node has one.
   */
  public List<VarFigureInfo> summary(Caller caller, String date, String node) {
    LocalDate day = date("businessDate", date);
    String under = node == null || node.isBlank() ? null : node;
    List<VarFigure> figures = asked("node", () -> reader().summary(caller.name(), day, under));
    List<VarLimit> limits =
        figures.isEmpty()
            ? List.of()
            : asked("businessDate", () -> reader().limits(caller.name(), day));
    return figures.stream()
        .map(
            f -> {
              VarFigureInfo i = info(f);
              limits.stream()
                  .filter(l -> l.appliesTo(f))
                  .findFirst()
                  .ifPresent(
                      l -> {
                        i.varLimit = l.limit();
                        i.limitUsagePercent = l.usagePercent(f);
                      });
              return i;
            })
        .toList();
  }

  /**
   * Why the VaR of {@code node} alone changed from business date {@code from} to {@code to}
   * (docs/risk-view.md, "Explain"), listing the {@code top} positions and factors that moved it
   * most (10 when null): one explain per data source, confidence level and method with a current
   * figure on both dates. The service method the SOAP operation and the browser call.
   */
  public List<VarExplainInfo> explain(
      Caller caller, String node, String from, String to, Integer top) {
    LocalDate first = date("from", from);
    LocalDate second = date("to", to);
    int count = top == null ? 10 : top;
    String argument =
        !first.isBefore(second) ? "to" : count < 1 || count > RiskResults.MAX_TOP ? "top" : "node";
    return asked(argument, () -> reader().explain(caller.name(), node, first, second, count))
        .stream()
        .map(RiskViewService::info)
        .toList();
  }

  /**
   * The current figures of {@code date} for {@code node} and the nodes below it (every node when
   * null) that have a VaR limit in force (docs/risk-view.md, "Limits"), with their usage; only the
   * breaches when {@code breachesOnly}.
   */
  public List<VarLimitInfo> limits(Caller caller, String date, String node, boolean breachesOnly) {
    LocalDate day = date("businessDate", date);
    String under = node == null || node.isBlank() ? null : node;
    return asked("node", () -> reader().limitUsage(caller.name(), day, under)).stream()
        .filter(u -> !breachesOnly || u.breached())
        .map(RiskViewService::info)
        .toList();
  }

  /** Every figure of {@code node} alone on business dates {@code from} to {@code to} inclusive. */
  public List<VarFigureInfo> history(Caller caller, String node, String from, String to) {
    LocalDate first = date("from", from);
    LocalDate last = date("to", to);
    // RiskResults checks the node and the span; its message says which is wrong
    boolean span =
        first.isAfter(last)
            || java.time.temporal.ChronoUnit.DAYS.between(first, last)
                > RiskResults.MAX_HISTORY_DAYS;
    return asked(span ? "to" : "node", () -> reader().history(caller.name(), node, first, last))
        .stream()
        .map(RiskViewService::info)
        .toList();
  }

  /** The backtests of {@code node} on {@code date}, or on the latest date when it is absent. */
  public List<BacktestInfo> backtest(Caller caller, String node, String date) {
    LocalDate day = date == null || date.isBlank() ? null : date("businessDate", date);
    return asked("node", () -> reader().backtest(caller.name(), node, day)).stream()
        .map(RiskViewService::info)
        .toList();
  }

  /** The exceptions of the backtests {@link #backtest} answers for the same question. */
  public List<BacktestExceptionInfo> backtestExceptions(Caller caller, String node, String date) {
    LocalDate day = date == null || date.isBlank() ? null : date("businessDate", date);
    return asked("node", () -> reader().backtestExceptions(caller.name(), node, day)).stream()
        .map(RiskViewService::info)
        .toList();
  }

  private RiskResults reader() {
    if (results == null) {
      throw new WebServiceException(
          "this server reads no VaR results (risk.results-data-sources is empty)");
    }
    return results;
  }

  private interface Asked<T> {
    List<T> ask();
  }

  /** The answer of {@code question}, its failures as the SOAP faults of the other operations. */
  private static <T> List<T> asked(String argument, Asked<T> question) {
    try {
      return question.ask();
    } catch (RiskResultsException e) {
      throw new WebServiceException(e.getMessage()); // names the data source, not its secrets
    } catch (InvalidArgumentException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(argument, e.getMessage());
    }
  }

  private static VarExplainInfo info(VarExplain e) {
    VarExplainInfo i = new VarExplainInfo();
    i.dataSource = e.to().dataSource();
    i.node = e.to().node();
    i.confidence = e.to().confidence();
    i.method = e.to().method();
    i.fromDate = e.from().businessDate().toString();
    i.toDate = e.to().businessDate().toString();
    i.fromRunId = e.from().run().runId();
    i.toRunId = e.to().run().runId();
    i.fromVar = e.from().var();
    i.toVar = e.to().var();
    i.change = e.change();
    for (VarExplain.ComponentAmount c : e.components()) {
      VarExplainInfo.Component ci = new VarExplainInfo.Component();
      ci.name = c.component().label();
      ci.amount = c.amount();
      ci.positions = c.positions();
      i.component.add(ci);
    }
    for (VarExplain.PositionChange p : e.topPositions()) {
      VarExplainInfo.Position pi = new VarExplainInfo.Position();
      pi.positionId = p.positionId();
      pi.status = p.status();
      pi.factor = p.factor();
      pi.fromContribution = p.fromContribution();
      pi.toContribution = p.toContribution();
      pi.quantityEffect = p.quantityEffect();
      pi.marketEffect = p.marketEffect();
      pi.change = p.change();
      i.position.add(pi);
    }
    for (VarExplain.FactorChange f : e.topFactors()) {
      VarExplainInfo.Factor fi = new VarExplainInfo.Factor();
      fi.factor = f.factor();
      fi.change = f.change();
      fi.positions = f.positions();
      i.factor.add(fi);
    }
    return i;
  }

  private static VarLimitInfo info(LimitUsage u) {
    VarLimitInfo i = new VarLimitInfo();
    i.dataSource = u.figure().dataSource();
    i.businessDate = u.figure().businessDate().toString();
    i.node = u.figure().node();
    i.confidence = u.figure().confidence();
    i.method = u.figure().method();
    i.var = u.figure().var();
    i.varLimit = u.limit().limit();
    i.usagePercent = u.usagePercent();
    i.breached = u.breached();
    i.limitValidFrom = u.limit().validFrom().toString();
    i.runId = u.figure().run().runId();
    return i;
  }

  private static LocalDate date(String argument, String text) {
    if (text == null || text.isBlank()) {
      throw new InvalidArgumentException(argument, "a business date (YYYY-MM-DD) is required");
    }
    try {
      return LocalDate.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new InvalidArgumentException(
          argument, "'" + cut(text) + "' is not a business date (YYYY-MM-DD)");
    }
  }

  private static String cut(String text) {
    return text.substring(0, Math.min(text.length(), 40)).replaceAll("\\p{Cntrl}", "?");
  }

  private static VarFigureInfo info(VarFigure f) {
    VarFigureInfo i = new VarFigureInfo();
    i.dataSource = f.dataSource();
    i.businessDate = f.businessDate().toString();
    i.node = f.node();
    i.confidence = f.confidence();
    i.method = f.method();
    i.var = f.var();
    i.expectedShortfall = f.expectedShortfall();
    i.varStderr = f.varStderr();
    i.esStderr = f.esStderr();
    i.runId = f.run().runId();
    i.horizonDays = f.run().horizonDays();
    i.scenarios = f.run().scenarios();
    i.stagedOutAt = f.run().stagedOutAt();
    i.supersededBy = f.supersededBy();
    return i;
  }

  private static BacktestExceptionInfo info(BacktestExceptionDay d) {
    BacktestExceptionInfo i = new BacktestExceptionInfo();
    i.dataSource = d.dataSource();
    i.runId = d.runId();
    i.businessDate = d.businessDate().toString();
    i.node = d.node();
    i.confidence = d.confidence();
    i.pnlType = d.pnlType();
    i.varDate = d.varDate().toString();
    i.pnlDate = d.pnlDate().toString();
    i.var = d.var();
    i.pnl = d.pnl();
    i.supersededBy = d.supersededBy();
    return i;
  }

  private static BacktestInfo info(BacktestFigure f) {
    BacktestInfo i = new BacktestInfo();
    i.dataSource = f.dataSource();
    i.runId = f.runId();
    i.businessDate = f.businessDate().toString();
    i.node = f.node();
    i.confidence = f.confidence();
    i.pnlType = f.pnlType();
    i.windowDays = f.windowDays();
    i.observations = f.observations();
    i.exceptions = f.exceptions();
    i.expectedExceptions = f.expectedExceptions();
    i.zone = f.zone();
    i.kupiecPValue = f.kupiecPValue();
    i.independencePValue = f.independencePValue();
    i.conditionalCoveragePValue = f.conditionalCoveragePValue();
    i.firstDate = f.firstDate() == null ? null : f.firstDate().toString();
    i.lastDate = f.lastDate() == null ? null : f.lastDate().toString();
    i.stagedOutAt = f.stagedOutAt();
    i.supersededBy = f.supersededBy();
    return i;
  }

  /** The daily P&L of {@code node} on business dates {@code from} to {@code to} inclusive. */
  public List<VarPnlInfo> pnl(Caller caller, String node, String from, String to) {
    LocalDate first = date("from", from);
    LocalDate last = date("to", to);
    return asked(
            first.isAfter(last) ? "to" : "node",
            () -> reader().pnl(caller.name(), node, first, last))
        .stream()
        .map(RiskViewService::info)
        .toList();
  }

  /** The positions' contributions to {@code node} in run {@code runId} of {@code dataSource}. */
  public List<VarPositionInfo> positions(
      Caller caller, String dataSource, String runId, String node) {
    return asked("node", () -> reader().positions(caller.name(), dataSource, runId, node)).stream()
        .map(RiskViewService::info)
        .toList();
  }

  private static VarPnlInfo info(NodePnl p) {
    VarPnlInfo i = new VarPnlInfo();
    i.dataSource = p.dataSource();
    i.businessDate = p.businessDate().toString();
    i.node = p.node();
    i.pnl = p.pnl();
    return i;
  }

  private static VarPositionInfo info(PositionContributionRow p) {
    VarPositionInfo i = new VarPositionInfo();
    i.dataSource = p.dataSource();
    i.runId = p.runId();
    i.node = p.node();
    i.positionId = p.positionId();
    i.confidence = p.confidence();
    i.varContribution = p.varContribution();
    i.esContribution = p.esContribution();
    i.marginalVar = p.marginalVar();
    return i;
  }
}

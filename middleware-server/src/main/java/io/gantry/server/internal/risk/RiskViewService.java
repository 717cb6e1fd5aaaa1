package io.gantry.server.internal.risk;

import io.gantry.server.api.BacktestExceptionInfo;
import io.gantry.server.api.BacktestInfo;
import io.gantry.server.api.VarFigureInfo;
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

  /** Every figure of {@code date} for {@code node} and the nodes below it (every node if null). */
  public List<VarFigureInfo> summary(Caller caller, String date, String node) {
    LocalDate day = date("businessDate", date);
    String under = node == null || node.isBlank() ? null : node;
    return answer("node", () -> reader().summary(caller.name(), day, under));
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
    return answer(span ? "to" : "node", () -> reader().history(caller.name(), node, first, last));
  }

  /** The backtests of {@code node} on {@code date}, or on the latest date when it is absent. */
  public List<BacktestInfo> backtest(Caller caller, String node, String date) {
    LocalDate day = date == null || date.isBlank() ? null : date("businessDate", date);
    try {
      return reader().backtest(caller.name(), node, day).stream()
          .map(RiskViewService::info)
          .toList();
    } catch (RiskResultsException e) {
      throw new WebServiceException(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("node", e.getMessage());
    }
  }

  /** The exceptions of the backtests {@link #backtest} answers for the same question. */
  public List<BacktestExceptionInfo> backtestExceptions(Caller caller, String node, String date) {
    LocalDate day = date == null || date.isBlank() ? null : date("businessDate", date);
    try {
      return reader().backtestExceptions(caller.name(), node, day).stream()
          .map(RiskViewService::info)
          .toList();
    } catch (RiskResultsException e) {
      throw new WebServiceException(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("node", e.getMessage());
    }
  }

  private RiskResults reader() {
    if (results == null) {
      throw new WebServiceException(
          "this server reads no VaR results (risk.results-data-sources is empty)");
    }
    return results;
  }

  private interface Question {
    List<VarFigure> ask();
  }

  private static List<VarFigureInfo> answer(String argument, Question question) {
    try {
      return question.ask().stream().map(RiskViewService::info).toList();
    } catch (RiskResultsException e) {
      throw new WebServiceException(e.getMessage()); // names the data source, not its secrets
    } catch (InvalidArgumentException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(argument, e.getMessage());
    }
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
}

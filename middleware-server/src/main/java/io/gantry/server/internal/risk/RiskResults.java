package io.gantry.server.internal.risk;

import io.gantry.server.config.NamedDataSource;
import io.gantry.server.internal.risk.tables.BacktestSupersession;
import io.gantry.server.internal.risk.tables.BacktestTables;
import io.gantry.server.internal.risk.tables.ContributionTables;
import io.gantry.server.internal.risk.tables.LimitTables;
import io.gantry.server.internal.risk.tables.PnlTables;
import io.gantry.server.internal.risk.tables.ResultTables;
import io.gantry.server.internal.risk.tables.Supersession;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The history of VaR results (docs/risk-view.md, "Results history"), read from the results data
 * sources the server is configured with ({@code risk.results-data-sources}), never from job
 * directories. Each question is asked for a user, and reads only the data sources that user may use
 * ({@code datasource.NAME.allowed-users}): what a user sees is what their own jobs could have read.
 */
public final class RiskResults {
  /** The longest span of business dates one history question may cover. */
  public static final long MAX_HISTORY_DAYS = 20 * 366;

  private static final int MAX_NODE_LENGTH = 200; // hierarchy_node.node

  private final Map<String, NamedDataSource> sources;

  /**
   * @param dataSources every named data source the server has
   * @param resultSources the names of those that hold results, in the order answers list them
   * @throws IllegalArgumentException naming a result source that is not a data source
   */
  public RiskResults(Map<String, NamedDataSource> dataSources, List<String> resultSources) {
    Map<String, NamedDataSource> chosen = new LinkedHashMap<>();
    for (String name : resultSources) {
      NamedDataSource source = dataSources.get(name);
      if (source == null) {
        throw new IllegalArgumentException(
            "results data source '"
                + name
                + "' is not a configured data source (datasource.NAME.*)");
      }
      chosen.put(name, source);
    }
    this.sources = chosen;
  }

  /** The results data sources {@code user} may read, in configured order. */
  public List<String> sourcesFor(String user) {
    return sources.values().stream()
        .filter(s -> s.allows(user))
        .map(NamedDataSource::name)
        .toList();
  }

  /**
   * Every figure of {@code date} for {@code node} and the nodes below it (every node when null),
   * from every run, the superseded ones marked.
   */
  public List<VarFigure> summary(String user, LocalDate date, String node) {
    if (date == null) {
      throw new IllegalArgumentException("a business date is required");
    }
    return read(user, date, date, node == null ? null : checkedNode(node));
  }

  /**
   * Every figure of {@code node} (that node alone, not the nodes below it) on business dates {@code
   * from} to {@code to} inclusive, from every run, the superseded ones marked.
   */
  public List<VarFigure> history(String user, String node, LocalDate from, LocalDate to) {
    String checked = checkedNode(node);
    if (from == null || to == null) {
      throw new IllegalArgumentException("a history needs a first and a last business date");
    }
    if (from.isAfter(to)) {
      throw new IllegalArgumentException(
          "the first business date " + from + " is after the last " + to);
    }
    if (ChronoUnit.DAYS.between(from, to) > MAX_HISTORY_DAYS) {
      throw new IllegalArgumentException(
          "a history covers at most "
              + MAX_HISTORY_DAYS
              + " days; "
              + from
              + " to "
              + to
              + " is more");
    }
    return read(user, from, to, checked).stream().filter(f -> f.node().equals(checked)).toList();
  }

  /**
   * The backtests of {@code node} alone (docs/risk-view.md, "Backtesting") on business date {@code
   * date}, or, when null, on the latest date each readable data source has for it; every run, the
   * superseded ones marked by the rule of the figures (the backtest staged out last is current).
   */
  public List<BacktestFigure> backtest(String user, String node, LocalDate date) {
    String checked = checkedNode(node);
    List<BacktestFigure> figures = new ArrayList<>();
    for (NamedDataSource source : sources.values()) {
      if (!source.allows(user)) {
        continue;
      }
      try {
        figures.addAll(new BacktestTables(source).read(checked, date));
      } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
        throw new RiskResultsException(
            "cannot read backtests from data source '" + source.name() + "': " + e.getMessage(), e);
      }
    }
    return BacktestSupersession.mark(figures);
  }

  /** The most positions and factors an explain lists. */
  public static final int MAX_TOP = 1000;

  /**
   * Why the VaR of {@code node} alone changed from business date {@code from} to {@code to}
   * (docs/risk-view.md, "Explain"): one explain for each data source, confidence level and method
   * that has a current figure of the node on both dates, listing the {@code top} positions and
   * factors that moved it most.
   *
   * @throws IllegalArgumentException where a run stored no position contributions for the node
   */
  public List<VarExplain> explain(String user, String node, LocalDate from, LocalDate to, int top) {
    String checked = checkedNode(node);
    if (from == null || to == null) {
      throw new IllegalArgumentException("an explain needs a first and a second business date");
    }
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException(
          "the first business date " + from + " is not before the second " + to);
    }
    if (top < 1 || top > MAX_TOP) {
      throw new IllegalArgumentException(
          "top is " + top + "; an explain lists 1 to " + MAX_TOP + " positions");
    }
    Map<String, VarFigure> before = new LinkedHashMap<>();
    for (VarFigure f : current(history(user, checked, from, from))) {
      before.put(explainKey(f), f);
    }
    List<VarExplain> explains = new ArrayList<>();
    for (VarFigure after : current(history(user, checked, to, to))) {
      VarFigure earlier = before.get(explainKey(after));
      if (earlier != null) {
        explains.add(
            VarExplainer.explain(
                earlier, contributions(earlier), after, contributions(after), top));
      }
    }
    return explains;
  }

  /**
   * The current figures of {@code date} for {@code node} and the nodes below it (every node when
   * null) that have a limit in force on that date, with the limit.
   */
  public List<LimitUsage> limitUsage(String user, LocalDate date, String node) {
    List<VarLimit> limits = limits(user, date);
    List<LimitUsage> usage = new ArrayList<>();
    for (VarFigure f : current(summary(user, date, node))) {
      limitOf(f, limits).ifPresent(usage::add);
    }
    return usage;
  }

  /**
   * The figures run {@code runId} (a VaR job's id) wrote into data source {@code dataSource} that
   * are current and have a limit in force on their business date, with the limit; none when {@code
   * user} may not use that data source or it is not a results data source.
   *
   * @throws RiskResultsException naming the data source when it cannot be read
   */
  public List<LimitUsage> runLimitUsage(String user, String dataSource, String runId) {
    NamedDataSource source = sources.get(dataSource);
    if (source == null || !source.allows(user)) {
      return List.of();
    }
    List<LimitUsage> usage = new ArrayList<>();
    try {
      ResultTables figures = new ResultTables(source);
      for (LocalDate date : figures.runDates(runId)) {
        List<VarLimit> limits = new LimitTables(source).inForce(date);
        for (VarFigure f : current(Supersession.mark(figures.read(date, date, null)))) {
          if (f.run().runId().equals(runId)) {
            limitOf(f, limits).ifPresent(usage::add);
          }
        }
      }
    } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
      throw new RiskResultsException(
          "cannot read the VaR figures and limits of run "
              + runId
              + " from data source '"
              + dataSource
              + "': "
              + e.getMessage(),
          e);
    }
    return usage;
  }

  /** Figure {@code f} with the first of {@code limits} that applies to it, if any. */
  private static Optional<LimitUsage> limitOf(VarFigure f, List<VarLimit> limits) {
    return limits.stream().filter(l -> l.appliesTo(f)).findFirst().map(l -> new LimitUsage(f, l));
  }

  /** The VaR limits in force on {@code date} in the data sources {@code user} may use. */
  public List<VarLimit> limits(String user, LocalDate date) {
    if (date == null) {
      throw new IllegalArgumentException("a business date is required");
    }
    List<VarLimit> limits = new ArrayList<>();
    for (NamedDataSource source : sources.values()) {
      if (!source.allows(user)) {
        continue;
      }
      try {
        limits.addAll(new LimitTables(source).inForce(date));
      } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
        throw new RiskResultsException(
            "cannot read VaR limits from data source '" + source.name() + "': " + e.getMessage(),
            e);
      }
    }
    return limits;
  }

  private Map<String, PositionContribution> contributions(VarFigure f) {
    Map<String, PositionContribution> read;
    try {
      read =
          new ContributionTables(sources.get(f.dataSource()))
              .read(f.run().runId(), f.businessDate(), f.node(), f.confidence());
    } catch (SQLException | IllegalStateException e) {
      throw new RiskResultsException(
          "cannot read position contributions from data source '"
              + f.dataSource()
              + "': "
              + e.getMessage(),
          e);
    }
    if (read.isEmpty()) {
      throw new IllegalArgumentException(
          "run "
              + f.run().runId()
              + " of "
              + f.businessDate()
              + " stored no position contributions to node "
              + f.node()
              + " at "
              + f.confidence().stripTrailingZeros().toPlainString()
              + " in data source '"
              + f.dataSource()
              + "' (mcvar stores them for a run's top node and each position's own node): explain"
              + " the run's top node or a desk");
    }
    return read;
  }

  private static List<VarFigure> current(List<VarFigure> figures) {
    return figures.stream().filter(VarFigure::current).toList();
  }

  private static String explainKey(VarFigure f) {
    return f.dataSource()
        + "\n"
        + f.node()
        + "\n"
        + f.confidence().stripTrailingZeros()
        + "\n"
        + f.method();
  }

  /**
   * The exceptions of the backtests {@link #backtest} answers for the same question: the days on
   * which the P&amp;L exceeded the VaR, each marked as its backtest is (superseded ones naming the
   * current backtest's run id).
   */
  public List<BacktestExceptionDay> backtestExceptions(String user, String node, LocalDate date) {
    String checked = checkedNode(node);
    Map<List<Object>, String> supersededBy = new java.util.HashMap<>();
    for (BacktestFigure f : backtest(user, checked, date)) {
      supersededBy.put(
          exceptionKey(f.dataSource(), f.runId(), f.confidence(), f.pnlType()),
          f.supersededBy() == null ? "" : f.supersededBy());
    }
    List<BacktestExceptionDay> days = new ArrayList<>();
    for (NamedDataSource source : sources.values()) {
      if (!source.allows(user)) {
        continue;
      }
      try {
        for (BacktestExceptionDay d : new BacktestTables(source).exceptions(checked, date)) {
          String by =
              supersededBy.get(
                  exceptionKey(d.dataSource(), d.runId(), d.confidence(), d.pnlType()));
          days.add(
              new BacktestExceptionDay(
                  d.dataSource(),
                  d.runId(),
                  d.businessDate(),
                  d.node(),
                  d.confidence(),
                  d.pnlType(),
                  d.varDate(),
                  d.pnlDate(),
                  d.var(),
                  d.pnl(),
                  by == null || by.isEmpty() ? null : by));
        }
      } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
        throw new RiskResultsException(
            "cannot read backtest exceptions from data source '"
                + source.name()
                + "': "
                + e.getMessage(),
            e);
      }
    }
    return days;
  }

  /** A backtest's key as its summary and its exceptions both carry it. */
  private static List<Object> exceptionKey(
      String dataSource, String runId, java.math.BigDecimal confidence, String pnlType) {
    return List.of(dataSource, runId, confidence.stripTrailingZeros(), pnlType);
  }

  private List<VarFigure> read(String user, LocalDate from, LocalDate to, String node) {
    List<VarFigure> figures = new ArrayList<>();
    for (NamedDataSource source : sources.values()) {
      if (!source.allows(user)) {
        continue;
      }
      try {
        figures.addAll(new ResultTables(source).read(from, to, node));
      } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
        throw new RiskResultsException(
            "cannot read VaR results from data source '" + source.name() + "': " + e.getMessage(),
            e);
      }
    }
    return Supersession.mark(figures);
  }

  /**
   * The daily hypothetical P&L of {@code node} (its desks' summed) on business dates {@code from}
   * to {@code to}, from every readable data source that holds P&L: what the dashboard plots against
   * the VaR (docs/risk-view.md, "The dashboard").
   */
  public List<NodePnl> pnl(String user, String node, LocalDate from, LocalDate to) {
    String checked = checkedSpan(node, from, to);
    List<NodePnl> days = new ArrayList<>();
    for (NamedDataSource source : sources.values()) {
      if (!source.allows(user)) {
        continue;
      }
      try {
        days.addAll(new PnlTables(source).read(checked, from, to));
      } catch (SQLException | IllegalStateException e) { // IllegalStateException: password source
        throw new RiskResultsException(
            "cannot read P&L from data source '" + source.name() + "': " + e.getMessage(), e);
      }
    }
    return days;
  }

  /** The most position contributions one question answers. */
  public static final int MAX_POSITIONS = 1000;

  /**
   * The positions' contributions to {@code node}'s VaR and ES in run {@code runId} of data source
   * {@code dataSource}, largest first; empty when {@code user} may not read that data source (as
   * for one that is not a results data source: nothing says which exist).
   */
  public List<PositionContributionRow> positions(
      String user, String dataSource, String runId, String node) {
    String checked = checkedNode(node);
    if (runId == null || runId.isBlank() || runId.length() > 64) {
      throw new IllegalArgumentException("a run id (at most 64 characters) is required");
    }
    NamedDataSource source = sources.get(dataSource);
    if (source == null || !source.allows(user)) {
      return List.of();
    }
    try {
      return new ContributionTables(source).rows(runId, checked, MAX_POSITIONS);
    } catch (SQLException | IllegalStateException e) {
      throw new RiskResultsException(
          "cannot read contributions from data source '" + source.name() + "': " + e.getMessage(),
          e);
    }
  }

  private static String checkedSpan(String node, LocalDate from, LocalDate to) {
    String checked = checkedNode(node);
    if (from == null || to == null) {
      throw new IllegalArgumentException("a history needs a first and a last business date");
    }
    if (from.isAfter(to)) {
      throw new IllegalArgumentException(
          "the first business date " + from + " is after the last " + to);
    }
    if (ChronoUnit.DAYS.between(from, to) > MAX_HISTORY_DAYS) {
      throw new IllegalArgumentException(
          "a history covers at most "
              + MAX_HISTORY_DAYS
              + " days; "
              + from
              + " to "
              + to
              + " is more");
    }
    return checked;
  }

  private static String checkedNode(String node) {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("a node is required (a path such as BANK/GANTRY-EU)");
    }
    if (node.length() > MAX_NODE_LENGTH || node.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          "'"
              + node.substring(0, Math.min(node.length(), 40)).replaceAll("\\p{Cntrl}", "?")
              + "' is not a node path (at most "
              + MAX_NODE_LENGTH
              + " characters, no control characters)");
    }
    return node;
  }
}

package io.gantry.web;

import io.gantry.server.api.JobManagementService;
import io.gantry.server.api.VarExplainInfo;
import io.gantry.server.api.VarFigureInfo;
import io.gantry.server.api.VarPnlInfo;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.time.LocalDate;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The morning risk view in the browser (docs/risk-view.md, "The dashboard"):
 *
 * <ul>
 *   <li>{@code /risk?date=D}: every node the user may see on business date D, with the change
 *       against the business date before, the Monte Carlo error, the limit usage and the traffic
 *       light;
 *   <li>{@code /risk/node?node=N&date=D&range=1y}: one node's VaR and ES against its daily P&L with
 *       the exceptions marked, the nodes below it, the positions' contributions, and why its VaR
 *       changed since the business date before (the explain);
 *   <li>{@code /risk/compare?date=D1&other=D2}: two dates side by side.
 * </ul>
 *
 * Every table is also a CSV download: the same address with {@code format=csv&table=ID}. The
 * figures come from the job-management service acting for the signed-in user, as the SOAP API
 * answers them.
 */
final class RiskServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** The time series' ranges, as the page offers them. */
  static final Map<String, Period> RANGES = ranges();

  /** How many positions the explain lists (gantry var explain's default). */
  static final int EXPLAIN_POSITIONS = 10;

  private final transient JobManagementService service;

  RiskServlet(JobManagementService service) {
    this.service = service;
  }

  private static Map<String, Period> ranges() {
    Map<String, Period> r = new LinkedHashMap<>();
    r.put("1m", Period.ofMonths(1));
    r.put("3m", Period.ofMonths(3));
    r.put("6m", Period.ofMonths(6));
    r.put("1y", Period.ofYears(1));
    r.put("2y", Period.ofYears(2));
    return r;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    RiskFigures figures = new RiskFigures(Pages.jobsOf(service, request));
    LocalDate date;
    try {
      date = date(request, "date", null);
      if (date == null) { // today in the server's zone, or the latest date of the two weeks before
        LocalDate today = LocalDate.now(java.time.ZoneId.systemDefault());
        date =
            figures.current(today, null).isEmpty()
                ? figures.previousDate(today).orElse(today)
                : today;
      }
    } catch (IllegalArgumentException e) {
      Pages.error(request, response, HttpServletResponse.SC_BAD_REQUEST, e.getMessage());
      return;
    }
    request.setAttribute("date", date);
    List<RiskTable> tables = new ArrayList<>();
    String page;
    String title;
    try {
      switch (path) {
        case "", "/" -> {
          page = "risk";
          title = "Risk on " + date;
          dashboard(request, figures, date, tables);
        }
        case "/node" -> {
          page = "risk-node";
          String node = request.getParameter("node");
          title = "Risk of " + node;
          node(request, figures, date, node, tables);
        }
        case "/compare" -> {
          page = "risk-compare";
          LocalDate other = date(request, "other", date.minusDays(1));
          request.setAttribute("other", other);
          title = "Risk on " + other + " and " + date;
          tables.add(
              RiskTables.compare(
                  request.getContextPath(), figures, other, date, blankToNull(request, "node")));
        }
        default -> {
          Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "No such page.");
          return;
        }
      }
    } catch (IllegalArgumentException | WebServiceException e) {
      // the server's messages name the argument or the data source, never a secret
      request.setAttribute("problem", e.getMessage());
      Pages.render(request, response, path.equals("/node") ? "risk-node" : "risk", "Risk");
      return;
    }
    List<RiskTable> linked = new ArrayList<>();
    for (RiskTable t : tables) {
      linked.add(t.withCsvHref(csvHref(request, t.id())));
    }
    if ("csv".equals(request.getParameter("format"))) {
      String id = request.getParameter("table");
      for (RiskTable t : linked) {
        if (t.id().equals(id)) {
          RiskCsv.send(response, t, t.id() + "-" + date);
          return;
        }
      }
      Pages.error(request, response, HttpServletResponse.SC_NOT_FOUND, "No such table.");
      return;
    }
    request.setAttribute("tables", linked);
    Pages.render(request, response, page, title);
  }

  private static void dashboard(
      HttpServletRequest request, RiskFigures figures, LocalDate date, List<RiskTable> tables) {
    Optional<LocalDate> previous = figures.previousDate(date);
    request.setAttribute("previous", previous.orElse(null));
    tables.add(
        RiskTables.dashboard(
            "dashboard-table",
            "Current figures on "
                + date
                + previous.map(p -> ", change against " + p).orElse(", no business date before"),
            request.getContextPath(),
            figures,
            date,
            null,
            previous));
  }

  private static void node(
      HttpServletRequest request,
      RiskFigures figures,
      LocalDate date,
      String node,
      List<RiskTable> tables) {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("node: a node is required (a path such as BANK)");
    }
    String range =
        RANGES.containsKey(request.getParameter("range")) ? request.getParameter("range") : "3m";
    request.setAttribute("node", node);
    request.setAttribute("range", range);
    request.setAttribute("ranges", RANGES.keySet());
    int slash = node.lastIndexOf('/');
    if (slash > 0) {
      String parent = node.substring(0, slash);
      request.setAttribute("parent", parent);
      request.setAttribute(
          "parentHref",
          RiskTables.nodeLink(request.getContextPath(), parent, date) + "&range=" + range);
    }
    Optional<LocalDate> previous = figures.previousDate(date);
    tables.add(
        RiskTables.dashboard(
            "below-table",
            node + " and the nodes below it on " + date,
            request.getContextPath(),
            figures,
            date,
            node,
            previous));
    List<VarFigureInfo> own =
        figures.current(date, node).stream().filter(f -> f.node.equals(node)).toList();
    // the series: the node's first current figure of the date chooses confidence and method
    LocalDate from = date.minus(RANGES.get(range));
    JobManagementService jobs = figures.jobs();
    VarFigureInfo headline = own.isEmpty() ? null : own.get(0);
    Map<LocalDate, Double> var = new TreeMap<>();
    Map<LocalDate, Double> es = new TreeMap<>();
    for (VarFigureInfo f : jobs.getVarHistory(node, from.toString(), date.toString())) {
      if (f.supersededBy == null
          && (headline == null
              || (f.confidence.compareTo(headline.confidence) == 0
                  && f.method.equals(headline.method)
                  && f.dataSource.equals(headline.dataSource)))) {
        var.put(LocalDate.parse(f.businessDate), f.var);
        es.put(LocalDate.parse(f.businessDate), f.expectedShortfall);
      }
    }
    Map<LocalDate, Double> pnl = new TreeMap<>();
    for (VarPnlInfo p : jobs.getVarPnl(node, from.toString(), date.toString())) {
      if (headline == null || p.dataSource.equals(headline.dataSource)) {
        pnl.merge(LocalDate.parse(p.businessDate), p.pnl, Double::sum);
      }
    }
    NodeSeries series = NodeSeries.of(var, es, pnl);
    String confidence = headline == null ? "" : RiskTables.percent(headline.confidence);
    request.setAttribute("plot", VarHistorySvg.render(node, confidence, series));
    request.setAttribute("exceptions", series.exceptions());
    request.setAttribute("observations", series.observations());
    tables.add(RiskTables.history(node, series));
    if (headline != null) {
      tables.add(
          RiskTables.positions(
              node, jobs.getVarPositions(headline.dataSource, headline.runId, node)));
    }
    explain(request, jobs, node, previous, date, tables);
  }

  /**
   * The day-over-day explain of {@code node} (docs/risk-view.md, "Explain"): its components and top
   * positions, or the server's reason for refusing it (a node between a run's top and its desks has
   * no stored contributions), shown in the page in place of the tables.
   */
  private static void explain(
      HttpServletRequest request,
      JobManagementService jobs,
      String node,
      Optional<LocalDate> previous,
      LocalDate date,
      List<RiskTable> tables) {
    if (previous.isEmpty()) {
      request.setAttribute("explainProblem", "No business date before " + date + " to explain.");
      return;
    }
    List<VarExplainInfo> explains;
    try {
      explains =
          jobs.getVarExplain(node, previous.get().toString(), date.toString(), EXPLAIN_POSITIONS);
    } catch (IllegalArgumentException | WebServiceException e) {
      request.setAttribute("explainProblem", e.getMessage());
      return;
    }
    tables.add(RiskTables.explainComponents(node, previous.get(), date, explains));
    tables.add(RiskTables.explainPositions(node, explains));
  }

  private static String blankToNull(HttpServletRequest request, String name) {
    String value = request.getParameter(name);
    return value == null || value.isBlank() ? null : value;
  }

  private static LocalDate date(HttpServletRequest request, String name, LocalDate absent) {
    String text = request.getParameter(name);
    if (text == null || text.isBlank()) {
      return absent;
    }
    try {
      return LocalDate.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name
              + ": '"
              + text.substring(0, Math.min(40, text.length())).replaceAll("\\p{Cntrl}", "?")
              + "' is not a business date (YYYY-MM-DD)");
    }
  }

  /** This page's address with its own parameters, asking for one table as CSV. */
  private static String csvHref(HttpServletRequest request, String table) {
    StringBuilder href =
        new StringBuilder(request.getContextPath())
            .append(request.getServletPath())
            .append(request.getPathInfo() == null ? "" : request.getPathInfo())
            .append('?');
    for (String name : List.of("node", "date", "other", "range")) {
      String value = request.getParameter(name);
      if (value != null && !value.isBlank()) {
        href.append(name).append('=').append(RiskTables.encode(value)).append('&');
      }
    }
    return href.append("format=csv&table=").append(RiskTables.encode(table)).toString();
  }
}

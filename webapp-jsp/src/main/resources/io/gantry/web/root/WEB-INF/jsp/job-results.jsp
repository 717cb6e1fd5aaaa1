<%@ include file="layout/top.jspf" %>
<c:set var="base" value="${pageContext.request.contextPath}/jobs/${job.id}"/>
<section class="card results-page">
  <p class="crumbs"><a href="${pageContext.request.contextPath}/jobs">Jobs</a> / <a href="${base}" id="job-link"><c:out value="${empty job.name ? job.id : job.name}"/></a></p>
  <h1>VaR results</h1>
  <c:if test="${not empty progressProblem}">
    <p class="error" role="alert" id="progress-problem"><c:out value="${progressProblem}"/></p>
  </c:if>
  <c:if test="${not empty progressDone}">
    <section id="live-results" aria-labelledby="live-title">
      <h2 id="live-title">Live results: <c:out value="${progressDone}"/></h2>
      <c:if test="${not empty progressPlot}">
        <figure class="plot" id="progress-plot">${progressPlot}<figcaption class="muted"><c:out value="${progressHeadline}"/> at each checkpoint; the band is the estimate &#177; 1.96 standard errors (95%). Reload the page for newer checkpoints.</figcaption></figure>
      </c:if>
      <c:if test="${not empty progressRows}">
        <div class="table-wrap">
        <table id="progress-table">
          <caption>Estimates at the last checkpoint</caption>
          <thead><tr><th scope="col">Figure</th><th scope="col" class="num">Estimate</th><th scope="col" class="num">Standard error</th><th scope="col" class="num">Relative</th></tr></thead>
          <tbody>
          <c:forEach var="p" items="${progressRows}">
            <tr><th scope="row"><c:out value="${p.figure}"/></th><td class="num">${p.value}</td><td class="num">${p.stderr}</td><td class="num">${p.relative}</td></tr>
          </c:forEach>
          </tbody>
        </table>
        </div>
      </c:if>
    </section>
  </c:if>
  <c:choose>
    <c:when test="${not empty problem}">
      <p class="error" role="alert" id="results-problem"><c:out value="${problem}"/></p>
    </c:when>
    <c:otherwise>
      <div class="table-wrap">
      <table id="var-table">
        <caption>Value at risk and expected shortfall (losses as positive amounts)</caption>
        <thead><tr><th scope="col">Confidence</th><th scope="col" class="num">VaR</th><th scope="col" class="num">Expected shortfall</th>
          <th scope="col" class="num">Mean P&amp;L</th><th scope="col" class="num">Std dev</th><th scope="col" class="num">Scenarios</th></tr></thead>
        <tbody>
        <c:forEach var="l" items="${levels}">
          <tr><th scope="row">${l.confidence}</th><td class="num">${l.var}</td><td class="num">${l.expectedShortfall}</td>
            <td class="num">${l.mean}</td><td class="num">${l.stddev}</td><td class="num">${l.scenarios}</td></tr>
        </c:forEach>
        </tbody>
      </table>
      </div>
      <h2>P&amp;L distribution</h2>
      <c:choose>
        <c:when test="${empty plot}"><p class="muted" id="no-plot">The run wrote no P&amp;L distribution.</p></c:when>
        <c:otherwise><figure class="plot" id="pnl-plot">${plot}<figcaption class="muted">Simulated P&amp;L per scenario; dashed lines mark the loss at each VaR level.</figcaption></figure></c:otherwise>
      </c:choose>
      <c:if test="${not empty contributions}">
        <h2>Largest contributions to VaR ${levels[fn:length(levels) - 1].confidence}</h2>
        <div class="table-wrap">
        <table id="contributions">
          <thead><tr><th scope="col">Position</th><th scope="col" class="num">Contribution</th></tr></thead>
          <tbody>
          <c:forEach var="c" items="${contributions}">
            <tr><td><c:out value="${c.position}"/></td><td class="num">${c.contribution}</td></tr>
          </c:forEach>
          </tbody>
        </table>
        </div>
      </c:if>
    </c:otherwise>
  </c:choose>
</section>
<%@ include file="layout/bottom.jspf" %>

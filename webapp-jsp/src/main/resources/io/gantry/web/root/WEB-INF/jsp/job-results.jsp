<%@ include file="layout/top.jspf" %>
<c:set var="base" value="${pageContext.request.contextPath}/jobs/${job.id}"/>
<section class="card results-page">
  <p class="crumbs"><a href="${pageContext.request.contextPath}/jobs">Jobs</a> / <a href="${base}" id="job-link"><c:out value="${empty job.name ? job.id : job.name}"/></a></p>
  <h1>VaR results</h1>
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

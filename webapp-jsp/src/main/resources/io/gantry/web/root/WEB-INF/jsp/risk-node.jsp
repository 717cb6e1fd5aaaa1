<%@ include file="layout/top.jspf" %>
<c:set var="ctx" value="${pageContext.request.contextPath}"/>
<section class="card risk-page">
  <p class="crumbs"><a href="${ctx}/risk?date=${fn:escapeXml(date)}" id="dashboard-link">Risk on <c:out value="${date}"/></a><c:if test="${not empty parent}"> / <a href="${fn:escapeXml(parentHref)}" id="parent-link"><c:out value="${parent}"/></a></c:if></p>
  <h1 id="node-name"><c:out value="${node}"/></h1>
  <form class="filters" method="get" action="${ctx}/risk/node" id="range-form">
    <input type="hidden" name="node" value="${fn:escapeXml(node)}">
    <label for="date">Business date</label>
    <input type="date" id="date" name="date" value="${fn:escapeXml(date)}">
    <label for="range">Range</label>
    <select id="range" name="range">
      <c:forEach var="r" items="${ranges}"><option value="${r}"<c:if test="${r == range}"> selected</c:if>>${r}</option></c:forEach>
    </select>
    <button type="submit" id="show-range">Show</button>
  </form>
  <c:if test="${not empty problem}"><p class="error" role="alert" id="risk-problem"><c:out value="${problem}"/></p></c:if>
  <c:choose>
    <c:when test="${not empty plot}">
      <figure class="plot" id="history-plot">${plot}<figcaption class="muted" id="history-caption"><c:out value="${exceptions}"/> exceptions in <c:out value="${observations}"/> observations: days whose loss exceeded the VaR of the business day before (the backtest's rule).</figcaption></figure>
    </c:when>
    <c:when test="${empty problem}"><p class="muted" id="no-history">No VaR or P&amp;L for this node in the range.</p></c:when>
  </c:choose>
  <%@ include file="layout/risk-tables.jspf" %>
  <%-- The explain's tables are among the tables above; where the server refused it, its reason. --%>
  <c:if test="${not empty explainProblem}">
    <section class="risk-table" aria-labelledby="explain-caption">
      <h2 id="explain-caption">Why the VaR changed</h2>
      <p class="muted" id="explain-problem"><c:out value="${explainProblem}"/></p>
    </section>
  </c:if>
</section>
<%@ include file="layout/bottom.jspf" %>

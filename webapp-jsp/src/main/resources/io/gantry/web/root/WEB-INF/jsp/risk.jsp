<%@ include file="layout/top.jspf" %>
<c:set var="ctx" value="${pageContext.request.contextPath}"/>
<section class="card risk-page">
  <div class="title-row">
    <h1>Risk on <c:out value="${date}"/></h1>
    <form class="filters" method="get" action="${ctx}/risk" id="date-form">
      <label for="date">Business date</label>
      <input type="date" id="date" name="date" value="${fn:escapeXml(date)}">
      <button type="submit" id="show-date">Show</button>
    </form>
  </div>
  <p class="muted">VaR and expected shortfall are losses as positive amounts; the change is against the business date before<c:if test="${not empty previous}"> (<c:out value="${previous}"/>)</c:if>. The MC error is the 95% interval of a Monte Carlo VaR (&#177;1.96 standard errors); the backtest is the Basel traffic light of the latest 99% backtest up to this date. Each node links to its history. What each figure means: docs/risk-view.md.</p>
  <p><a href="${ctx}/risk/compare?date=${fn:escapeXml(date)}<c:if test="${not empty previous}">&amp;other=${fn:escapeXml(previous)}</c:if>" id="compare-link">Compare with another date</a></p>
  <c:if test="${not empty problem}"><p class="error" role="alert" id="risk-problem"><c:out value="${problem}"/></p></c:if>
  <%@ include file="layout/risk-tables.jspf" %>
</section>
<%@ include file="layout/bottom.jspf" %>

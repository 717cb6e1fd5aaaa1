<%@ include file="layout/top.jspf" %>
<c:set var="ctx" value="${pageContext.request.contextPath}"/>
<section class="card risk-page">
  <p class="crumbs"><a href="${ctx}/risk?date=${fn:escapeXml(date)}">Risk on <c:out value="${date}"/></a></p>
  <h1>Two dates side by side</h1>
  <form class="filters" method="get" action="${ctx}/risk/compare" id="compare-form">
    <label for="other">First date</label>
    <input type="date" id="other" name="other" value="${fn:escapeXml(other)}">
    <label for="date">Second date</label>
    <input type="date" id="date" name="date" value="${fn:escapeXml(date)}">
    <button type="submit" id="show-compare">Compare</button>
  </form>
  <c:if test="${not empty problem}"><p class="error" role="alert" id="risk-problem"><c:out value="${problem}"/></p></c:if>
  <%@ include file="layout/risk-tables.jspf" %>
</section>
<%@ include file="layout/bottom.jspf" %>

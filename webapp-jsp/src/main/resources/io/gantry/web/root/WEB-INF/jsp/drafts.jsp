<%@ include file="layout/top.jspf" %>
<section class="card">
  <div class="title-row">
    <h1>Drafts</h1>
    <a class="button" href="${pageContext.request.contextPath}/wizard">New job</a>
  </div>
  <c:if test="${not empty notice}"><p class="notice" role="status" id="drafts-notice"><c:out value="${notice}"/></p></c:if>
  <c:choose>
    <c:when test="${empty drafts}"><p id="no-drafts">No drafts. Save one from the wizard's review step.</p></c:when>
    <c:otherwise>
      <ul class="drafts" id="draft-list">
        <c:forEach var="d" items="${drafts}">
          <li class="draft" data-draft="${fn:escapeXml(d.name)}">
            <span class="draft-name"><c:out value="${d.name}"/></span>
            <span class="muted">${d.modified}, ${d.bytes} bytes</span>
            <span class="draft-actions">
              <form method="post" action="${pageContext.request.contextPath}/drafts/open">
                <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
                <input type="hidden" name="name" value="${fn:escapeXml(d.name)}">
                <button type="submit" class="secondary" id="open-${fn:escapeXml(d.name)}">Open<span class="sr-only"> <c:out value="${d.name}"/></span> in the wizard</button>
              </form>
              <a class="button secondary" id="download-${fn:escapeXml(d.name)}" href="${pageContext.request.contextPath}/drafts/download?name=${fn:escapeXml(d.name)}">Download<span class="sr-only"> <c:out value="${d.name}"/></span></a>
              <form method="post" action="${pageContext.request.contextPath}/drafts/delete" data-confirm="Delete the draft ${fn:escapeXml(d.name)}?">
                <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
                <input type="hidden" name="name" value="${fn:escapeXml(d.name)}">
                <button type="submit" class="danger" id="delete-${fn:escapeXml(d.name)}">Delete<span class="sr-only"> <c:out value="${d.name}"/></span></button>
              </form>
            </span>
          </li>
        </c:forEach>
      </ul>
      <p class="muted">At most ${maxDrafts} drafts are kept.</p>
    </c:otherwise>
  </c:choose>
</section>
<%@ include file="layout/bottom.jspf" %>

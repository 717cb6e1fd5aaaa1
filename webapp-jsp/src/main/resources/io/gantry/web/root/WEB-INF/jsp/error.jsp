<%@ include file="layout/top.jspf" %>
<section class="card">
  <h1><c:out value="${title}"/></h1>
  <p class="error" role="alert" id="error-message"><c:out value="${message}"/></p>
  <p><a href="${pageContext.request.contextPath}/jobs">Back to the job list</a></p>
</section>
<%@ include file="layout/bottom.jspf" %>

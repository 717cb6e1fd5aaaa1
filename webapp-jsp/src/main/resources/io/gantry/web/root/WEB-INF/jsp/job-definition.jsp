<%@ include file="layout/top.jspf" %>
<c:set var="base" value="${pageContext.request.contextPath}/jobs/${job.id}"/>
<section class="card">
  <p class="crumbs"><a href="${pageContext.request.contextPath}/jobs">Jobs</a> / <a href="${base}" id="job-link"><c:out value="${empty job.name ? job.id : job.name}"/></a></p>
  <div class="title-row">
    <h1>Job definition</h1>
    <a class="button secondary" id="download-definition" href="${base}/definition?download=1">Download JSDL</a>
  </div>
  <p class="muted">As submitted, with passwords and other secrets removed.</p>
  <pre class="xml" id="definition" tabindex="0" aria-label="Job definition (JSDL)"><c:out value="${definition}"/></pre>
</section>
<%@ include file="layout/bottom.jspf" %>

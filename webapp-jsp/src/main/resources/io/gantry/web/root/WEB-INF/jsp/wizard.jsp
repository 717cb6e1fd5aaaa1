<%@ include file="layout/top.jspf" %>
<%@ taglib prefix="w" tagdir="/WEB-INF/tags" %>
<c:set var="v" value="${job.values}"/>
<c:set var="e" value="${job.errors}"/>
<section class="card wizard">
  <div class="title-row">
    <h1>New job: <c:out value="${step.title}"/></h1>
    <c:if test="${not empty job.draftName}"><span class="muted">draft <c:out value="${job.draftName}"/></span></c:if>
  </div>
  <c:if test="${not empty notice}"><p class="notice" role="status" id="wizard-notice"><c:out value="${notice}"/></p></c:if>
  <form method="post" action="${pageContext.request.contextPath}/wizard" id="wizard-form" novalidate>
    <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
    <input type="hidden" name="step" value="${step.slug}">
    <%-- Enter in a field means Next (the first submit button of a form is its default) --%>
    <button type="submit" name="go" value="${step.slug == 'review' ? 'goto:review' : 'next'}" class="default-action" tabindex="-1" aria-hidden="true">Next</button>
    <nav aria-label="Wizard steps">
      <ol class="wizard-steps">
        <c:forEach var="s" items="${steps}">
          <li><button type="submit" name="go" value="goto:${s.slug}" id="nav-${s.slug}"
              class="step-link${s.current ? ' current' : ''}${s.hasErrors ? ' has-errors' : ''}"${s.current ? ' aria-current="step"' : ''}>${s.number}. ${s.title}<c:if test="${s.hasErrors}"><span class="step-flag"> (needs attention)</span></c:if></button></li>
        </c:forEach>
      </ol>
    </nav>
    <c:if test="${not empty e['_'.concat(step.slug)]}"><p class="error" id="step-problem"><c:out value="${e['_'.concat(step.slug)]}"/></p></c:if>
    <c:choose>
      <c:when test="${step.slug == 'identification'}"><%@ include file="wizard/identification.jspf" %></c:when>
      <c:when test="${step.slug == 'application'}"><%@ include file="wizard/application.jspf" %></c:when>
      <c:when test="${step.slug == 'resources'}"><%@ include file="wizard/resources.jspf" %></c:when>
      <c:when test="${step.slug == 'pre-staging'}"><c:set var="stages" value="${job.pre}"/><c:set var="side" value="pre"/><%@ include file="wizard/staging.jspf" %></c:when>
      <c:when test="${step.slug == 'post-staging'}"><c:set var="stages" value="${job.post}"/><c:set var="side" value="post"/><%@ include file="wizard/staging.jspf" %></c:when>
      <c:when test="${step.slug == 'parameters'}"><%@ include file="wizard/parameters.jspf" %></c:when>
      <c:otherwise><%@ include file="wizard/review.jspf" %></c:otherwise>
    </c:choose>
    <div class="wizard-buttons">
      <c:if test="${step.slug != 'identification'}"><button type="submit" name="go" value="back" id="back" class="secondary">Back</button></c:if>
      <c:if test="${step.slug != 'review'}"><button type="submit" name="go" value="next" id="next">Next</button></c:if>
    </div>
  </form>
  <%-- the server's data sources and SSH identities this user may use (names only) --%>
  <datalist id="data-source-names"><c:forEach var="d" items="${dataSources}"><option value="${fn:escapeXml(d)}"></option></c:forEach></datalist>
  <datalist id="ssh-identity-names"><c:forEach var="d" items="${sshIdentities}"><option value="${fn:escapeXml(d)}"></option></c:forEach></datalist>
  <c:if test="${step.slug == 'identification'}">
    <h2>Start from a file</h2>
    <c:if test="${not empty uploadProblems or not empty uploadUnsupported}">
      <div class="error" role="alert" id="upload-problems">
        <c:if test="${not empty uploadProblems}">
          <p>The file was not read:</p>
          <ul><c:forEach var="p" items="${uploadProblems}"><li><c:out value="${p}"/></li></c:forEach></ul>
        </c:if>
        <c:if test="${not empty uploadUnsupported}">
          <p>The file holds elements the wizard cannot edit, so it was not read (the wizard would drop them).
            Submit such a job as a file (<code>gantry submit</code>). The elements:</p>
          <ul><c:forEach var="p" items="${uploadUnsupported}"><li><code><c:out value="${p}"/></code></li></c:forEach></ul>
        </c:if>
      </div>
    </c:if>
    <form method="post" enctype="multipart/form-data" class="upload"
          action="${pageContext.request.contextPath}/wizard/upload?csrf=${fn:escapeXml(csrf)}">
      <label for="upload-file">JSDL file (at most ${uploadLimitMiB} MiB); it replaces the job in the wizard</label>
      <input type="file" id="upload-file" name="file" accept=".jsdl,.xml,application/xml,text/xml">
      <button type="submit" id="upload" class="secondary">Read into the wizard</button>
    </form>
    <form method="post" action="${pageContext.request.contextPath}/wizard" class="reset" data-confirm="Throw away the job in the wizard and start again?">
      <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
      <input type="hidden" name="step" value="identification">
      <button type="submit" name="go" value="reset" id="reset" class="secondary">Start again with an empty job</button>
    </form>
  </c:if>
</section>
<%@ include file="layout/bottom.jspf" %>

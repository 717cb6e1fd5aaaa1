<%@ include file="layout/top.jspf" %>
<section class="card">
  <div class="title-row">
    <h1>Jobs<c:if test="${all}"> of every user</c:if></h1>
    <a class="button" href="${pageContext.request.contextPath}/wizard">New job</a>
  </div>
  <form method="get" action="${pageContext.request.contextPath}/jobs" class="filters">
    <label for="state-filter">State</label>
    <select id="state-filter" name="state">
      <option value="">any</option>
      <c:forEach var="s" items="${states}">
        <option value="${s}" ${s == state ? 'selected' : ''}>${s}</option>
      </c:forEach>
    </select>
    <c:if test="${user.admin}">
      <label class="inline"><input type="checkbox" name="all" value="1" ${all ? 'checked' : ''}> every user</label>
    </c:if>
    <button type="submit">Show</button>
  </form>
  <div id="job-list" data-refresh="5">
  <c:choose>
    <c:when test="${empty jobs}"><p id="no-jobs">No jobs<c:if test="${not empty state}"> in state <c:out value="${state}"/></c:if>.</p></c:when>
    <c:otherwise>
      <div class="table-wrap">
      <table class="jobs">
        <caption class="sr-only">Jobs, newest first</caption>
        <thead><tr><th scope="col">Job</th><th scope="col">State</th><th scope="col">Submitted</th><th scope="col" class="wide">Owner</th><th scope="col" class="wide">Detail</th></tr></thead>
        <tbody>
        <c:forEach var="job" items="${jobs}">
          <tr data-job-id="${job.id}">
            <td><a href="${pageContext.request.contextPath}/jobs/${job.id}"><c:out value="${empty job.name ? job.id : job.name}"/></a><br><code class="id">${job.id}</code><c:if test="${not empty job.parameters}"><br><code class="values"><c:out value="${job.parameters}"/></code></c:if></td>
            <td><span class="state ${job.stateClass}">${job.state}</span></td>
            <td>${job.submitted}</td>
            <td class="wide"><c:out value="${job.owner}"/></td>
            <td class="wide"><c:out value="${empty job.failureReason ? job.phase : job.failureReason}"/></td>
          </tr>
        </c:forEach>
        </tbody>
      </table>
      </div>
      <p class="muted">${total} job(s), page ${page + 1} of ${pages}.
        <c:if test="${page > 0}"><a href="?state=${state}&amp;page=${page - 1}${all ? '&amp;all=1' : ''}">Newer</a></c:if>
        <c:if test="${page + 1 < pages}"><a href="?state=${state}&amp;page=${page + 1}${all ? '&amp;all=1' : ''}">Older</a></c:if>
      </p>
    </c:otherwise>
  </c:choose>
  </div>
</section>
<%@ include file="layout/bottom.jspf" %>

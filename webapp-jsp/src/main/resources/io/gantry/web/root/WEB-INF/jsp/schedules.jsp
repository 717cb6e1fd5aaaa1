<%@ include file="layout/top.jspf" %>
<c:set var="base" value="${pageContext.request.contextPath}/schedules"/>
<section class="card">
  <h1>Schedules</h1>
  <p class="muted">The server submits each schedule's job by itself, as its owner, at every time of its cron
    expression (minute hour day-of-month month day-of-week) in its time zone. Values may use the scheduled
    time: <code>${'$'}{schedule.date}</code>, <code>${'$'}{schedule.time}</code>, <code>${'$'}{schedule.datetime}</code>.</p>
  <c:if test="${not empty notice}"><p id="schedules-notice" class="${noticeError ? 'error' : 'notice'}" role="status"><c:out value="${notice}"/></p></c:if>
  <c:choose>
    <c:when test="${empty schedules}"><p id="no-schedules">No schedules yet.</p></c:when>
    <c:otherwise>
      <div class="table-wrap">
      <table id="schedule-list">
        <caption class="sr-only">Schedules, by name</caption>
        <thead><tr><th scope="col">Name</th><c:if test="${user.admin}"><th scope="col">Owner</th></c:if><th scope="col">Cron</th><th scope="col">Zone</th>
          <th scope="col">Missed runs</th><th scope="col">Next</th><th scope="col">Last</th><th scope="col">Values</th><th scope="col">Actions</th></tr></thead>
        <tbody>
        <c:forEach var="s" items="${schedules}">
          <tr data-schedule="${fn:escapeXml(s.name)}">
            <td><c:out value="${s.name}"/><c:if test="${s.paused}"> <span class="state">paused</span></c:if></td>
            <c:if test="${user.admin}"><td><c:out value="${s.owner}"/></td></c:if>
            <td><code><c:out value="${s.cron}"/></code></td>
            <td><c:out value="${s.timeZone}"/></td>
            <td>${s.missed}</td>
            <td class="nowrap"><c:out value="${s.next}"/></td>
            <td><c:out value="${s.last}"/>
              <c:if test="${not empty s.lastJobId}"> <a href="${pageContext.request.contextPath}/jobs/${fn:escapeXml(s.lastJobId)}">job</a></c:if>
              <c:if test="${not empty s.lastNote}"><br><span class="muted"><c:out value="${s.lastNote}"/></span></c:if></td>
            <td><code><c:out value="${s.parameters}"/></code></td>
            <td class="schedule-actions">
              <form method="post" action="${base}/${s.paused ? 'resume' : 'pause'}">
                <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
                <input type="hidden" name="id" value="${fn:escapeXml(s.id)}">
                <button type="submit" class="secondary">${s.paused ? 'Resume' : 'Pause'}<span class="sr-only"> <c:out value="${s.name}"/></span></button>
              </form>
              <form method="post" action="${base}/remove" data-confirm="Remove the schedule ${fn:escapeXml(s.name)}? The jobs it submitted stay.">
                <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
                <input type="hidden" name="id" value="${fn:escapeXml(s.id)}">
                <button type="submit" class="danger">Remove<span class="sr-only"> <c:out value="${s.name}"/></span></button>
              </form>
            </td>
          </tr>
        </c:forEach>
        </tbody>
      </table>
      </div>
    </c:otherwise>
  </c:choose>
</section>

<section class="card">
  <h2>Add a schedule</h2>
  <c:forEach var="source" items="${['draft', 'upload']}">
  <form method="post" id="add-from-${source}"
        action="${base}/${source == 'draft' ? 'add' : 'upload'}${source == 'upload' ? '?csrf='.concat(fn:escapeXml(csrf)) : ''}"
        ${source == 'upload' ? 'enctype="multipart/form-data"' : ''}>
    <h3>${source == 'draft' ? 'From a saved draft' : 'From a JSDL file'}</h3>
    <c:if test="${source == 'draft'}"><input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}"></c:if>
    <label for="${source}-name">Name</label>
    <input id="${source}-name" name="name" required pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,127}" placeholder="var-desk-1">
    <c:choose>
      <c:when test="${source == 'draft'}">
        <label for="draft-draft">Draft</label>
        <select id="draft-draft" name="draft" required>
          <c:forEach var="d" items="${drafts}"><option value="${fn:escapeXml(d.name)}"><c:out value="${d.name}"/></option></c:forEach>
        </select>
      </c:when>
      <c:otherwise>
        <label for="upload-file">JSDL file</label>
        <input type="file" id="upload-file" name="file" accept=".jsdl,.xml,application/xml,text/xml" required>
      </c:otherwise>
    </c:choose>
    <label for="${source}-cron">Cron expression</label>
    <input id="${source}-cron" name="cron" required placeholder="30 18 * * 1-5">
    <label for="${source}-zone">Time zone</label>
    <input id="${source}-zone" name="timeZone" placeholder="Europe/London">
    <label for="${source}-missed">Times missed while the server was down</label>
    <select id="${source}-missed" name="missed"><option value="run-once">run once at start</option><option value="skip">skip</option></select>
    <label for="${source}-calendar">Holiday calendar (optional: no job on its dates)</label>
    <input id="${source}-calendar" name="calendar" placeholder="uk-bank">
    <label for="${source}-values">Parameter values, NAME=VALUE one a line</label>
    <textarea id="${source}-values" name="values" rows="3" placeholder="business_date=${'$'}{schedule.date}&#10;portfolio=BANK"></textarea>
    <button type="submit" id="add-${source}">Add schedule</button>
  </form>
  </c:forEach>
</section>
<%@ include file="layout/bottom.jspf" %>

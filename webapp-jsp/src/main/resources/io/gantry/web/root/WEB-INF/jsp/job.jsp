<%@ include file="layout/top.jspf" %>
<c:set var="base" value="${pageContext.request.contextPath}/jobs/${job.id}"/>
<section class="card job-page">
  <p class="crumbs"><a href="${pageContext.request.contextPath}/jobs">Jobs</a></p>
  <h1 id="job-name"><c:out value="${empty job.name ? job.id : job.name}"/></h1>
  <c:if test="${not empty actionMessage}">
    <p id="action-message" class="${actionFailed ? 'error' : 'notice'}" role="status"><c:out value="${actionMessage}"/></p>
  </c:if>
  <div id="job-live" data-refresh="3" ${job.finalState ? 'data-final' : ''}>
    <dl class="facts">
      <dt>Id</dt><dd><code class="id" id="job-id">${job.id}</code></dd>
      <dt>Owner</dt><dd id="job-owner"><c:out value="${job.owner}"/></dd>
      <dt>State</dt><dd><span id="job-state" class="state ${job.stateClass}">${job.state}</span></dd>
      <c:if test="${not empty job.phase}"><dt>Detail</dt><dd id="job-phase"><c:out value="${job.phase}"/></dd></c:if>
      <dt>Submitted</dt><dd>${job.submitted}</dd>
      <c:if test="${not empty job.started}"><dt>Started</dt><dd>${job.started}</dd></c:if>
      <c:if test="${not empty job.finished}"><dt>Finished</dt><dd>${job.finished}</dd></c:if>
      <c:if test="${job.exitCode != null}"><dt>Exit code</dt><dd id="job-exit-code">${job.exitCode}</dd></c:if>
      <c:if test="${not empty job.waitingFor}"><dt>Waiting for</dt><dd id="job-waiting"><c:out value="${job.waitingFor}"/></dd></c:if>
      <c:if test="${not empty job.failureReason}"><dt>Failure</dt><dd id="job-failure" class="error"><c:out value="${job.failureReason}"/></dd></c:if>
      <c:if test="${not empty parameters}"><dt>Parameters</dt><dd><ul id="job-parameters" class="plain"><c:forEach var="p" items="${parameters}"><li><code><c:out value="${p}"/></code></li></c:forEach></ul></dd></c:if>
      <c:if test="${not empty resubmittedFrom}"><dt>Resubmission of</dt><dd><a id="resubmitted-from" href="${pageContext.request.contextPath}/jobs/${fn:escapeXml(resubmittedFrom)}"><code class="id"><c:out value="${resubmittedFrom}"/></code></a></dd></c:if>
      <c:if test="${not empty scheduleName}"><dt>Schedule</dt><dd id="job-schedule"><a href="${pageContext.request.contextPath}/schedules"><c:out value="${scheduleName}"/></a>, for <c:out value="${scheduledFor}"/></dd></c:if>
    </dl>
    <div class="actions">
      <c:if test="${cancellable}">
        <form method="post" action="${base}/cancel" data-confirm="Cancel this job? It will not run.">
          <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" id="cancel-job" class="danger">Cancel job</button>
        </form>
      </c:if>
      <c:if test="${job.state == 'QUEUED' and not job.held()}">
        <form method="post" action="${base}/hold">
          <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" id="hold-job">Hold</button>
        </form>
      </c:if>
      <c:if test="${job.held()}">
        <form method="post" action="${base}/release">
          <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" id="release-job">Release</button>
        </form>
      </c:if>
      <c:if test="${job.stageOutFailed()}">
        <form method="post" action="${base}/retry-stage-out" data-confirm="Run the stage-out again? Steps that committed before are skipped.">
          <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" id="retry-stage-out">Retry stage-out</button>
        </form>
      </c:if>
      <c:if test="${killable}">
        <form method="post" action="${base}/kill" data-confirm="Kill this job? Its program is stopped and its results are lost.">
          <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
          <button type="submit" id="kill-job" class="danger">Kill job</button>
        </form>
      </c:if>
      <c:if test="${hasResults}"><a class="button" id="results-link" href="${base}/results">VaR results</a></c:if>
      <a class="button secondary" id="definition-link" href="${base}/definition">Job definition</a>
      <form method="post" action="${base}/resubmit" data-confirm="Run this job again, as a new job with the same definition and values?">
        <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
        <button type="submit" id="resubmit-job" class="secondary">Resubmit</button>
      </form>
    </div>

    <h2>Timeline</h2>
    <div class="table-wrap">
    <table id="timeline">
      <caption class="sr-only">State changes and data movements, oldest first</caption>
      <thead><tr><th scope="col">Time</th><th scope="col">Change</th><th scope="col">Reason</th></tr></thead>
      <tbody>
      <c:forEach var="e" items="${timeline}">
        <tr class="${e.movement ? 'movement' : 'transition'}">
          <td class="nowrap">${e.at}</td>
          <td><c:choose>
            <c:when test="${e.movement}">data movement</c:when>
            <c:otherwise><c:if test="${not empty e.from}">${e.from} &rarr; </c:if><span class="state ${e.toClass}">${e.to}</span></c:otherwise>
          </c:choose></td>
          <td><c:out value="${e.text}"/></td>
        </tr>
      </c:forEach>
      </tbody>
    </table>
    </div>

    <h2>Staging</h2>
    <c:choose>
      <c:when test="${empty stagedIn and empty stagedOut}"><p class="muted" id="no-staging">No files staged<c:if test="${not job.finalState}"> yet</c:if>.</p></c:when>
      <c:otherwise>
      <div class="table-wrap">
      <table id="staging" class="manifest">
        <caption class="sr-only">Files staged in before the run and out after it</caption>
        <thead><tr><th scope="col">Step</th><th scope="col">Source</th><th scope="col">Target</th><th scope="col" class="num">Rows</th>
          <th scope="col" class="num">Bytes</th><th scope="col">Checksum</th><th scope="col" class="num">Seconds</th></tr></thead>
        <c:forEach var="group" items="${['in', 'out']}">
          <c:set var="files" value="${group == 'in' ? stagedIn : stagedOut}"/>
          <c:if test="${not empty files}">
          <tbody class="stage-${group}">
            <tr><th scope="rowgroup" colspan="7">${group == 'in' ? 'Stage-in' : 'Stage-out'}</th></tr>
            <c:forEach var="f" items="${files}">
              <tr><td><c:out value="${f.step}"/></td><td class="path"><c:out value="${f.source}"/></td><td class="path"><c:out value="${f.target}"/></td>
                <td class="num">${f.rows}</td><td class="num">${f.bytes}</td><td><code class="checksum"><c:out value="${f.checksum}"/></code></td><td class="num">${f.seconds}</td></tr>
            </c:forEach>
          </tbody>
          </c:if>
        </c:forEach>
      </table>
      </div>
      </c:otherwise>
    </c:choose>

    <h2>Standard output</h2>
    <c:if test="${not empty stdout.note}"><p class="muted" id="stdout-note"><c:out value="${stdout.note}"/></p></c:if>
    <c:if test="${stdout.cut}"><p class="muted">The last 16 KiB of ${stdout.size} bytes.</p></c:if>
    <pre class="log" id="stdout" tabindex="0" aria-label="Standard output"><c:out value="${stdout.text}"/></pre>
    <h2>Standard error</h2>
    <c:if test="${not empty stderr.note}"><p class="muted" id="stderr-note"><c:out value="${stderr.note}"/></p></c:if>
    <c:if test="${stderr.cut}"><p class="muted">The last 16 KiB of ${stderr.size} bytes.</p></c:if>
    <pre class="log" id="stderr" tabindex="0" aria-label="Standard error"><c:out value="${stderr.text}"/></pre>
    <c:if test="${not job.finalState}"><p class="muted" id="live-note">This page updates itself while the job runs.</p></c:if>
  </div>
</section>
<%@ include file="layout/bottom.jspf" %>

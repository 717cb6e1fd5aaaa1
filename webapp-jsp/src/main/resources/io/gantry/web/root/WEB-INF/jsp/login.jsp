<%@ include file="layout/top.jspf" %>
<section class="card narrow">
  <h1>Log in to Gantry</h1>
  <c:if test="${param.bye != null}"><p class="notice" role="status">You are logged out.</p></c:if>
  <c:if test="${not empty throttled}"><p class="error" role="alert" id="login-throttled">Too many failed logins: wait ${throttled} s before the next try.</p></c:if>
  <c:if test="${failed}"><p class="error" role="alert" id="login-error">Wrong user name or password.</p></c:if>
  <form method="post" action="${pageContext.request.contextPath}/login" class="stacked">
    <input type="hidden" name="csrf" value="${fn:escapeXml(csrf)}">
    <label for="username">User name</label>
    <input id="username" name="username" autocomplete="username" required autofocus value="${fn:escapeXml(username)}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit" id="login">Log in</button>
  </form>
</section>
<%@ include file="layout/bottom.jspf" %>

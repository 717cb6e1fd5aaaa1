<%@ tag body-content="empty" trimDirectiveWhitespaces="true" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<%@ attribute name="id" required="true" %>
<%@ attribute name="name" required="true" %>
<%@ attribute name="label" required="true" %>
<%@ attribute name="isSet" type="java.lang.Boolean" %>
<%@ attribute name="error" %>
<%-- a password: never shown back; once set, the page says so and offers to replace or clear it --%>
<div class="field${not empty error ? ' invalid' : ''}">
  <label for="${id}"><c:out value="${label}"/></label>
  <span class="hint" id="${id}-hint"><c:choose>
    <c:when test="${isSet}"><span class="secret-set" id="${id}-state">set (encrypted)</span>: type a new one to replace it.</c:when>
    <c:otherwise><span id="${id}-state">not set</span>: encrypted with the server's key as soon as this step is saved.</c:otherwise>
  </c:choose></span>
  <input id="${id}" name="${name}" type="password" autocomplete="new-password" value="" aria-describedby="${id}-hint${not empty error ? ' '.concat(id).concat('-error') : ''}"${not empty error ? ' aria-invalid="true"' : ''}>
  <c:if test="${isSet}"><label class="inline" for="${id}-clear"><input type="checkbox" id="${id}-clear" name="${name}Clear" value="1"> clear the password</label></c:if>
  <c:if test="${not empty error}"><p class="field-error" id="${id}-error"><c:out value="${error}"/></p></c:if>
</div>

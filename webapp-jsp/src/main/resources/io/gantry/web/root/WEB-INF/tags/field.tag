<%@ tag body-content="empty" trimDirectiveWhitespaces="true" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<%@ taglib prefix="fn" uri="jakarta.tags.functions" %>
<%@ attribute name="id" required="true" %>
<%@ attribute name="name" required="true" %>
<%@ attribute name="label" required="true" %>
<%@ attribute name="value" %>
<%@ attribute name="error" %>
<%@ attribute name="type" %>
<%@ attribute name="hint" %>
<%@ attribute name="list" %>
<%-- one labelled input (text, number or textarea) with its hint and its error, tied by aria-describedby --%>
<div class="field${not empty error ? ' invalid' : ''}">
  <label for="${id}"><c:out value="${label}"/></label>
  <c:if test="${not empty hint}"><span class="hint" id="${id}-hint"><c:out value="${hint}"/></span></c:if>
  <c:set var="described" value="${not empty hint ? id.concat('-hint') : ''}${not empty error ? ' '.concat(id).concat('-error') : ''}"/>
  <c:choose>
    <c:when test="${type == 'textarea'}">
      <textarea id="${id}" name="${name}" rows="4"${empty fn:trim(described) ? '' : ' aria-describedby="'.concat(fn:trim(described)).concat('"')}${not empty error ? ' aria-invalid="true"' : ''}>&#10;<c:out value="${value}"/></textarea>
    </c:when>
    <c:otherwise>
      <input id="${id}" name="${name}" type="text"${type == 'number' ? ' inputmode="numeric"' : ''} value="${fn:escapeXml(value)}"${empty list ? '' : ' list="'.concat(list).concat('"')}${empty fn:trim(described) ? '' : ' aria-describedby="'.concat(fn:trim(described)).concat('"')}${not empty error ? ' aria-invalid="true"' : ''}>
    </c:otherwise>
  </c:choose>
  <c:if test="${not empty error}"><p class="field-error" id="${id}-error"><c:out value="${error}"/></p></c:if>
</div>

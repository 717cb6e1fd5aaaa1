<%@ tag body-content="empty" trimDirectiveWhitespaces="true" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<%@ taglib prefix="fn" uri="jakarta.tags.functions" %>
<%@ attribute name="id" required="true" %>
<%@ attribute name="name" required="true" %>
<%@ attribute name="label" required="true" %>
<%@ attribute name="value" %>
<%@ attribute name="error" %>
<%@ attribute name="options" required="true" description="value=Label pairs separated by |" %>
<%-- one labelled select; a value not among the options is kept as an extra option --%>
<div class="field${not empty error ? ' invalid' : ''}">
  <label for="${id}"><c:out value="${label}"/></label>
  <select id="${id}" name="${name}"${not empty error ? ' aria-invalid="true" aria-describedby="'.concat(id).concat('-error"') : ''}>
    <c:set var="found" value="false"/>
    <c:forEach var="option" items="${fn:split(options, '|')}">
      <c:set var="v" value="${fn:substringBefore(option, '=')}"/>
      <c:if test="${v == '-'}"><c:set var="v" value=""/></c:if>
      <c:if test="${v == value}"><c:set var="found" value="true"/></c:if>
      <option value="${fn:escapeXml(v)}"${v == value ? ' selected' : ''}><c:out value="${fn:substringAfter(option, '=')}"/></option>
    </c:forEach>
    <c:if test="${not found and not empty value}"><option value="${fn:escapeXml(value)}" selected><c:out value="${value}"/></option></c:if>
  </select>
  <c:if test="${not empty error}"><p class="field-error" id="${id}-error"><c:out value="${error}"/></p></c:if>
</div>

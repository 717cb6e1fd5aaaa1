package io.gantry.cli.internal.soap;

import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.ResponseWrapper;
import jakarta.xml.ws.WebFault;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.xml.namespace.QName;

/**
 * What one method of a generated service endpoint interface sends and gets, read from the JAX-WS
 * annotations wsdl2java puts on it (document/literal wrapped, as the WS-I Basic Profile asks): the
 * request and response wrapper classes, which wrapper field each parameter fills, which field holds
 * the result, and the declared faults by their detail element. Nothing here names a Gantry
 * operation, so an operation added to the WSDL later works without a change.
 */
record SoapOperation(
    String name,
    String soapAction,
    QName requestElement,
    Class<?> requestWrapper,
    List<Field> parameterFields,
    Class<?> responseWrapper,
    Field resultField,
    List<DeclaredFault> faults) {

  /** A fault of the method's {@code throws} clause: its detail element and its fault bean. */
  record DeclaredFault(QName detailElement, Class<? extends Exception> type, Class<?> faultInfo) {}

  static SoapOperation of(Method method) {
    RequestWrapper request = method.getAnnotation(RequestWrapper.class);
    ResponseWrapper response = method.getAnnotation(ResponseWrapper.class);
    if (request == null || response == null) {
      throw new UnsupportedOperationException(
          method.getName() + " is not a document/literal wrapped operation (no wrapper classes)");
    }
    Class<?> requestClass = load(method, request.className());
    Class<?> responseClass = load(method, response.className());
    List<Field> parameters = new ArrayList<>();
    Annotation[][] annotations = method.getParameterAnnotations();
    for (int i = 0; i < annotations.length; i++) {
      WebParam param = find(annotations[i], WebParam.class);
      if (param == null || param.mode() != WebParam.Mode.IN) {
        throw new UnsupportedOperationException(
            method.getName() + ": parameter " + i + " is not a plain IN @WebParam");
      }
      parameters.add(field(requestClass, param.name()));
    }
    WebResult result = method.getAnnotation(WebResult.class);
    Field resultField =
        method.getReturnType() == void.class || result == null
            ? null
            : field(responseClass, result.name());
    jakarta.jws.WebMethod webMethod = method.getAnnotation(jakarta.jws.WebMethod.class);
    String action = webMethod == null ? "" : webMethod.action();
    return new SoapOperation(
        method.getName(),
        action,
        new QName(request.targetNamespace(), request.localName()),
        requestClass,
        List.copyOf(parameters),
        responseClass,
        resultField,
        faults(method));
  }

  /** A new request wrapper holding {@code args}. */
  Object request(Object[] args) throws ReflectiveOperationException {
    Object wrapper = requestWrapper.getDeclaredConstructor().newInstance();
    for (int i = 0; i < parameterFields.size(); i++) {
      Object value = args[i];
      Field field = parameterFields.get(i);
      if (value instanceof Collection<?> values && List.class.isAssignableFrom(field.getType())) {
        value = new ArrayList<>(values); // JAXB's wrappers hold a live list of their own
      }
      field.set(wrapper, value);
    }
    return wrapper;
  }

  /**
   * The method's return value out of an unmarshalled response wrapper. A list with no elements is
   * absent from the XML, so JAXB leaves its field null: the method promised a list, an empty one.
   */
  Object result(Object response) throws IllegalAccessException {
    if (resultField == null) {
      return null;
    }
    Object value = resultField.get(response);
    if (value == null && List.class.isAssignableFrom(resultField.getType())) {
      return new ArrayList<>();
    }
    return value;
  }

  /** The classes JAXB must know to read and write this operation's messages. */
  Class<?>[] boundClasses() {
    List<Class<?>> classes = new ArrayList<>(List.of(requestWrapper, responseWrapper));
    faults.forEach(f -> classes.add(f.faultInfo()));
    return classes.toArray(new Class<?>[0]);
  }

  private static List<DeclaredFault> faults(Method method) {
    List<DeclaredFault> faults = new ArrayList<>();
    for (Class<?> thrown : method.getExceptionTypes()) {
      WebFault webFault = thrown.getAnnotation(WebFault.class);
      if (webFault == null || !Exception.class.isAssignableFrom(thrown)) {
        continue;
      }
      try {
        Class<?> info = thrown.getMethod("getFaultInfo").getReturnType();
        faults.add(
            new DeclaredFault(
                new QName(webFault.targetNamespace(), webFault.name()),
                thrown.asSubclass(Exception.class),
                info));
      } catch (NoSuchMethodException e) {
        throw new UnsupportedOperationException(
            thrown.getName() + " has no getFaultInfo(): not a generated fault", e);
      }
    }
    return List.copyOf(faults);
  }

  /** The wrapper field bound to element {@code elementName} (its @XmlElement name or its own). */
  private static Field field(Class<?> wrapper, String elementName) {
    for (Field field : wrapper.getDeclaredFields()) {
      XmlElement element = field.getAnnotation(XmlElement.class);
      String name =
          element == null || element.name().equals("##default") ? field.getName() : element.name();
      if (name.equals(elementName)) {
        field.setAccessible(true);
        return field;
      }
    }
    throw new UnsupportedOperationException(
        wrapper.getName() + " has no field for element " + elementName);
  }

  private static Class<?> load(Method method, String className) {
    try {
      return Class.forName(className, false, method.getDeclaringClass().getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new UnsupportedOperationException(
          method.getName() + ": wrapper class " + className + " is missing", e);
    }
  }

  private static <A extends Annotation> A find(Annotation[] annotations, Class<A> type) {
    for (Annotation a : annotations) {
      if (type.isInstance(a)) {
        return type.cast(a);
      }
    }
    return null;
  }
}

package io.gantry.cli.internal.soap;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client for any JAX-WS service endpoint interface that wsdl2java generated from a
 * document/literal wrapped WSDL: each call marshals the generated request wrapper with JAXB, POSTs
 * it over {@link HttpEndpoint}, and returns the response wrapper's result or throws the generated
 * fault exception. It reads everything it needs from the interface's annotations, so operations
 * added to the WSDL later work unchanged, and it loads a small fraction of what a full SOAP stack
 * (CXF) loads at start, which is what a command-line call mostly waits for.
 *
 * <p>Failures that are no declared fault come as {@link jakarta.xml.ws.WebServiceException}: an
 * {@link HttpStatusException} for an HTTP error status, a {@link SoapFaultException} for an
 * undeclared fault, and otherwise one whose cause is the I/O or XML exception.
 */
public final class SoapClient {
  private SoapClient() {}

  /** A port of {@code serviceInterface} talking to {@code endpoint}. */
  public static <T> T create(Class<T> serviceInterface, HttpEndpoint endpoint) {
    return serviceInterface.cast(
        Proxy.newProxyInstance(
            serviceInterface.getClassLoader(),
            new Class<?>[] {serviceInterface},
            new Calls(endpoint)));
  }

  private static final class Calls implements InvocationHandler {
    private final HttpEndpoint endpoint;
    private final Map<Method, SoapOperation> operations = new ConcurrentHashMap<>();

    Calls(HttpEndpoint endpoint) {
      this.endpoint = endpoint;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return switch (method.getName()) {
          case "toString" -> "SoapClient[" + endpoint.url() + "]";
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        };
      }
      SoapOperation operation = operations.computeIfAbsent(method, SoapOperation::of);
      return new SoapCall(operation, endpoint).invoke(args == null ? new Object[0] : args);
    }
  }
}

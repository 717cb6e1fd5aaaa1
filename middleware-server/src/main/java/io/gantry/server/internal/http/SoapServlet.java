package io.gantry.server.internal.http;

import io.gantry.server.internal.logging.JobLog;
import jakarta.jws.WebService;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import javax.xml.namespace.QName;
import org.apache.cxf.Bus;
import org.apache.cxf.binding.soap.Soap12;
import org.apache.cxf.binding.soap.SoapBindingConfiguration;
import org.apache.cxf.interceptor.Interceptor;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.logging.FaultListener;
import org.apache.cxf.message.Message;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;

/**
 * CXF's servlet transport with Gantry's endpoints published on its own bus. Publishing on the
 * servlet's bus (not CXF's default one, and not CXF's own Jetty transport) keeps every endpoint
 * inside the one Jetty context that also serves the web pages, behind the same connectors, TLS and
 * authentication.
 */
final class SoapServlet extends CXFNonSpringServlet {
  private static final long serialVersionUID = 1L;

  /** Where the SOAP 1.2 binding of every endpoint is published, below {@code /services}. */
  static final String SOAP12_PREFIX = "/soap12";

  private final transient List<SoapEndpoint> endpoints;
  private final transient List<Interceptor<? extends Message>> inInterceptors;
  private final transient ConcurrentRequestLimit requestLimit;

  /** {@code inInterceptors} run on every endpoint's requests: authentication, when enabled. */
  SoapServlet(
      List<SoapEndpoint> endpoints,
      List<Interceptor<? extends Message>> inInterceptors,
      ConcurrentRequestLimit requestLimit) {
    this.endpoints = List.copyOf(endpoints);
    this.inInterceptors = List.copyOf(inInterceptors);
    this.requestLimit = requestLimit;
  }

  /** A request's job and user ({@link JobLogInterceptor}) stay off the thread's next request. */
  @Override
  protected void invoke(HttpServletRequest request, HttpServletResponse response)
      throws ServletException {
    try {
      super.invoke(request, response);
    } finally {
      JobLog.clear();
    }
  }

  @Override
  protected void loadBus(ServletConfig servletConfig) {
    super.loadBus(servletConfig);
    Bus bus = getBus();
    for (SoapEndpoint endpoint : endpoints) {
      publish(bus, endpoint, endpoint.path(), false);
      publish(bus, endpoint, SOAP12_PREFIX + endpoint.path(), true);
    }
  }

  /**
   * The SOAP 1.2 binding of an endpoint: the same service, port type and messages, bound as {@code
   * <Service>Soap12Binding} and published as port {@code <Port>Soap12Port} below {@link
   * #SOAP12_PREFIX}. The checked-in WSDL contract holds both bindings and both ports.
   */
  private static void soap12(JaxWsServerFactoryBean factory, SoapEndpoint endpoint) {
    WebService service = endpoint.implementation().getClass().getAnnotation(WebService.class);
    SoapBindingConfiguration binding = new SoapBindingConfiguration();
    binding.setVersion(Soap12.getInstance());
    binding.setBindingName(
        new QName(service.targetNamespace(), service.serviceName() + "Soap12Binding"));
    factory.setBindingConfig(binding);
    factory.setEndpointName(
        new QName(service.targetNamespace(), service.portName().replace("Port", "Soap12Port")));
  }

  private void publish(Bus bus, SoapEndpoint endpoint, String path, boolean soap12) {
    JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
    factory.setBus(bus);
    factory.setServiceClass(endpoint.serviceInterface());
    factory.setServiceBean(endpoint.implementation());
    factory.setAddress(path);
    if (soap12) {
      soap12(factory, endpoint);
    }
    factory.getInInterceptors().addAll(inInterceptors);
    factory.getInInterceptors().add(requestLimit.acquire());
    factory.getInInterceptors().add(new JobLogInterceptor());
    factory.getOutInterceptors().add(requestLimit.release());
    factory.getOutFaultInterceptors().add(requestLimit.release());
    factory.getOutFaultInterceptors().add(new ClientFaultCodes());
    factory.getProperties(true).put(FaultListener.class.getName(), new CallerFaultLog());
    factory.create();
  }
}

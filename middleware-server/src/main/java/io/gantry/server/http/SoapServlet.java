package io.gantry.server.http;

import jakarta.servlet.ServletConfig;
import java.util.List;
import org.apache.cxf.Bus;
import org.apache.cxf.interceptor.Interceptor;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.message.Message;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;

/**
 * CXF's servlet transport with Gantry's endpoints published on its own bus. Publishing on the
 * servlet's bus (not CXF's default one, and not CXF's own Jetty transport) keeps every endpoint
 * inside the one Jetty context that also serves the web pages, behind the same connectors,
 * TLS and authentication.
 */
final class SoapServlet extends CXFNonSpringServlet {
  private static final long serialVersionUID = 1L;
  private final transient List<SoapEndpoint> endpoints;
  private final transient List<Interceptor<? extends Message>> inInterceptors;
  private final transient ConcurrentRequestLimit requestLimit;

  /** {@code inInterceptors} run on every endpoint's requests: authentication, when enabled. */
  SoapServlet(List<SoapEndpoint> endpoints, List<Interceptor<? extends Message>> inInterceptors,
      ConcurrentRequestLimit requestLimit) {
    this.endpoints = List.copyOf(endpoints);
    this.inInterceptors = List.copyOf(inInterceptors);
    this.requestLimit = requestLimit;
  }

  @Override
  protected void loadBus(ServletConfig servletConfig) {
    super.loadBus(servletConfig);
    Bus bus = getBus();
    for (SoapEndpoint endpoint : endpoints) {
      JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
      factory.setBus(bus);
      factory.setServiceClass(endpoint.serviceInterface());
      factory.setServiceBean(endpoint.implementation());
      factory.setAddress(endpoint.path());
      factory.getInInterceptors().addAll(inInterceptors);
      factory.getInInterceptors().add(requestLimit.acquire());
      factory.getOutInterceptors().add(requestLimit.release());
      factory.getOutFaultInterceptors().add(requestLimit.release());
      factory.getOutFaultInterceptors().add(new ClientFaultCodes());
      factory.create();
    }
  }
}

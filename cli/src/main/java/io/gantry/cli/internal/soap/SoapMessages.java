package io.gantry.cli.internal.soap;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import jakarta.xml.bind.Unmarshaller;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * SOAP 1.1 envelopes for one operation: the request wrapper marshalled into the body by JAXB, and
 * the response read back as the response wrapper, or as a fault (a declared one becomes its
 * generated exception with its fault bean, any other a {@link SoapFaultException}). The JAXB
 * context covers only the classes of the operations a command calls, which is most of why a command
 * starts quicker than with a full SOAP stack. Responses are parsed with DTDs and external entities
 * off.
 */
final class SoapMessages {
  static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final Map<SoapOperation, JAXBContext> CONTEXTS = new ConcurrentHashMap<>();
  private static final XMLInputFactory INPUT = hardenedInputFactory();
  private static final XMLOutputFactory OUTPUT = XMLOutputFactory.newDefaultFactory();

  private final SoapOperation operation;
  private final JAXBContext context;

  SoapMessages(SoapOperation operation) {
    this.operation = operation;
    this.context = CONTEXTS.computeIfAbsent(operation, SoapMessages::contextFor);
  }

  /** The request envelope carrying {@code wrapper}. */
  byte[] request(Object wrapper) throws JAXBException, XMLStreamException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    XMLStreamWriter xml = OUTPUT.createXMLStreamWriter(bytes, "UTF-8");
    xml.writeStartDocument("UTF-8", "1.0");
    xml.writeStartElement("soap", "Envelope", SOAP11);
    xml.writeNamespace("soap", SOAP11);
    xml.writeStartElement("soap", "Body", SOAP11);
    Marshaller marshaller = context.createMarshaller();
    marshaller.setProperty(Marshaller.JAXB_FRAGMENT, true);
    marshaller.marshal(element(operation.requestElement(), wrapper), xml);
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    xml.close();
    return bytes.toByteArray();
  }

  /**
   * The response wrapper in {@code body}; throws the declared fault, or {@link SoapFaultException},
   * when the body is a fault.
   */
  Object response(byte[] body) throws Exception {
    XMLStreamReader xml = INPUT.createXMLStreamReader(new ByteArrayInputStream(body));
    try {
      toBodyContent(xml);
      if (SOAP11.equals(xml.getNamespaceURI()) && "Fault".equals(xml.getLocalName())) {
        throw fault(xml);
      }
      Unmarshaller unmarshaller = context.createUnmarshaller();
      return unmarshaller.unmarshal(xml, operation.responseWrapper()).getValue();
    } finally {
      xml.close();
    }
  }

  /** The fault string of a fault body, or null when {@code body} is no SOAP fault. */
  static String faultString(byte[] body) {
    try {
      XMLStreamReader xml = INPUT.createXMLStreamReader(new ByteArrayInputStream(body));
      toBodyContent(xml);
      if (!"Fault".equals(xml.getLocalName())) {
        return null;
      }
      while (xml.hasNext()) {
        if (xml.next() == XMLStreamConstants.START_ELEMENT
            && "faultstring".equals(xml.getLocalName())) {
          return xml.getElementText().strip();
        }
      }
      return null;
    } catch (XMLStreamException | RuntimeException e) {
      return null;
    }
  }

  private Exception fault(XMLStreamReader xml) throws Exception {
    String code = "Server";
    String text = "";
    int depth = 1;
    while (depth > 0 && xml.hasNext()) {
      int event = xml.next();
      if (event == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (event == XMLStreamConstants.START_ELEMENT) {
        switch (xml.getLocalName()) {
          case "faultcode" -> code = localPart(xml.getElementText().strip());
          case "faultstring" -> text = xml.getElementText().strip();
          case "detail" -> {
            Exception declared = declaredFault(xml, text);
            if (declared != null) {
              return declared;
            }
            depth++;
          }
          default -> depth++;
        }
      }
    }
    return new SoapFaultException(code, text);
  }

  /** The declared fault whose detail element is inside the {@code detail} the reader is on. */
  private Exception declaredFault(XMLStreamReader xml, String text) throws Exception {
    xml.nextTag();
    if (!xml.isStartElement()) {
      return null;
    }
    QName detail = xml.getName();
    for (SoapOperation.DeclaredFault fault : operation.faults()) {
      if (fault.detailElement().equals(detail)) {
        Object info = context.createUnmarshaller().unmarshal(xml, fault.faultInfo()).getValue();
        Constructor<? extends Exception> constructor =
            fault.type().getConstructor(String.class, fault.faultInfo());
        return constructor.newInstance(text, info);
      }
    }
    return null;
  }

  /** Moves to the first element inside soap:Body. */
  private static void toBodyContent(XMLStreamReader xml) throws XMLStreamException {
    while (xml.hasNext()) {
      if (xml.next() == XMLStreamConstants.START_ELEMENT
          && SOAP11.equals(xml.getNamespaceURI())
          && "Body".equals(xml.getLocalName())) {
        xml.nextTag();
        if (!xml.isStartElement()) {
          throw new XMLStreamException("the SOAP body is empty");
        }
        return;
      }
    }
    throw new XMLStreamException("not a SOAP 1.1 envelope");
  }

  private static String localPart(String qualified) {
    int colon = qualified.indexOf(':');
    return colon < 0 ? qualified : qualified.substring(colon + 1);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // the wrapper's class is only known at run time
  private static JAXBElement<?> element(QName name, Object wrapper) {
    return new JAXBElement(name, wrapper.getClass(), wrapper);
  }

  private static JAXBContext contextFor(SoapOperation operation) {
    try {
      return JAXBContext.newInstance(operation.boundClasses());
    } catch (JAXBException e) {
      throw new IllegalStateException(
          "cannot bind the messages of " + operation.name() + ": " + e, e);
    }
  }

  private static XMLInputFactory hardenedInputFactory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return factory;
  }
}

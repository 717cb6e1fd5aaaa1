package io.gantry.jsdl;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * A chain document (docs/workflows.md, "A chain submitted as one unit"): {@code gx:JobChain}
 * holding several standard {@code jsdl:JobDefinition}s, the chain's stages. A stage is named by its
 * {@code JobName}; inside the chain a stage names another by that name where a job id stands: in
 * {@code gx:After}, {@code gx:AfterAny} and {@code gx:AfterStart}, and as the job of a {@code
 * gantry-job:STAGE/FILE} Source. JSDL 1.0 (GFD.56) describes one job and leaves the relations
 * between jobs to other languages, so the wrapper is Gantry's; every stage is a JSDL document as
 * {@code gantry submit} takes it, checked by the same parser once its stage names are replaced by
 * job ids ({@link #document}).
 */
public final class JobChain {
  /** The root element's local name, in the {@link JsdlNamespaces#GANTRY} namespace. */
  public static final String ELEMENT = "JobChain";

  /** The most stages one chain holds. */
  public static final int MAX_STAGES = 50;

  /**
   * A stage's name: a word, which never has the form of a job id (32 characters of a-z, 2-7), so
   * that a reference is a stage or a job but never both.
   */
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9._-]{0,63}");

  private static final Pattern JOB_ID = Pattern.compile("[A-Za-z2-7]{32}");

  /**
   * One stage: its name, the stages it names (it waits for or reads from), the template parameters
   * it declares, and its {@code JobDefinition} as written.
   */
  public record Stage(String name, Set<String> upstream, Set<String> parameters, Element element) {}

  private final List<Stage> stages;
  private final Map<String, String> namespaces;

  private JobChain(List<Stage> stages, Map<String, String> namespaces) {
    this.stages = stages;
    this.namespaces = namespaces;
  }

  /** Whether {@code root} is a chain document's root element. */
  public static boolean isChain(Element root) {
    return root != null
        && JsdlNamespaces.GANTRY.equals(root.getNamespaceURI())
        && ELEMENT.equals(root.getLocalName());
  }

  /**
   * Reads a chain.
   *
   * @throws IllegalArgumentException saying what is wrong, naming the stage: no stages, a stage
   *     without a name or with a name two stages share, an element other than a JobDefinition, a
   *     stage waiting for itself or stages waiting for each other
   */
  public static JobChain read(Element root) {
    if (!isChain(root)) {
      throw new IllegalArgumentException("a chain document's root is gx:" + ELEMENT);
    }
    Map<String, Element> byName = new LinkedHashMap<>();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n.getNodeType() == Node.TEXT_NODE && !n.getTextContent().isBlank()) {
        throw new IllegalArgumentException("gx:JobChain holds only jsdl:JobDefinition elements");
      }
      if (!(n instanceof Element e)) {
        continue;
      }
      if (!JsdlNamespaces.JSDL.equals(e.getNamespaceURI())
          || !"JobDefinition".equals(e.getLocalName())) {
        throw new IllegalArgumentException(
            "gx:JobChain holds only jsdl:JobDefinition elements, not " + e.getTagName());
      }
      String name = jobName(e);
      if (name == null) {
        throw new IllegalArgumentException(
            "stage "
                + (byName.size() + 1)
                + " of the chain has no JobName; each stage is named by its"
                + " JobDescription/JobIdentification/JobName");
      }
      if (!NAME.matcher(name).matches() || JOB_ID.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "the stage name '"
                + name
                + "' must be a letter then up to 63 letters, digits, '.', '_' or '-', and not"
                + " 32 characters that read as a job id");
      }
      if (byName.putIfAbsent(name, e) != null) {
        throw new IllegalArgumentException(
            "two stages of the chain are named " + name + "; each stage needs its own JobName");
      }
      if (byName.size() > MAX_STAGES) {
        throw new IllegalArgumentException(
            "the chain has more than " + MAX_STAGES + " stages; split it");
      }
    }
    if (byName.isEmpty()) {
      throw new IllegalArgumentException("the chain holds no jsdl:JobDefinition");
    }
    Map<String, Stage> read = new LinkedHashMap<>();
    byName.forEach(
        (name, e) -> {
          Set<String> upstream = new LinkedHashSet<>();
          for (String ref : references(e)) {
            if (byName.containsKey(ref)) {
              upstream.add(ref);
            }
          }
          if (upstream.contains(name)) {
            throw new IllegalArgumentException("stage " + name + " waits for or reads itself");
          }
          read.put(name, new Stage(name, upstream, parameters(e), e));
        });
    return new JobChain(ordered(read), namespaces(root));
  }

  /** The stages, each after every stage it names (in the chain's order where free). */
  public List<Stage> stages() {
    return stages;
  }

  /** The stages' names, in the order {@link #stages()} gives them. */
  public List<String> names() {
    return stages.stream().map(Stage::name).toList();
  }

  /**
   * The stage as a JSDL document of its own, each stage it names replaced by its job id from {@code
   * jobIds} (stage name to id): the text of a {@code gx:After}, {@code gx:AfterAny} or {@code
   * gx:AfterStart}, and the job of a {@code gantry-job:} URI. A name that is no stage of the chain
   * is left as written (the job's checks then say what is wrong with it). Namespace declarations of
   * the chain's root are carried onto the stage's root.
   */
  public String document(Stage stage, Map<String, String> jobIds) {
    Document doc = HardenedXml.newDocument();
    Element copy = (Element) doc.importNode(stage.element(), true);
    doc.appendChild(copy);
    namespaces.forEach(
        (attr, uri) -> {
          if (!copy.hasAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, localOf(attr))) {
            copy.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, attr, uri);
          }
        });
    for (Element e : dependencyElements(copy)) {
      String id = jobIds.get(e.getTextContent().strip());
      if (id != null) {
        e.setTextContent(id);
      }
    }
    for (Element e : uris(copy)) {
      String uri = e.getTextContent().strip();
      if (JobOutputUri.is(uri)) {
        String rest = uri.substring(JobOutputUri.SCHEME.length() + 1);
        int slash = rest.indexOf('/');
        String id = slash < 1 ? null : jobIds.get(rest.substring(0, slash));
        if (id != null) {
          e.setTextContent(JobOutputUri.SCHEME + ":" + id + rest.substring(slash));
        }
      }
    }
    return serialise(doc);
  }

  private static String localOf(String qname) {
    int colon = qname.indexOf(':');
    return colon < 0 ? qname : qname.substring(colon + 1);
  }

  private static String jobName(Element definition) {
    NodeList names = definition.getElementsByTagNameNS(JsdlNamespaces.JSDL, "JobName");
    if (names.getLength() == 0) {
      return null;
    }
    String name = names.item(0).getTextContent().strip();
    return name.isEmpty() ? null : name;
  }

  /** Every name or id the stage waits for or reads from. */
  private static Set<String> references(Element definition) {
    Set<String> refs = new LinkedHashSet<>();
    for (Element e : dependencyElements(definition)) {
      refs.add(e.getTextContent().strip());
    }
    for (Element e : uris(definition)) {
      String uri = e.getTextContent().strip();
      if (JobOutputUri.is(uri)) {
        String rest = uri.substring(JobOutputUri.SCHEME.length() + 1);
        int slash = rest.indexOf('/');
        if (slash > 0) {
          refs.add(rest.substring(0, slash));
        }
      }
    }
    return refs;
  }

  private static List<Element> dependencyElements(Element definition) {
    List<Element> all = new ArrayList<>();
    all.addAll(elements(definition, JsdlNamespaces.GANTRY, "After"));
    all.addAll(elements(definition, JsdlNamespaces.GANTRY, "AfterAny"));
    all.addAll(elements(definition, JsdlNamespaces.GANTRY, "AfterStart"));
    return all;
  }

  /** The URIs of the stage's DataStaging Sources (a gantry-job: URI stands only there). */
  private static List<Element> uris(Element definition) {
    return elements(definition, JsdlNamespaces.JSDL, "URI");
  }

  private static List<Element> elements(Element in, String namespace, String local) {
    NodeList found = in.getElementsByTagNameNS(namespace, local);
    List<Element> all = new ArrayList<>();
    for (int i = 0; i < found.getLength(); i++) {
      all.add((Element) found.item(i));
    }
    return all;
  }

  private static Set<String> parameters(Element definition) {
    Set<String> names = new LinkedHashSet<>();
    for (Element p : elements(definition, JsdlNamespaces.GANTRY, "Parameter")) {
      names.add(p.getAttribute("name"));
    }
    return names;
  }

  /** The xmlns attributes of the root (where a chain's writer declares its prefixes). */
  private static Map<String, String> namespaces(Element root) {
    Map<String, String> all = new LinkedHashMap<>();
    for (Node n = root; n instanceof Element e; n = n.getParentNode()) {
      NamedNodeMap attrs = e.getAttributes();
      for (int i = 0; i < attrs.getLength(); i++) {
        Attr a = (Attr) attrs.item(i);
        if (XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(a.getNamespaceURI())) {
          all.putIfAbsent(a.getName(), a.getValue());
        }
      }
    }
    return all;
  }

  /** Kahn's order: a stage after every stage it names; stages waiting for each other refused. */
  private static List<Stage> ordered(Map<String, Stage> stages) {
    List<Stage> order = new ArrayList<>();
    Set<String> placed = new LinkedHashSet<>();
    while (order.size() < stages.size()) {
      Stage ready =
          stages.values().stream()
              .filter(s -> !placed.contains(s.name()) && placed.containsAll(s.upstream()))
              .findFirst()
              .orElse(null);
      if (ready == null) {
        List<String> waiting =
            stages.keySet().stream().filter(n -> !placed.contains(n)).sorted().toList();
        throw new IllegalArgumentException(
            "stages " + String.join(", ", waiting) + " wait for each other (a cycle)");
      }
      order.add(ready);
      placed.add(ready.name());
    }
    return List.copyOf(order);
  }

  private static String serialise(Document doc) {
    try {
      Transformer t = HardenedXml.transformerFactory().newTransformer();
      t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
      StringWriter out = new StringWriter();
      t.transform(new DOMSource(doc), new StreamResult(out));
      return out.toString();
    } catch (TransformerException e) {
      throw new IllegalStateException("a stage cannot be written: " + e.getMessage(), e);
    }
  }
}

package io.gantry.jsdl;

import io.gantry.jsdl.model.core.CreationFlagEnumeration;
import io.gantry.jsdl.model.core.DataStagingType;
import io.gantry.jsdl.model.core.SourceTargetType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One standard JSDL {@code DataStaging} element as the server plans it, with the defaults of
 * omitted elements applied and its credentials read, so that no reader walks the JAXB model or
 * repeats a default. A Source makes it a stage-in, a Target a stage-out; it may be both.
 *
 * @param order its position among the job's DataStaging elements, from 1
 * @param fileName {@code FileName}, stripped: the file in the job directory (or file system)
 * @param fileSystemName {@code FilesystemName}, or empty: the named file system it lies in
 * @param creationFlag {@code CreationFlag}, overwrite when absent ({@link JsdlDefaults})
 * @param deleteOnTermination whether the file is removed after stage-out
 * @param source where stage-in reads from, if anywhere
 * @param target where stage-out writes to, if anywhere
 * @param cacheValidity Gantry's {@code gx:CacheValidity} extension element: how long the stage-in
 *     cache may serve the fetched file; empty: never cached
 * @param stream Gantry's {@code gx:Stream} extension element: the program reads this stage-in as it
 *     arrives, delivered so; empty: the program starts once the file is complete
 */
public record StagingStep(
    int order,
    String fileName,
    Optional<String> fileSystemName,
    CreationFlagEnumeration creationFlag,
    boolean deleteOnTermination,
    Optional<Endpoint> source,
    Optional<Endpoint> target,
    Optional<javax.xml.datatype.Duration> cacheValidity,
    Optional<StreamDelivery> stream) {

  /**
   * A Source or Target: its URI as written (stripped) and its login, if the element has one. An
   * element without a URI is no endpoint (the parser reports it).
   */
  public record Endpoint(String uri, Optional<StagingCredential> credential) {}

  /** The typed steps of {@code elements}, in document order. */
  public static List<StagingStep> of(List<DataStagingType> elements) {
    List<StagingStep> steps = new ArrayList<>();
    int order = 0;
    for (DataStagingType e : elements) {
      order++;
      steps.add(
          new StagingStep(
              order,
              e.getFileName() == null ? "" : e.getFileName().strip(),
              Optional.ofNullable(e.getFilesystemName()).map(String::strip),
              JsdlDefaults.creationFlag(e.getCreationFlag()),
              Boolean.TRUE.equals(e.isDeleteOnTermination()),
              endpoint(e.getSource()),
              endpoint(e.getTarget()),
              cacheValidity(e.getAny()),
              stream(e.getAny())));
    }
    return steps;
  }

  /** Where messages point: {@code DataStaging 2 (FileName market.csv)}. */
  public String where() {
    return "DataStaging " + order + " (FileName " + fileName + ")";
  }

  /**
   * The {@code gx:CacheValidity} among the extension content: JAXB's value where it bound the
   * declared element, else the text of a DOM element.
   */
  private static Optional<javax.xml.datatype.Duration> cacheValidity(List<Object> any) {
    for (Object o : any) {
      if (o instanceof jakarta.xml.bind.JAXBElement<?> e
          && e.getName()
              .equals(new javax.xml.namespace.QName(JsdlNamespaces.GANTRY, "CacheValidity"))
          && e.getValue() instanceof javax.xml.datatype.Duration d) {
        return Optional.of(d);
      }
      if (o instanceof org.w3c.dom.Element e
          && JsdlNamespaces.GANTRY.equals(e.getNamespaceURI())
          && "CacheValidity".equals(e.getLocalName())) {
        try {
          return Optional.of(
              javax.xml.datatype.DatatypeFactory.newDefaultInstance()
                  .newDuration(e.getTextContent().strip()));
        } catch (IllegalArgumentException x) {
          return Optional.empty(); // the schema check has reported it
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The {@code gx:Stream} among the extension content (a JAXB element or a DOM element); empty when
   * absent or not one of the deliveries (the parser reports that).
   */
  private static Optional<StreamDelivery> stream(List<Object> any) {
    for (Object o : any) {
      if (o instanceof jakarta.xml.bind.JAXBElement<?> e
          && e.getName().equals(new javax.xml.namespace.QName(JsdlNamespaces.GANTRY, "Stream"))) {
        return StreamDelivery.of(String.valueOf(e.getValue()));
      }
      if (o instanceof org.w3c.dom.Element e
          && JsdlNamespaces.GANTRY.equals(e.getNamespaceURI())
          && "Stream".equals(e.getLocalName())) {
        return StreamDelivery.of(e.getTextContent());
      }
    }
    return Optional.empty();
  }

  private static Optional<Endpoint> endpoint(SourceTargetType side) {
    if (side == null || side.getURI() == null || side.getURI().isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new Endpoint(side.getURI().strip(), StagingCredential.of(side.getAny())));
  }
}

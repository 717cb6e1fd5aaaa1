package io.gantry.jsdl;

import java.util.List;
import java.util.Optional;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The login of a standard {@code DataStaging} Source or Target, as the HPC File Staging Profile
 * (GFD.135) writes it: an {@code ac:Credential} element holding a WS-Security {@code
 * wsse:UsernameToken}, or, Gantry's addition, a {@code gx:IdentityRef} naming an SSH identity of
 * the server.
 *
 * <pre>{@code
 * <jsdl:Source>
 *   <jsdl:URI>https://files.example/market.csv</jsdl:URI>
 *   <ac:Credential xmlns:ac="http://schemas.ogf.org/hpcp/2007/11/ac">
 *     <wsse:UsernameToken xmlns:wsse="...oasis-200401-wss-wssecurity-secext-1.0.xsd">
 *       <wsse:Username>alice</wsse:Username>
 *       <wsse:Password>ENC(RSA-OAEP-256-v2:...)</wsse:Password>
 *     </wsse:UsernameToken>
 *   </ac:Credential>
 * </jsdl:Source>
 * }</pre>
 *
 * The password must be an encrypted value bound to the job's owner and the URI's destination
 * ({@link SecretBinding#uri}); a clear password is refused at validation.
 *
 * @param user the {@code Username}, or null (an identity reference may omit it)
 * @param password the {@code Password} text, or null
 * @param identityRef the named identity, or null
 */
public record StagingCredential(String user, String password, String identityRef) {
  /** GFD.135 HPC File Staging Profile's namespace of {@code Credential}. */
  public static final String HPC_FILE_STAGING = "http://schemas.ogf.org/hpcp/2007/11/ac";

  /** OASIS WS-Security 1.0 (wsse). */
  public static final String WSSE =
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

  /** Whether {@code e} is a credential element of a Source or Target. */
  public static boolean isCredential(Element e) {
    return e != null
        && HPC_FILE_STAGING.equals(e.getNamespaceURI())
        && "Credential".equals(e.getLocalName());
  }

  /** The credential among a Source's or Target's extension content (JAXB's {@code getAny()}). */
  public static Optional<StagingCredential> of(List<Object> extensionContent) {
    for (Object o : extensionContent) {
      if (o instanceof Element e && isCredential(e)) {
        return Optional.of(read(e));
      }
    }
    return Optional.empty();
  }

  /** Reads a {@code Credential} element. */
  public static StagingCredential read(Element credential) {
    Element token = child(credential, WSSE, "UsernameToken");
    Element ref = child(credential, JsdlNamespaces.GANTRY, "IdentityRef");
    return new StagingCredential(
        text(child(token, WSSE, "Username")), text(child(token, WSSE, "Password")), text(ref));
  }

  /** The {@code wsse:Password} element of a credential, for its position in messages. */
  public static Element passwordElement(Element credential) {
    return child(child(credential, WSSE, "UsernameToken"), WSSE, "Password");
  }

  static Element child(Element parent, String namespace, String name) {
    if (parent == null) {
      return null;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e
          && namespace.equals(e.getNamespaceURI())
          && name.equals(e.getLocalName())) {
        return e;
      }
    }
    return null;
  }

  private static String text(Element e) {
    return e == null ? null : e.getTextContent().strip();
  }

  @Override
  public String toString() {
    return "StagingCredential["
        + user
        + ", "
        + (password == null ? "no password" : "password")
        + ", "
        + identityRef
        + "]";
  }
}

package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.time.Instant;

/**
 * A session token (gantry login): sent as {@code Authorization: Bearer TOKEN} instead of a password
 * until it expires or is revoked. {@link #token} is the secret itself, present only in the answer
 * to {@code issueSessionToken}; listings carry the rest.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "SessionToken",
    propOrder = {"tokenId", "user", "description", "created", "expires", "token"})
public class SessionToken {
  /** Names the token in listings and for revokeSessionToken; not a secret. */
  @XmlElement(required = true)
  public String tokenId;

  @XmlElement(required = true)
  public String user;

  public String description;

  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant created;

  @XmlElement(required = true)
  @XmlJavaTypeAdapter(InstantAdapter.class)
  @XmlSchemaType(name = "dateTime")
  public Instant expires;

  /** The secret, only when just issued. */
  public String token;
}

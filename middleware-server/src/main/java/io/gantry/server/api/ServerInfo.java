package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** What a client needs to know about the server before submitting. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "ServerInfo", propOrder = {"version", "apiNamespace", "maxJobDefinitionBytes",
    "maxQueuedJobsPerUser", "totalSlots", "passwordPublicKey", "passwordKeyFingerprint"})
public class ServerInfo {
  @XmlElement(required = true) public String version;
  @XmlElement(required = true) public String apiNamespace;
  public long maxJobDefinitionBytes;
  public int maxQueuedJobsPerUser;
  public int totalSlots;
  /** PEM of the RSA public key that encrypts passwords in job descriptions, when enabled. */
  public String passwordPublicKey;
  /** SHA-256 fingerprint of that key, for users to check out of band. */
  public String passwordKeyFingerprint;
}

package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** What a client needs to know about the server before submitting. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "ServerInfo",
    propOrder = {
      "version",
      "apiNamespace",
      "maxJobDefinitionBytes",
      "maxQueuedJobsPerUser",
      "totalSlots",
      "passwordPublicKey",
      "passwordKeyFingerprint",
      "applications"
    })
public class ServerInfo {
  @XmlElement(required = true)
  public String version;

  @XmlElement(required = true)
  public String apiNamespace;

  public long maxJobDefinitionBytes;
  public int maxQueuedJobsPerUser;
  public int totalSlots;

  /** PEM of the RSA public key that encrypts passwords in job descriptions, when enabled. */
  public String passwordPublicKey;

  /** SHA-256 fingerprint of that key, for users to check out of band. */
  public String passwordKeyFingerprint;

  /**
   * The named applications the caller may run (optional in the contract: older servers send none).
   */
  @XmlElement(name = "application")
  public List<ApplicationInfo> applications = new ArrayList<>();

  /** A copy with the same settings and the given applications. */
  public ServerInfo withApplications(List<ApplicationInfo> offered) {
    ServerInfo copy = new ServerInfo();
    copy.version = version;
    copy.apiNamespace = apiNamespace;
    copy.maxJobDefinitionBytes = maxJobDefinitionBytes;
    copy.maxQueuedJobsPerUser = maxQueuedJobsPerUser;
    copy.totalSlots = totalSlots;
    copy.passwordPublicKey = passwordPublicKey;
    copy.passwordKeyFingerprint = passwordKeyFingerprint;
    copy.applications = new ArrayList<>(offered);
    return copy;
  }
}

package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** A user account as administrators see it: never its password or hash. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(
    name = "User",
    propOrder = {"name", "role", "osAccount"})
public class UserInfo {
  @XmlElement(required = true)
  public String name;

  /** "admin" or "user". */
  @XmlElement(required = true)
  public String role;

  /** The OS account the user's jobs run under; absent when jobs.default-os-account applies. */
  public String osAccount;

  public UserInfo() {}

  public UserInfo(String name, String role, String osAccount) {
    this.name = name;
    this.role = role;
    this.osAccount = osAccount;
  }
}

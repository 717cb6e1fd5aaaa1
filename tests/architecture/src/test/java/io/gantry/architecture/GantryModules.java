package io.gantry.architecture;

import java.util.List;

/** Gantry's modules as the architecture tests see them: each owns one root package. */
enum GantryModules {
  JSDL_SCHEMA("io.gantry.jsdl"),
  SOAP_CONTRACT("io.gantry.soap"),
  STAGING_GATEWAY("io.gantry.staging"),
  DISPATCHER("io.gantry.dispatcher"),
  MIDDLEWARE_SERVER("io.gantry.server"),
  WEBAPP_JSP("io.gantry.web"),
  CLI("io.gantry.cli"),
  TESTING_SUPPORT("io.gantry.testing");

  private final String rootPackage;

  GantryModules(String rootPackage) {
    this.rootPackage = rootPackage;
  }

  /** ArchUnit's pattern for the module's classes. */
  String classes() {
    return rootPackage + "..";
  }

  /** ArchUnit's pattern for the module's non-public code: any {@code internal} package in it. */
  String internals() {
    return rootPackage + "..internal..";
  }

  String rootPackage() {
    return rootPackage;
  }

  /** The patterns of the given modules' classes, for "resides in any of". */
  static String[] classesOf(List<GantryModules> modules) {
    return modules.stream().map(GantryModules::classes).toArray(String[]::new);
  }
}

package io.gantry.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest (set at package time); "development build" otherwise. */
final class GantryVersion implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = GantryVersion.class.getPackage().getImplementationVersion();
    return new String[] {"gantry " + (version == null ? "development build" : version)};
  }
}

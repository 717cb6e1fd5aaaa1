package io.gantry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static io.gantry.architecture.GantryModules.CLI;
import static io.gantry.architecture.GantryModules.DISPATCHER;
import static io.gantry.architecture.GantryModules.JSDL_SCHEMA;
import static io.gantry.architecture.GantryModules.MIDDLEWARE_SERVER;
import static io.gantry.architecture.GantryModules.SOAP_CONTRACT;
import static io.gantry.architecture.GantryModules.STAGING_GATEWAY;
import static io.gantry.architecture.GantryModules.TESTING_SUPPORT;
import static io.gantry.architecture.GantryModules.WEBAPP_JSP;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import io.gantry.architecture.violation.ReachesIntoAnotherModulesInternals;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/architecture.md, checked on every module's compiled main classes:
 * an {@code internal} package is used only inside its own module, and module dependencies run one
 * way (the root POM's comment lists them).
 */
class ModuleBoundariesTest {
  /** Which of our modules each module may use, besides itself. */
  private static final Map<GantryModules, List<GantryModules>> ALLOWED =
      Map.of(
          JSDL_SCHEMA, List.of(),
          SOAP_CONTRACT, List.of(),
          STAGING_GATEWAY, List.of(JSDL_SCHEMA),
          DISPATCHER, List.of(JSDL_SCHEMA),
          MIDDLEWARE_SERVER, List.of(JSDL_SCHEMA, SOAP_CONTRACT, STAGING_GATEWAY, DISPATCHER),
          WEBAPP_JSP,
              List.of(JSDL_SCHEMA, SOAP_CONTRACT, STAGING_GATEWAY, DISPATCHER, MIDDLEWARE_SERVER),
          CLI, List.of(JSDL_SCHEMA, SOAP_CONTRACT),
          TESTING_SUPPORT, List.of(SOAP_CONTRACT));

  private static JavaClasses gantry;

  @BeforeAll
  static void importEveryModule() {
    gantry =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.gantry");
  }

  private static ArchRule internalsStayInTheirModule() {
    return CompositeArchRule.of(
        Arrays.stream(GantryModules.values())
            .map(
                m ->
                    noClasses()
                        .that()
                        .resideOutsideOfPackage(m.classes())
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage(m.internals())
                        .because(
                            m.internals()
                                + " is "
                                + m.name().toLowerCase(java.util.Locale.ROOT)
                                + "'s own code, not part of its API"))
            .toList());
  }

  @Test
  void everyModulesClassesAreChecked() {
    // a rule over no classes would pass without proving anything
    for (GantryModules module : GantryModules.values()) {
      assertTrue(gantry.containPackage(module.rootPackage()), module + " was not imported");
    }
  }

  @Test
  void noModuleUsesAnotherModulesInternalPackages() {
    internalsStayInTheirModule().check(gantry);
  }

  @Test
  void theInternalsRuleFailsOnAClassThatReachesIntoAnotherModule() {
    JavaClasses offender =
        new ClassFileImporter().importClasses(ReachesIntoAnotherModulesInternals.class);
    AssertionError failure =
        assertThrows(AssertionError.class, () -> internalsStayInTheirModule().check(offender));
    assertTrue(
        failure.getMessage().contains("io.gantry.staging.internal.bgzf.CompressedFiles"),
        failure.getMessage());
  }

  @Test
  void moduleDependenciesRunOneWay() {
    for (GantryModules module : GantryModules.values()) {
      EnumSet<GantryModules> forbidden = EnumSet.complementOf(EnumSet.of(module));
      forbidden.removeAll(ALLOWED.get(module));
      if (forbidden.isEmpty()) {
        continue;
      }
      noClasses()
          .that()
          .resideInAPackage(module.classes())
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(GantryModules.classesOf(List.copyOf(forbidden)))
          .because(module + " may use only " + ALLOWED.get(module) + " of our modules")
          .check(gantry);
    }
  }
}

package io.gantry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.gantry.server.lobby.LeftOutsideInternal;
import org.junit.jupiter.api.Test;

/**
 * middleware-server's public face is small and listed: its entry points, the SOAP API and its
 * facade, the web face hook, the settings and the login the web application uses. Every other
 * server class is under {@code io.gantry.server.internal}, which ModuleBoundariesTest keeps out of
 * every other module. A new package of the server goes under {@code internal}, or into this list on
 * purpose (docs/architecture.md, "middleware-server's packages").
 */
class ServerPublicFaceTest {
  /** The server's public packages; each is named in docs/architecture.md. */
  static final String[] PUBLIC_FACE = {
    "io.gantry.server", // GantryServer, GantryServerCommand and gantry-server's commands
    "io.gantry.server.api", // the SOAP contract's types and JobManagementService, its facade
    "io.gantry.server.web", // WebFace, the hook webapp-jsp implements
    "io.gantry.server.config", // ServerConfig, what GantryServer.start takes
    "io.gantry.server.auth", // UserAuthenticator and UserAccount, the web application's login
  };

  private static ArchRule serverClassesArePublicFaceOrInternal() {
    String[] allowed = new String[PUBLIC_FACE.length + 1];
    System.arraycopy(PUBLIC_FACE, 0, allowed, 0, PUBLIC_FACE.length);
    allowed[PUBLIC_FACE.length] = "io.gantry.server.internal..";
    return classes()
        .that()
        .resideInAPackage("io.gantry.server..")
        .should()
        .resideInAnyPackage(allowed)
        .because("what is not middleware-server's public face belongs under internal");
  }

  @Test
  void everyServerClassIsInThePublicFaceOrUnderInternal() {
    JavaClasses server =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.gantry.server");
    assertTrue(server.containPackage("io.gantry.server.internal"), "no server class was imported");
    serverClassesArePublicFaceOrInternal().check(server);
  }

  @Test
  void theRuleFailsOnAServerPackageOutsideBoth() {
    JavaClasses offender = new ClassFileImporter().importClasses(LeftOutsideInternal.class);
    AssertionError failure =
        assertThrows(
            AssertionError.class, () -> serverClassesArePublicFaceOrInternal().check(offender));
    assertTrue(failure.getMessage().contains("LeftOutsideInternal"), failure.getMessage());
  }
}

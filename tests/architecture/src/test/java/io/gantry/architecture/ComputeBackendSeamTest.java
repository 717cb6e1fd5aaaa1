package io.gantry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.gantry.architecture.violation.BranchesOnTheBackendKind;
import io.gantry.server.config.ServerConfig;
import io.gantry.server.internal.compute.ComputeBackend;
import io.gantry.server.internal.compute.ComputeBackends;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The compute-backend seam of docs/architecture.md ("Compute backends"): only the backends and
 * their factory know which backend runs the jobs, so that adding a backend is one class in {@code
 * io.gantry.server.internal.compute.backends} and one registration in {@link ComputeBackends}.
 */
class ComputeBackendSeamTest {
  private static final String BACKENDS = "io.gantry.server.internal.compute.backends..";

  /** Where {@code compute.backend} is read and its settings checked. */
  private static final String CONFIGURATION = "io.gantry.server.config..";

  private static JavaClasses gantry;

  @BeforeAll
  static void importEveryModule() {
    gantry =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.gantry");
  }

  /**
   * The backend kind is read by the configuration and asked for by the factory only: no class
   * elsewhere calls {@code ServerConfig.Compute.backend()}, and the configuration has no type of
   * backend kinds to branch on.
   */
  private static ArchRule onlyTheFactoryBranchesOnTheBackendKind() {
    return noClasses()
        .that()
        .resideOutsideOfPackage(CONFIGURATION)
        .and()
        .doNotHaveFullyQualifiedName(ComputeBackends.class.getName())
        .should()
        .callMethod(ServerConfig.Compute.class, "backend")
        .because("which backend runs the jobs is the factory's business (docs/architecture.md)");
  }

  @Test
  void theConfigurationKnowsNoBackendByName() {
    // a new backend must not need a value added in the configuration: its registration names it
    noClasses()
        .that()
        .resideInAPackage(CONFIGURATION)
        .and()
        .areEnums()
        .should()
        .haveSimpleNameContaining("Backend")
        .because("the backends' registrations own their names and required settings")
        .check(gantry);
  }

  @Test
  void noClassButTheFactoryBranchesOnTheBackendKind() {
    onlyTheFactoryBranchesOnTheBackendKind().check(gantry);
  }

  @Test
  void theBackendKindRuleFailsOnAClassThatBranchesOnIt() {
    JavaClasses offender = new ClassFileImporter().importClasses(BranchesOnTheBackendKind.class);
    AssertionError failure =
        assertThrows(
            AssertionError.class, () -> onlyTheFactoryBranchesOnTheBackendKind().check(offender));
    assertTrue(
        failure.getMessage().contains("ServerConfig$Compute.backend()"), failure.getMessage());
  }

  @Test
  void theBackendsAreReachedOnlyThroughTheSeam() {
    noClasses()
        .that()
        .resideOutsideOfPackage(BACKENDS)
        .and()
        .doNotHaveFullyQualifiedName(ComputeBackends.class.getName())
        .should()
        .dependOnClassesThat()
        .resideInAPackage(BACKENDS)
        .because("the pipeline, task farms and worker sessions use ComputeBackend only")
        .check(gantry);
  }

  @Test
  void onlyTheBackendsStartOrFollowPrograms() {
    // the dispatcher's launchers and job supervisors belong to the backend that starts with them
    noClasses()
        .that()
        .resideInAPackage("io.gantry.server..")
        .and()
        .resideOutsideOfPackage(BACKENDS)
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.gantry.dispatcher.slurm.SlurmLauncher")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.gantry.dispatcher.LocalMpirunLauncher")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.gantry.dispatcher.HostsMpirunLauncher")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.gantry.dispatcher.PosixLauncher")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.gantry.dispatcher.DetachedJobs")
        .check(gantry);
  }

  @Test
  void everyBackendIsOneClassWithOneRegistration() {
    DescribedPredicate<JavaClass> concreteBackend =
        DescribedPredicate.describe(
            "concrete compute backends",
            c ->
                c.isAssignableTo(ComputeBackend.class)
                    && !c.isInterface()
                    && !c.getModifiers().contains(JavaModifier.ABSTRACT));
    classes()
        .that(concreteBackend)
        .should()
        .resideInAPackage(BACKENDS)
        .andShould()
        .onlyHaveDependentClassesThat()
        .haveFullyQualifiedName(ComputeBackends.class.getName())
        .check(gantry);
    // the registrations reach each backend through its static create(BackendContext)
    Set<String> registered =
        gantry.get(ComputeBackends.class).getDirectDependenciesFromSelf().stream()
            .map(d -> d.getTargetClass())
            .filter(concreteBackend)
            .map(JavaClass::getSimpleName)
            .collect(Collectors.toSet());
    Set<String> backends =
        gantry.stream()
            .filter(concreteBackend)
            .map(JavaClass::getSimpleName)
            .collect(Collectors.toSet());
    assertEquals(backends, registered, "a backend class without a registration");
    assertEquals(backends.size(), ComputeBackends.registered().size(), "one registration each");
    assertEquals(
        List.of("local", "mpirun-hosts", "slurm", "slurm over SSH"),
        ComputeBackends.registered().stream().map(ComputeBackends.Registration::name).toList());
  }
}

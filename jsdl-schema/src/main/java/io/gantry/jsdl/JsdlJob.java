package io.gantry.jsdl;

import io.gantry.jsdl.model.core.ApplicationType;
import io.gantry.jsdl.model.core.DataStagingType;
import io.gantry.jsdl.model.core.JobDefinitionType;
import io.gantry.jsdl.model.core.JobDescriptionType;
import io.gantry.jsdl.model.ext.DependenciesType;
import io.gantry.jsdl.model.ext.MpirunApplicationType;
import io.gantry.jsdl.model.ext.PostDataStagingType;
import io.gantry.jsdl.model.ext.PreDataStagingType;
import io.gantry.jsdl.model.ext.SCPDataStagingType;
import io.gantry.jsdl.model.ext.SQLQueryDataStagingType;
import io.gantry.jsdl.model.ext.SQLUpdateDataStagingType;
import io.gantry.jsdl.model.hpcpa.HPCProfileApplicationType;
import io.gantry.jsdl.model.posix.POSIXApplicationType;
import io.gantry.jsdl.model.spmd.SPMDApplicationType;
import jakarta.xml.bind.JAXBElement;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A valid job description: the generated JAXB model (root {@link #element()}) plus typed access to
 * what sits in JSDL's extension wildcards, where JAXB can only give {@code Object}s.
 */
public final class JsdlJob {
  private final JAXBElement<JobDefinitionType> element;
  private final io.gantry.jsdl.farm.TaskFarmSpec taskFarm;
  private final JobTemplate template;

  public JsdlJob(JAXBElement<JobDefinitionType> element) {
    this(element, null, null);
  }

  /**
   * A job that is a task farm ({@code taskFarm} non-null) or not, filled from a template ({@code
   * template} null for a document without parameters) or not.
   */
  public JsdlJob(
      JAXBElement<JobDefinitionType> element,
      io.gantry.jsdl.farm.TaskFarmSpec taskFarm,
      JobTemplate template) {
    this.element = element;
    this.taskFarm = taskFarm;
    this.template = template;
  }

  /**
   * The task farm this job runs (a GFD.149 Sweep or Gantry's TaskFarm), checked and counted; empty
   * for a job that runs its application once.
   */
  public Optional<io.gantry.jsdl.farm.TaskFarmSpec> taskFarm() {
    return Optional.ofNullable(taskFarm);
  }

  /** The template this job was filled from: its parameters and their values. */
  public Optional<JobTemplate> template() {
    return Optional.ofNullable(template);
  }

  /**
   * The parameter values bound to a stage-in query's or stage-out statement's {@code ?} markers
   * (marker number from 1 to value); empty for a statement without parameters. The other markers
   * bind the columns of each input row.
   */
  public SortedMap<Integer, String> boundValues(Object sqlStep) {
    if (template == null) {
      return Collections.emptySortedMap();
    }
    List<?> steps = sqlStep instanceof SQLUpdateDataStagingType ? sqlUpdates() : sqlQueries();
    List<SortedMap<Integer, String>> values =
        sqlStep instanceof SQLUpdateDataStagingType
            ? template.updateValues()
            : template.queryValues();
    for (int i = 0; i < steps.size() && i < values.size(); i++) {
      if (steps.get(i) == sqlStep) {
        return Collections.unmodifiableSortedMap(values.get(i));
      }
    }
    return Collections.emptySortedMap();
  }

  /** The JAXB root element, for marshalling or full access to the standard parts. */
  public JAXBElement<JobDefinitionType> element() {
    return element;
  }

  public JobDefinitionType definition() {
    return element.getValue();
  }

  public JobDescriptionType description() {
    return definition().getJobDescription();
  }

  /** JobIdentification/JobName, if given. */
  public Optional<String> jobName() {
    return Optional.ofNullable(description().getJobIdentification()).map(id -> id.getJobName());
  }

  /**
   * JobIdentification/JobProject, each as written: the projects the job is charged to (the server
   * accepts at most one).
   */
  public List<String> jobProjects() {
    return Optional.ofNullable(description().getJobIdentification())
        .map(id -> List.copyOf(id.getJobProject()))
        .orElse(List.of());
  }

  public Optional<MpirunApplicationType> mpirunApplication() {
    return applicationExtension(MpirunApplicationType.class);
  }

  /** The POSIXApplication that describes the program (see {@link #namedApplication}). */
  public Optional<POSIXApplicationType> posixApplication() {
    return applicationExtension(POSIXApplicationType.class)
        .filter(p -> p.getExecutable() != null || !hasApplicationName());
  }

  /** The SPMDApplication that describes the program (see {@link #namedApplication}). */
  public Optional<SPMDApplicationType> spmdApplication() {
    return applicationExtension(SPMDApplicationType.class)
        .filter(p -> p.getExecutable() != null || !hasApplicationName());
  }

  /** The HPCProfileApplication that describes the program (see {@link #namedApplication}). */
  public Optional<HPCProfileApplicationType> hpcProfileApplication() {
    return applicationExtension(HPCProfileApplicationType.class)
        .filter(p -> p.getExecutable() != null || !hasApplicationName());
  }

  private boolean hasApplicationName() {
    ApplicationType application = description().getApplication();
    return application != null && application.getApplicationName() != null;
  }

  /** True when the job has no Application at all: it only stages data (GFD.56 allows this). */
  public boolean stagingOnly() {
    return description().getApplication() == null;
  }

  /**
   * The ApplicationName when it is all the job says about its program (no application element, or
   * only a POSIX, SPMD or HPC Profile application without Executable, as UNICORE writes a job for
   * an application its site installs; its other settings are not used): the server resolves it in
   * its registry of named applications. Empty otherwise, also when an ApplicationName only labels a
   * POSIXApplication or the like that has its own Executable.
   */
  public Optional<String> namedApplication() {
    ApplicationType application = description().getApplication();
    if (application == null
        || application.getApplicationName() == null
        || hasApplicationElement()) {
      return Optional.empty();
    }
    return Optional.of(application.getApplicationName().strip());
  }

  /** ApplicationVersion, stripped, if given. */
  public Optional<String> applicationVersion() {
    return Optional.ofNullable(description().getApplication())
        .map(ApplicationType::getApplicationVersion)
        .map(String::strip);
  }

  private boolean hasApplicationElement() {
    return mpirunApplication().isPresent()
        || posixApplication().isPresent()
        || spmdApplication().isPresent()
        || hpcProfileApplication().isPresent();
  }

  /** Standard JSDL DataStaging elements (URIs), in document order. */
  public List<DataStagingType> dataStaging() {
    return description().getDataStaging();
  }

  /** The same DataStaging elements, typed and with defaults applied: what planners read. */
  public List<StagingStep> stagingSteps() {
    return StagingStep.of(dataStaging());
  }

  /**
   * Stage-in steps in document order: {@link SCPDataStagingType} and {@link
   * SQLQueryDataStagingType}; empty without a PreDataStaging.
   */
  public List<Object> preDataStaging() {
    return extension(description().getAny(), PreDataStagingType.class)
        .map(PreDataStagingType::getSteps)
        .orElse(List.of());
  }

  /**
   * Stage-out steps in document order: {@link SCPDataStagingType} and {@link
   * SQLUpdateDataStagingType}; empty without a PostDataStaging.
   */
  public List<Object> postDataStaging() {
    return extension(description().getAny(), PostDataStagingType.class)
        .map(PostDataStagingType::getSteps)
        .orElse(List.of());
  }

  public List<SQLQueryDataStagingType> sqlQueries() {
    return only(preDataStaging(), SQLQueryDataStagingType.class);
  }

  public List<SQLUpdateDataStagingType> sqlUpdates() {
    return only(postDataStaging(), SQLUpdateDataStagingType.class);
  }

  public List<SCPDataStagingType> scpStageIn() {
    return only(preDataStaging(), SCPDataStagingType.class);
  }

  public List<SCPDataStagingType> scpStageOut() {
    return only(postDataStaging(), SCPDataStagingType.class);
  }

  /**
   * The job's {@code gx:Dependencies}: the jobs it waits for and whether it is held when submitted;
   * empty when the document has none.
   */
  public Optional<DependenciesType> dependencies() {
    return extension(description().getAny(), DependenciesType.class);
  }

  /** Ids of the jobs that must have SUCCEEDED before this one starts ({@code gx:After}). */
  public List<String> afterJobs() {
    return dependencies().map(DependenciesType::getAfter).orElse(List.of());
  }

  /**
   * Ids of the jobs that must have ended, however, before this one starts ({@code gx:AfterAny}).
   */
  public List<String> afterAnyJobs() {
    return dependencies().map(DependenciesType::getAfterAny).orElse(List.of());
  }

  /**
   * Ids of the jobs whose program must have started before this one starts ({@code gx:AfterStart}):
   * this job reads their {@code gantry-job:} files while they are written.
   */
  public List<String> afterStartJobs() {
    return dependencies().map(DependenciesType::getAfterStart).orElse(List.of());
  }

  /** Whether the document asks for the job to be held when submitted ({@code gx:Hold}). */
  public boolean heldAtSubmission() {
    return dependencies().map(d -> JsdlDefaults.isOn(d.getHold())).orElse(false);
  }

  /**
   * The priority class the job asks for ({@code gx:Queue}); empty: the server's default class. The
   * server decides whether the class exists and the submitter may use it.
   */
  public Optional<String> queueClass() {
    javax.xml.namespace.QName queue = new javax.xml.namespace.QName(JsdlNamespaces.GANTRY, "Queue");
    for (Object item : description().getAny()) {
      if (item instanceof JAXBElement<?> e
          && e.getName().equals(queue)
          && e.getValue() instanceof String name) {
        return Optional.of(name.strip());
      }
    }
    return Optional.empty();
  }

  private <T> Optional<T> applicationExtension(Class<T> type) {
    ApplicationType application = description().getApplication();
    return application == null ? Optional.empty() : extension(application.getAny(), type);
  }

  /** The first wildcard item of the type; JAXB wraps global elements of named types. */
  private static <T> Optional<T> extension(List<Object> any, Class<T> type) {
    for (Object item : any) {
      Object value = item instanceof JAXBElement<?> e ? e.getValue() : item;
      if (type.isInstance(value)) {
        return Optional.of(type.cast(value));
      }
    }
    return Optional.empty();
  }

  private static <T> List<T> only(List<Object> steps, Class<T> type) {
    return steps.stream().filter(type::isInstance).map(type::cast).toList();
  }
}

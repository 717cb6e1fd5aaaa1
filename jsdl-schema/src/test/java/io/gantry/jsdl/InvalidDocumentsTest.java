package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case breaks the valid base job (src/test/resources/.../base-job.jsdl) in one way and pins
 * the exact report: line:column, path and words. Replacements keep the line count, so the line
 * numbers can be read off the base file.
 */
class InvalidDocumentsTest {
  private static final String S = "JobDefinition/JobDescription/";
  private static final String MPI = S + "Application/MpirunApplication";
  private static final String PRE = S + "PreDataStaging/";
  private static final String POST = S + "PostDataStaging/";
  private static final String POSIX_NS = "http://schemas.ggf.org/jsdl/2005/11/jsdl-posix";

  /** A broken document: pairs of (text in the base job, its replacement), and the report. */
  @SuppressWarnings("ArrayRecordComponent") // a test case's varargs; never compared or hashed
  record Case(String name, String expected, String... edits) {
    @Override
    public String toString() {
      return name;
    }

    String document() {
      String document = JsdlDocuments.baseJob();
      for (int i = 0; i < edits.length; i += 2) {
        int at = document.indexOf(edits[i]);
        assertTrue(
            at >= 0 && document.indexOf(edits[i], at + 1) < 0,
            name + ": edit must match once: " + edits[i]);
        document = document.replace(edits[i], edits[i + 1]);
      }
      return document;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            "missing SQL statement",
            "line 58:9 "
                + PRE
                + "SQLQueryDataStaging[3]: SQLStatement is missing (found SQLOutputFileName in its place)",
            "<gx:SQLStatement>SELECT price FROM quote WHERE id = ? -- one row per id</gx:SQLStatement>",
            ""),
        new Case(
            "blank SQL statement",
            "line 37:9 " + PRE + "SQLQueryDataStaging[1]/SQLStatement: must not be empty",
            "SELECT id FROM book WHERE name = 'A?'",
            "   "),
        new Case(
            "zero processes",
            "line 14:9 " + MPI + "/NumberOfProcesses: must be at least 1, not 0",
            "<gx:NumberOfProcesses>8<",
            "<gx:NumberOfProcesses>0<"),
        new Case(
            "process count not a number",
            "line 14:9 " + MPI + "/NumberOfProcesses: 'eight' is not a whole number",
            "<gx:NumberOfProcesses>8<",
            "<gx:NumberOfProcesses>eight<"),
        new Case(
            "process count too large",
            "line 14:9 "
                + MPI
                + "/NumberOfProcesses: '99999999999' is too large; the largest allowed is 2147483647",
            "<gx:NumberOfProcesses>8<",
            "<gx:NumberOfProcesses>99999999999<"),
        new Case(
            "execution order group zero",
            "line 36:9 "
                + PRE
                + "SQLQueryDataStaging[1]/ExecutionOrderGroup: must be at least 1, not 0",
            "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id",
            "<gx:ExecutionOrderGroup>0</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id"),
        new Case(
            "input produced by the same group",
            "line 49:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLInputFileName: 'ids.csv' is produced by group 1 ("
                + PRE
                + "SQLQueryDataStaging[1]), which does not run before this query's group 1;"
                + " move the producer to a lower ExecutionOrderGroup",
            "<gx:ExecutionOrderGroup>2<",
            "<gx:ExecutionOrderGroup>1<"),
        new Case(
            "input produced by a later group",
            "line 49:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLInputFileName: 'ids.csv' is produced by group 4 ("
                + PRE
                + "SQLQueryDataStaging[1]), which does not run before this query's group 2;"
                + " move the producer to a lower ExecutionOrderGroup\n"
                + "line 59:9 "
                + PRE
                + "SQLQueryDataStaging[3]/SQLInputFileName: './ids.csv' is produced by group 4 ("
                + PRE
                + "SQLQueryDataStaging[1]), which does not run before this query's group 3;"
                + " move the producer to a lower ExecutionOrderGroup",
            "<gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id",
            "<gx:ExecutionOrderGroup>4</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id"),
        new Case(
            "cache key query that writes",
            "line 52:71 "
                + PRE
                + "SQLQueryDataStaging[2]/CacheKeyQuery: CacheKeyQuery reads data; this query is a DELETE statement;"
                + " stage-in SQL must be exactly one query: SELECT, WITH ... SELECT or VALUES",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression><gx:CacheKeyQuery>DELETE FROM quote</gx:CacheKeyQuery>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>"),
        new Case(
            "cache key query with a parameter",
            "line 52:71 "
                + PRE
                + "SQLQueryDataStaging[2]/CacheKeyQuery: must have no ? parameters: it runs once, before the extract,"
                + " with nothing to bind",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression><gx:CacheKeyQuery>SELECT max(id) FROM quote WHERE id > ?</gx:CacheKeyQuery>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>"),
        new Case(
            "negative cache validity",
            "line 52:71 "
                + PRE
                + "SQLQueryDataStaging[2]/CacheValidity: must not be negative; PT0S means never cached",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression><gx:CacheValidity>-PT1H</gx:CacheValidity>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>"),
        new Case(
            "cache validity not a duration",
            "line 52:71 "
                + PRE
                + "SQLQueryDataStaging[2]/CacheValidity: '4 hours' is not a valid duration",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>",
            "<gx:SQLOutputFileCompression>yes</gx:SQLOutputFileCompression><gx:CacheValidity>4 hours</gx:CacheValidity>\n      </gx:SQLQueryDataStaging>\n      <gx:SQLQueryDataStaging>"),
        new Case(
            "input produced by nobody",
            "line 49:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLInputFileName: 'books.csv' is not produced by an earlier"
                + " ExecutionOrderGroup; it must be the SQLOutputFileName of a query in a lower group",
            "<gx:SQLInputFileName>ids.csv<",
            "<gx:SQLInputFileName>books.csv<"),
        new Case(
            "input file leaves the job directory",
            "line 49:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLInputFileName: '../ids.csv' leaves the job directory"
                + " ('..' is not allowed in file names)",
            "<gx:SQLInputFileName>ids.csv<",
            "<gx:SQLInputFileName>../ids.csv<"),
        new Case(
            "absolute output file",
            "line 58:9 "
                + PRE
                + "SQLQueryDataStaging[3]/SQLOutputFileName: '/tmp/quotes.csv' is an absolute path;"
                + " staged files live in the job directory, so give a path relative to it (e.g. 'quotes.csv')",
            "<gx:SQLOutputFileName>quotes.csv<",
            "<gx:SQLOutputFileName>/tmp/quotes.csv<"),
        new Case(
            "windows drive output file",
            "line 58:9 "
                + PRE
                + "SQLQueryDataStaging[3]/SQLOutputFileName: 'C:\\data\\quotes.csv' is an absolute path;"
                + " staged files live in the job directory, so give a path relative to it (e.g. 'quotes.csv')",
            "<gx:SQLOutputFileName>quotes.csv<",
            "<gx:SQLOutputFileName>C:\\data\\quotes.csv<"),
        new Case(
            "two queries write one file",
            "line 58:9 "
                + PRE
                + "SQLQueryDataStaging[3]/SQLOutputFileName: 'ids.csv' is also written by "
                + PRE
                + "SQLQueryDataStaging[1]; each query needs its own output file",
            "<gx:SQLOutputFileName>quotes.csv<",
            "<gx:SQLOutputFileName>ids.csv<"),
        new Case(
            "plain-text remote password",
            "line 29:9 "
                + PRE
                + "SCPDataStaging/RemotePassword: holds a plain-text password; encrypt it with"
                + " `gantry encrypt-password --for-user USER --for-destination DESTINATION` and paste the"
                + " ENC(RSA-OAEP-256-v2:...) value it prints,"
                + " or name an SSH key with IdentityRef",
            "<gx:RemotePassword>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:RemotePassword>iluv1bm"),
        new Case(
            "encrypted password not base64",
            "line 29:9 "
                + PRE
                + "SCPDataStaging/RemotePassword: value has a ciphertext that is not valid base64 inside"
                + " ENC(RSA-OAEP-256-v2:...); make a new one with `gantry encrypt-password --for-user USER"
                + " --for-destination DESTINATION`, or name an SSH key with IdentityRef",
            "<gx:RemotePassword>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:RemotePassword>ENC(RSA-OAEP-256-v2:alice:dUBoOjIy:not*base64)"),
        new Case(
            "encrypted password in the old unbound form",
            "line 29:9 "
                + PRE
                + "SCPDataStaging/RemotePassword: value is in the old form ENC(RSA-OAEP-256:...), which"
                + " is not bound to a user and a destination and is no longer accepted; encrypt the password again"
                + " with `gantry encrypt-password --for-user USER --for-destination DESTINATION` (or type it into"
                + " the wizard again), or name an SSH key with IdentityRef",
            "<gx:RemotePassword>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:RemotePassword>ENC(RSA-OAEP-256:AAAA)"),
        new Case(
            "encrypted password too short",
            "line 29:9 "
                + PRE
                + "SCPDataStaging/RemotePassword: value has a ciphertext of 3 bytes; a value from a"
                + " 3072-bit or 4096-bit key has 384 or 512 bytes; make a new one with `gantry encrypt-password --for-user USER"
                + " --for-destination DESTINATION`,"
                + " or name an SSH key with IdentityRef",
            "<gx:RemotePassword>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:RemotePassword>ENC(RSA-OAEP-256-v2:alice:dUBoOjIy:AAAA)"),
        new Case(
            "encrypted password of another algorithm",
            "line 29:9 "
                + PRE
                + "SCPDataStaging/RemotePassword: value is not in the encrypted form"
                + " ENC(RSA-OAEP-256-v2:USER:DESTINATION:...); make a new one with `gantry encrypt-password --for-user USER"
                + " --for-destination DESTINATION`, or name an SSH key with IdentityRef",
            "<gx:RemotePassword>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:RemotePassword>ENC(DES:AAAA)"),
        new Case(
            "plain-text database password",
            "line 44:11 "
                + PRE
                + "SQLQueryDataStaging[2]/DataSource/Password: holds a plain-text password; encrypt it"
                + " with `gantry encrypt-password --for-user USER --for-destination DESTINATION` and paste the"
                + " ENC(RSA-OAEP-256-v2:...) value it prints,"
                + " or use DataSourceRef to name a data source configured on the server",
            "<gx:Password>" + JsdlDocuments.DUMMY_ENCRYPTED,
            "<gx:Password>secret"),
        new Case(
            "receive in stage-in",
            "line 24:9 "
                + PRE
                + "SCPDataStaging/Direction: must be transmit in PreDataStaging"
                + " (stage-in copies files into the job directory)",
            "<gx:Direction>transmit<",
            "<gx:Direction>receive<"),
        new Case(
            "unknown direction",
            "line 24:9 "
                + PRE
                + "SCPDataStaging/Direction: 'upload' is not allowed; use one of transmit, receive",
            "<gx:Direction>transmit<",
            "<gx:Direction>upload<"),
        new Case(
            "unknown protocol",
            "line 25:9 "
                + PRE
                + "SCPDataStaging/Protocol: 'ftp' is not allowed; use one of scp, sftp",
            "<gx:Protocol>sftp<",
            "<gx:Protocol>ftp<"),
        new Case(
            "port out of range",
            "line 27:9 "
                + PRE
                + "SCPDataStaging/RemotePort: must be a TCP port from 1 to 65535, not 70000",
            "<gx:RemotePort>2222<",
            "<gx:RemotePort>70000<"),
        new Case(
            "arranging order zero",
            "line 23:9 " + PRE + "SCPDataStaging/ArrangingOrder: must be at least 1, not 0",
            "<gx:ArrangingOrder>1</gx:ArrangingOrder>\n        <gx:Direction>transmit",
            "<gx:ArrangingOrder>0</gx:ArrangingOrder>\n        <gx:Direction>transmit"),
        new Case(
            "stage-in target outside the job directory",
            "line 31:9 "
                + PRE
                + "SCPDataStaging/TargetFileName: '/home/jdoe/hosts.txt' is an absolute path;"
                + " staged files live in the job directory, so give a path relative to it (e.g. 'hosts.txt')",
            "<gx:TargetFileName>hosts.txt<",
            "<gx:TargetFileName>/home/jdoe/hosts.txt<"),
        new Case(
            "stage-out source leaves the job directory",
            "line 77:9 "
                + POST
                + "SCPDataStaging/SourceFileName: 'out/../../secret' leaves the job directory"
                + " ('..' is not allowed in file names)",
            "<gx:SourceFileName>out/report.txt<",
            "<gx:SourceFileName>out/../../secret<"),
        new Case(
            "working directory outside the job directory",
            "line 11:9 "
                + MPI
                + "/WorkingDirectory: '/bgl/jdoe/bin' is outside the job directory and no other"
                + " directory is allowed on this server; give a path relative to the job directory",
            "<gx:WorkingDirectory>run<",
            "<gx:WorkingDirectory>/bgl/jdoe/bin<"),
        new Case(
            "host file leaves the job directory",
            "line 15:9 "
                + MPI
                + "/HostFile: '../hosts.txt' leaves the job directory ('..' is not allowed in file names)",
            "<gx:HostFile>hosts.txt<",
            "<gx:HostFile>../hosts.txt<"),
        new Case(
            "two application kinds",
            "line 19:30 "
                + S
                + "Application/POSIXApplication: a second application kind (POSIXApplication after"
                + " MpirunApplication); keep exactly one",
            "</gx:MpirunApplication>",
            "</gx:MpirunApplication><p:POSIXApplication xmlns:p=\""
                + POSIX_NS
                + "\"><p:Executable>x</p:Executable>"
                + "</p:POSIXApplication>"),
        new Case(
            "application kind missing",
            "line 8:5 "
                + S
                + "Application: no application to run; give an ApplicationName the server offers"
                + " (gantry applications lists them) or exactly one of POSIXApplication, HPCProfileApplication,"
                + " SPMDApplication or MpirunApplication, or leave Application out for a job that only stages data",
            "<gx:MpirunApplication>",
            "<o:BatchApplication xmlns:o=\"urn:other\">",
            "</gx:MpirunApplication>",
            "</o:BatchApplication>"),
        new Case(
            "mpirun application in the job description",
            "line 21:1 "
                + S
                + "MpirunApplication: MpirunApplication does not belong in JobDescription; it goes inside Application",
            "    <gx:PreDataStaging>",
            "<gx:MpirunApplication><gx:Executable>x</gx:Executable><gx:NumberOfProcesses>1</gx:NumberOfProcesses>"
                + "</gx:MpirunApplication><gx:PreDataStaging>"),
        new Case(
            "posix element straight in the application",
            "line 9:1 "
                + S
                + "Application/Executable: Executable does not belong directly in Application",
            "      <gx:MpirunApplication>",
            "<p:Executable xmlns:p=\"" + POSIX_NS + "\">x</p:Executable><gx:MpirunApplication>"),
        new Case(
            "second stage-out list",
            "line 80:22 "
                + S
                + "PostDataStaging[2]: only one PostDataStaging is allowed; put all stage-out steps in the first",
            "    </gx:PostDataStaging>",
            "</gx:PostDataStaging><gx:PostDataStaging><gx:SCPDataStaging><gx:ArrangingOrder>1</gx:ArrangingOrder>"
                + "<gx:Direction>receive</gx:Direction><gx:RemoteHostName>h</gx:RemoteHostName><gx:RemoteUserId>u"
                + "</gx:RemoteUserId><gx:IdentityRef>k</gx:IdentityRef><gx:SourceFileName>a</gx:SourceFileName>"
                + "<gx:TargetFileName>b</gx:TargetFileName></gx:SCPDataStaging></gx:PostDataStaging>"),
        new Case(
            "empty stage-out list",
            "line 62:1 "
                + S
                + "PostDataStaging: one of SCPDataStaging or SQLUpdateDataStaging is missing",
            "    <gx:PostDataStaging>",
            "<gx:PostDataStaging></gx:PostDataStaging><!--",
            "    </gx:PostDataStaging>",
            "-->"),
        new Case(
            "stage-out step in stage-in",
            "line 54:7 "
                + PRE
                + "SQLUpdateDataStaging: unexpected element SQLUpdateDataStaging here;"
                + " expected SCPDataStaging or SQLQueryDataStaging",
            "<gx:SQLQueryDataStaging>\n        <gx:DataSourceRef>market</gx:DataSourceRef>\n        <gx:ExecutionOrderGroup>3",
            "<gx:SQLUpdateDataStaging>\n        <gx:DataSourceRef>market</gx:DataSourceRef>\n        <gx:ExecutionOrderGroup>3",
            "one row per id</gx:SQLStatement>\n        <gx:SQLOutputFileName>quotes.csv</gx:SQLOutputFileName>\n"
                + "        <gx:SQLInputFileName>./ids.csv</gx:SQLInputFileName>\n      </gx:SQLQueryDataStaging>",
            "one row per id</gx:SQLStatement>\n        <gx:SQLInputFileName>./ids.csv</gx:SQLInputFileName>\n"
                + "        <gx:SQLInputFileCompression>no</gx:SQLInputFileCompression>\n      </gx:SQLUpdateDataStaging>"),
        new Case(
            "stage-out statement is a query",
            "line 66:9 "
                + POST
                + "SQLUpdateDataStaging/SQLStatement: SQLUpdateDataStaging writes results; this"
                + " SQLStatement is a SELECT statement; stage-out SQL must be exactly one INSERT, UPDATE, MERGE or DELETE",
            "INSERT INTO result (id, value) VALUES (?, ?)",
            "SELECT * FROM result WHERE id = ? AND value = ?"),
        new Case(
            "stage-in statement writes",
            "line 37:9 "
                + PRE
                + "SQLQueryDataStaging[1]/SQLStatement: SQLQueryDataStaging reads data; this"
                + " SQLStatement is a DELETE statement; stage-in SQL must be exactly one query: SELECT, WITH ... SELECT or VALUES",
            "SELECT id FROM book WHERE name = 'A?'",
            "DELETE FROM book"),
        new Case(
            "parameters without an input file",
            "line 37:9 "
                + PRE
                + "SQLQueryDataStaging[1]/SQLStatement: has 2 ? parameter(s) but there is no"
                + " SQLInputFileName whose rows bind them",
            "WHERE name = 'A?'",
            "WHERE name = ? OR id = ?"),
        new Case(
            "input file without parameters",
            "line 47:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLStatement: has no ? parameters, so the rows of"
                + " SQLInputFileName have nothing to bind; add the parameters or remove SQLInputFileName",
            "WHERE book_id = ?",
            "WHERE book_id = 7"),
        new Case(
            "stage-out statement without parameters",
            "line 66:9 "
                + POST
                + "SQLUpdateDataStaging/SQLStatement: has no ? parameters, so the rows of"
                + " SQLInputFileName have nothing to bind; add the parameters or remove SQLInputFileName",
            "VALUES (?, ?)",
            "VALUES (1, 2)"),
        new Case(
            "batch size zero",
            "line 69:9 " + POST + "SQLUpdateDataStaging/BatchSize: must be at least 1, not 0",
            "<gx:BatchSize>500<",
            "<gx:BatchSize>0<"),
        new Case(
            "stage-out without input file",
            "line 68:9 "
                + POST
                + "SQLUpdateDataStaging/SQLInputFileCompression: unexpected element"
                + " SQLInputFileCompression here; expected SQLInputFileName",
            "<gx:SQLInputFileName>out/result.csv.gz</gx:SQLInputFileName>",
            ""),
        new Case(
            "misspelt element",
            "line 32:9 "
                + PRE
                + "SCPDataStaging/Compresion: unexpected element Compresion here; expected Compression or CacheValidity",
            "<gx:Compression>no</gx:Compression>",
            "<gx:Compresion>no</gx:Compresion>"),
        new Case(
            "host file after verbosity",
            "line 16:39 "
                + MPI
                + "/HostFile: unexpected element HostFile here; expected MpirunOption, WallTimeLimit,"
                + " StdoutFileName, StderrFileName or an extension element from another namespace",
            "<gx:HostFile>hosts.txt</gx:HostFile>",
            "",
            "<gx:Verbosity>2</gx:Verbosity>",
            "<gx:Verbosity>2</gx:Verbosity><gx:HostFile>hosts.txt</gx:HostFile>"),
        new Case(
            "host file and partition",
            "line 15:45 "
                + MPI
                + "/Partition: unexpected element Partition here; expected Verbosity, MpirunOption,"
                + " WallTimeLimit, StdoutFileName, StderrFileName or an extension element from another namespace",
            "<gx:HostFile>hosts.txt</gx:HostFile>",
            "<gx:HostFile>hosts.txt</gx:HostFile><gx:Partition>p1</gx:Partition>"),
        new Case(
            "password and identity",
            "line 29:"
                + (48 + JsdlDocuments.DUMMY_ENCRYPTED.length())
                + " "
                + PRE
                + "SCPDataStaging/IdentityRef: unexpected element IdentityRef here; expected SourceFileName",
            "</gx:RemotePassword>",
            "</gx:RemotePassword><gx:IdentityRef>k</gx:IdentityRef>"),
        new Case(
            "no data source",
            "line 36:9 "
                + PRE
                + "SQLQueryDataStaging[1]/ExecutionOrderGroup: unexpected element ExecutionOrderGroup"
                + " here; expected DataSourceRef or DataSource",
            "<gx:DataSourceRef>market</gx:DataSourceRef>\n        <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id",
            "\n        <gx:ExecutionOrderGroup>1</gx:ExecutionOrderGroup>\n        <gx:SQLStatement>SELECT id"),
        new Case(
            "environment without a name",
            "line 13:9 " + MPI + "/Environment: attribute name is missing",
            "<gx:Environment name=\"OMP_NUM_THREADS\">",
            "<gx:Environment>"),
        new Case(
            "environment name with a space",
            "line 13:9 "
                + MPI
                + "/Environment: attribute name: 'OMP THREADS' is not a valid name"
                + " (letters, digits, '.', '-', '_'; no spaces or colons)",
            "name=\"OMP_NUM_THREADS\"",
            "name=\"OMP THREADS\""),
        new Case(
            "LD_PRELOAD in the environment",
            "line 13:9 "
                + MPI
                + "/Environment: environment variable LD_PRELOAD is reserved: names starting with"
                + " LD_ steer the loader, the C library, Open MPI or Gantry itself; jobs may not set them"
                + " (reserved prefixes: LD_, GLIBC_, MALLOC_, OMPI_, OPAL_, ORTE_, PMIX_, PRTE_, HWLOC_, GANTRY_)",
            "name=\"OMP_NUM_THREADS\"",
            "name=\"LD_PRELOAD\""),
        new Case(
            "PATH in the environment",
            "line 13:9 "
                + MPI
                + "/Environment: environment variable PATH is set by the server (or steers how"
                + " programs are loaded) and a job may not set it",
            "name=\"OMP_NUM_THREADS\"",
            "name=\"PATH\""),
        new Case(
            "HOME in the environment",
            "line 13:9 "
                + MPI
                + "/Environment: environment variable HOME is set by the server (or steers how"
                + " programs are loaded) and a job may not set it",
            "name=\"OMP_NUM_THREADS\"",
            "name=\"HOME\""),
        new Case(
            "an Open MPI parameter in the environment",
            "line 13:9 "
                + MPI
                + "/Environment: environment variable OMPI_MCA_plm_rsh_agent is reserved: names"
                + " starting with OMPI_ steer the loader, the C library, Open MPI or Gantry itself; jobs may not"
                + " set them (reserved prefixes: LD_, GLIBC_, MALLOC_, OMPI_, OPAL_, ORTE_, PMIX_, PRTE_, HWLOC_, GANTRY_)",
            "name=\"OMP_NUM_THREADS\"",
            "name=\"OMPI_MCA_plm_rsh_agent\""),
        new Case(
            "an mpirun option that starts another program",
            "line 17:9 "
                + MPI
                + "/MpirunOption[1]: mpirun option '--prefix' is not among the options a job"
                + " may set (one option or value per MpirunOption element; allowed: --bind-to, --cpus-per-proc,"
                + " --cpus-per-rank, --display-allocation, --display-map, --map-by, --mca, --merge-stderr-to-stdout,"
                + " --nolocal, --npernode, --npersocket, --quiet, --rank-by, --report-bindings, --tag-output,"
                + " --timestamp-output, --use-hwthread-cpus, --verbose, -q, -v)",
            "<gx:MpirunOption>--bind-to</gx:MpirunOption>",
            "<gx:MpirunOption>--prefix</gx:MpirunOption>"),
        new Case(
            "an MCA parameter that names the remote shell",
            "line 17:49 "
                + MPI
                + "/MpirunOption[2]: mpirun option '--mca plm_rsh_agent' sets a parameter outside"
                + " the tunable frameworks [btl, pml, mtl, coll, osc, io, fcoll, fs, sharedfp, mpi, oob_tcp]",
            "<gx:MpirunOption>--bind-to</gx:MpirunOption><gx:MpirunOption>core</gx:MpirunOption>",
            "<gx:MpirunOption>--mca</gx:MpirunOption><gx:MpirunOption>plm_rsh_agent</gx:MpirunOption>"
                + "<gx:MpirunOption>/job/evil</gx:MpirunOption>"),
        new Case(
            "unknown attribute",
            "line 10:9 " + MPI + "/Executable: attribute mode is not allowed here",
            "<gx:Executable>",
            "<gx:Executable mode=\"fast\">"),
        new Case(
            "negative verbosity",
            "line 16:9 " + MPI + "/Verbosity: must be at least 0, not -1",
            "<gx:Verbosity>2<",
            "<gx:Verbosity>-1<"),
        new Case(
            "zero wall time",
            "line 18:9 " + MPI + "/WallTimeLimit: must be at least 1, not 0",
            "<gx:WallTimeLimit>600<",
            "<gx:WallTimeLimit>0<"),
        new Case(
            "compression neither yes nor no",
            "line 32:9 "
                + PRE
                + "SCPDataStaging/Compression: 'maybe' is not allowed; use one of yes, no, true, false",
            "<gx:Compression>no<",
            "<gx:Compression>maybe<"),
        new Case(
            "unknown creation flag",
            "line 50:9 "
                + PRE
                + "SQLQueryDataStaging[2]/SQLOutputFileCreationFlag: 'keep' is not allowed;"
                + " use one of overwrite, dontOverwrite, append",
            "<gx:SQLOutputFileCreationFlag>dontOverwrite<",
            "<gx:SQLOutputFileCreationFlag>keep<"),
        new Case(
            "text between staging elements",
            "line 22:7 "
                + PRE
                + "SCPDataStaging: text is not allowed directly inside SCPDataStaging; put it in a child element",
            "<gx:SCPDataStaging>\n        <gx:ArrangingOrder>1</gx:ArrangingOrder>\n        <gx:Direction>transmit",
            "<gx:SCPDataStaging>oops\n        <gx:ArrangingOrder>1</gx:ArrangingOrder>\n        <gx:Direction>transmit"),
        new Case(
            "wrong root element",
            "line 2:1 Job: the root element must be JobDefinition in the JSDL namespace"
                + " http://schemas.ggf.org/jsdl/2005/11/jsdl, not Job in http://schemas.ggf.org/jsdl/2005/11/jsdl",
            "<jsdl:JobDefinition ",
            "<jsdl:Job ",
            "</jsdl:JobDefinition>",
            "</jsdl:Job>"),
        new Case(
            "root without a namespace",
            "line 2:1 JobDefinition: the root element must be JobDefinition in the JSDL namespace"
                + " http://schemas.ggf.org/jsdl/2005/11/jsdl, not JobDefinition without a namespace",
            "<jsdl:JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\"",
            "<JobDefinition xmlns:jsdl=\"http://schemas.ggf.org/jsdl/2005/11/jsdl\"",
            "</jsdl:JobDefinition>",
            "</JobDefinition>"),
        new Case(
            "mismatched end tag",
            "line 32:29 the document is not well-formed XML: The element type \"gx:Compression\" must be terminated"
                + " by the matching end-tag \"</gx:Compression>\".",
            "no</gx:Compression>",
            "no</gx:Compressio>"),
        new Case(
            "misspelt Gantry element in the job description",
            "line 21:5 "
                + S
                + "PreDataStage: unknown Gantry element PreDataStage; in JobDescription Gantry's"
                + " namespace has only Dependencies, Notify, Parameters, PostDataStaging, PreDataStaging, Queue and TaskFarm",
            "<gx:PreDataStaging>",
            "<gx:PreDataStage>",
            "</gx:PreDataStaging>",
            "</gx:PreDataStage>"),
        new Case(
            "missing executable",
            "line 11:9 " + MPI + ": Executable is missing (found WorkingDirectory in its place)",
            "<gx:Executable>/opt/risk/bin/mcvar</gx:Executable>",
            ""));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void reportsTheExactProblemAndLine(Case broken) {
    ParseResult result = new JsdlParser().parse(broken.document());
    assertFalse(result.isValid(), broken.name() + " should be invalid");
    assertTrue(result.job().isEmpty());
    String errors =
        result.report().errors().stream().map(Problem::toString).collect(Collectors.joining("\n"));
    assertEquals(broken.expected(), errors, broken.name());
  }

  @Test
  void theBaseJobIsValid() {
    ParseResult result = new JsdlParser().parse(JsdlDocuments.baseJob());
    assertEquals("", result.report().toString());
  }

  @Test
  void thereAreAtLeastFortyInvalidDocuments() {
    assertTrue(cases().size() >= 40, "only " + cases().size());
  }
}

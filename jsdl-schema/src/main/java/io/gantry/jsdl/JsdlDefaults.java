package io.gantry.jsdl;

import io.gantry.jsdl.model.core.CreationFlagEnumeration;
import io.gantry.jsdl.model.ext.ProtocolType;
import io.gantry.jsdl.model.ext.SCPDataStagingType;
import io.gantry.jsdl.model.ext.YesNoType;

/**
 * The values an omitted optional element stands for. JAXB leaves an absent element null (XML Schema
 * defaults apply only to elements that are present), so readers of the model ask here: the server's
 * planner, the wizard that pre-fills its fields with them, the command line.
 */
public final class JsdlDefaults {
  public static final int SSH_PORT = 22;

  /** {@code Protocol} of an scp/sftp step. */
  public static final ProtocolType PROTOCOL = ProtocolType.SCP;

  /** {@code CreationFlag} / {@code SQLOutputFileCreationFlag}: GFD.56 says overwrite. */
  public static final CreationFlagEnumeration CREATION_FLAG = CreationFlagEnumeration.OVERWRITE;

  /** The program's standard output in the job directory when the job names no file. */
  public static final String STDOUT_FILE = "stdout.txt";

  /** The program's standard error in the job directory when the job names no file. */
  public static final String STDERR_FILE = "stderr.txt";

  private JsdlDefaults() {}

  /** scp unless the step says sftp. */
  public static ProtocolType protocol(SCPDataStagingType step) {
    return step.getProtocol() == null ? PROTOCOL : step.getProtocol();
  }

  public static int port(SCPDataStagingType step) {
    return step.getRemotePort() == null ? SSH_PORT : step.getRemotePort();
  }

  /** The flag as written, or overwrite when the element is absent. */
  public static CreationFlagEnumeration creationFlag(CreationFlagEnumeration flag) {
    return flag == null ? CREATION_FLAG : flag;
  }

  /** yes and true mean compressed; no, false and an absent element mean plain. */
  public static boolean isOn(YesNoType flag) {
    return flag == YesNoType.YES || flag == YesNoType.TRUE;
  }
}

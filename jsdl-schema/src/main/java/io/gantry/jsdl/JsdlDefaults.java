package io.gantry.jsdl;

import io.gantry.jsdl.model.ext.ProtocolType;
import io.gantry.jsdl.model.ext.SCPDataStagingType;
import io.gantry.jsdl.model.ext.YesNoType;

/**
 * The values an omitted optional element stands for. JAXB leaves an absent element null (XML
 * Schema defaults apply only to elements that are present), so readers of the model ask here.
 */
public final class JsdlDefaults {
  public static final int SSH_PORT = 22;

  private JsdlDefaults() {}

  /** scp unless the step says sftp. */
  public static ProtocolType protocol(SCPDataStagingType step) {
    return step.getProtocol() == null ? ProtocolType.SCP : step.getProtocol();
  }

  public static int port(SCPDataStagingType step) {
    return step.getRemotePort() == null ? SSH_PORT : step.getRemotePort();
  }

  /** yes and true mean compressed; no, false and an absent element mean plain. */
  public static boolean isOn(YesNoType flag) {
    return flag == YesNoType.YES || flag == YesNoType.TRUE;
  }
}

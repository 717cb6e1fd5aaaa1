/**
 * VaR results written into a results database as the nightly jobs' stage-out leaves them: {@link
 * io.gantry.testing.risk.VarResultRows}.
 */
package io.gantry.testing.risk;

/**
 * Accounting and quotas (docs/operations.md, "Accounting and quotas"): the report of what jobs used
 * per user or per project, for {@code gantry-server accounting} and the administrators' SOAP
 * operation, and the quotas a submission is checked against. What each job used is the job store's
 * ({@link io.gantry.server.internal.jobstore.JobAccounting}).
 */
package io.gantry.server.internal.accounting;

/**
 * The job operations behind the SOAP facade ({@link io.gantry.server.api.JobManagementService}):
 * submission, the stored jobs, their files, and who may see which job ({@link
 * io.gantry.server.internal.service.VisibleJobs}). Schedules, users, session tokens and worker
 * sessions are services of their own beside these.
 */
package io.gantry.server.internal.service;

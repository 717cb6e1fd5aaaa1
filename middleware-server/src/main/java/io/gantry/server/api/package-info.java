/**
 * The SOAP job-management contract: the service interface, its message types and typed faults.
 *
 * <p>Document/literal wrapped, WS-I Basic Profile, one versioned namespace ({@link
 * JobManagement#NAMESPACE}). Element and type names are part of the published contract: the WSDL
 * they produce is checked in (module soap-contract, {@code io/gantry/soap/JobManagement.wsdl}) and
 * a test fails when the served WSDL drifts from it.
 */
@XmlSchema(namespace = JobManagement.NAMESPACE, elementFormDefault = XmlNsForm.QUALIFIED)
package io.gantry.server.api;

import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;

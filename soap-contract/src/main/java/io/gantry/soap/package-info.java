/**
 * The SOAP contract shared by the server and its clients: the WSDL ({@link
 * io.gantry.soap.SoapContract}) and how a client trusts the server's certificate ({@link
 * io.gantry.soap.FingerprintTrustManager}).
 */
package io.gantry.soap;

/** The web application: login, submission wizard, job and result pages. */
package io.gantry.web;

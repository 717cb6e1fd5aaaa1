package io.gantry.jsdl;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What filling a job template gave: the parameters it declares, the value each one got, and the
 * values bound to each SQL statement. Present on a {@link JsdlJob} whose document declares {@code
 * gx:Parameters}.
 *
 * <p>In an {@code SQLStatement}, <code>${name}</code> is never spliced into the SQL text: it
 * becomes a JDBC {@code ?} marker bound to the value. The statement's markers are numbered 1, 2,
 * ... in the order they stand; {@link #queryValues()} and {@link #updateValues()} give, for each
 * statement, the value of every marker that was a parameter. The other markers, the {@code ?}
 * written as such, bind the columns of each SQLInputFileName row, in order.
 *
 * @param source the document as submitted, before filling (UTF-8 XML): what the job store keeps
 * @param declared the declared parameters, in document order
 * @param values every declared parameter's value (given or default), canonical, in document order
 * @param queryValues per {@code SQLQueryDataStaging}, in document order: marker index to value
 * @param updateValues per {@code SQLUpdateDataStaging}, in document order: marker index to value
 */
public record JobTemplate(
    String source,
    List<JobParameter> declared,
    Map<String, String> values,
    List<SortedMap<Integer, String>> queryValues,
    List<SortedMap<Integer, String>> updateValues) {}

package io.gantry.jsdl.internal;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which functions staging SQL may call. An allow-list, not only a deny-list: H2 and PostgreSQL have
 * hundreds of functions and new releases add more, and several run SQL given as a string ({@code
 * query_to_xml}, {@code ts_stat}, {@code cursor_to_xml}) and so would carry any denied call past a
 * check that only knows names to refuse. The deny-list below still exists, but only to say in plain
 * words why a well-known dangerous function is refused.
 */
final class SqlFunctions {
  static final String NOT_ALLOWED = "is not among the functions staging SQL may call";

  private SqlFunctions() {}

  /** Pure functions of their arguments (and the clock): aggregates, windows, math, text, dates. */
  static final Set<String> ALLOWED =
      Set.of(
          // aggregates
          "COUNT",
          "SUM",
          "AVG",
          "MIN",
          "MAX",
          "STDDEV",
          "STDDEV_POP",
          "STDDEV_SAMP",
          "VARIANCE",
          "VAR_POP",
          "VAR_SAMP",
          "EVERY",
          "BOOL_AND",
          "BOOL_OR",
          "ANY_VALUE",
          "STRING_AGG",
          "LISTAGG",
          "ARRAY_AGG",
          "MEDIAN",
          "MODE",
          "PERCENTILE_CONT",
          "PERCENTILE_DISC",
          "CORR",
          "COVAR_POP",
          "COVAR_SAMP",
          "REGR_SLOPE",
          "REGR_INTERCEPT",
          "REGR_COUNT",
          "REGR_R2",
          "REGR_AVGX",
          "REGR_AVGY",
          "REGR_SXX",
          "REGR_SYY",
          "REGR_SXY",
          "BIT_AND",
          "BIT_OR",
          "BIT_XOR",
          // window functions
          "ROW_NUMBER",
          "RANK",
          "DENSE_RANK",
          "PERCENT_RANK",
          "CUME_DIST",
          "NTILE",
          "LAG",
          "LEAD",
          "FIRST_VALUE",
          "LAST_VALUE",
          "NTH_VALUE",
          "RATIO_TO_REPORT",
          // numbers
          "ABS",
          "SIGN",
          "CEIL",
          "CEILING",
          "FLOOR",
          "ROUND",
          "TRUNC",
          "TRUNCATE",
          "MOD",
          "POWER",
          "POW",
          "SQRT",
          "CBRT",
          "EXP",
          "LN",
          "LOG",
          "LOG10",
          "PI",
          "RADIANS",
          "DEGREES",
          "SIN",
          "COS",
          "TAN",
          "COT",
          "ASIN",
          "ACOS",
          "ATAN",
          "ATAN2",
          "SINH",
          "COSH",
          "TANH",
          "GREATEST",
          "LEAST",
          "WIDTH_BUCKET",
          "DIV",
          "RANDOM",
          "RAND",
          // text
          "LENGTH",
          "CHAR_LENGTH",
          "CHARACTER_LENGTH",
          "OCTET_LENGTH",
          "BIT_LENGTH",
          "LOWER",
          "UPPER",
          "LCASE",
          "UCASE",
          "INITCAP",
          "TRIM",
          "LTRIM",
          "RTRIM",
          "BTRIM",
          "LPAD",
          "RPAD",
          "SUBSTRING",
          "SUBSTR",
          "POSITION",
          "LOCATE",
          "INSTR",
          "STRPOS",
          "REPLACE",
          "TRANSLATE",
          "CONCAT",
          "CONCAT_WS",
          "LEFT",
          "RIGHT",
          "REPEAT",
          "REVERSE",
          "SPLIT_PART",
          "REGEXP_REPLACE",
          "REGEXP_LIKE",
          "REGEXP_SUBSTR",
          "ASCII",
          "CHR",
          "CHAR",
          "STARTS_WITH",
          "MD5",
          "UTF8TOSTRING",
          "STRINGTOUTF8",
          // conversion and formatting
          "CAST",
          "TO_CHAR",
          "TO_NUMBER",
          "TO_DATE",
          "TO_TIMESTAMP",
          "FORMATDATETIME",
          "PARSEDATETIME",
          // dates and times
          "NOW",
          "CURRENT_DATE",
          "CURRENT_TIME",
          "CURRENT_TIMESTAMP",
          "LOCALTIME",
          "LOCALTIMESTAMP",
          "DATE_TRUNC",
          "DATE_PART",
          "EXTRACT",
          "DATEADD",
          "DATEDIFF",
          "TIMESTAMPADD",
          "TIMESTAMPDIFF",
          "YEAR",
          "MONTH",
          "DAY",
          "DAYOFWEEK",
          "DAYOFMONTH",
          "DAYOFYEAR",
          "HOUR",
          "MINUTE",
          "SECOND",
          "QUARTER",
          "WEEK",
          "ISO_WEEK",
          "ISO_YEAR",
          "ISO_DAY_OF_WEEK",
          "DAYNAME",
          "MONTHNAME",
          "AGE",
          "MAKE_DATE",
          "MAKE_TIMESTAMP",
          "LAST_DAY",
          "ADD_MONTHS",
          // conditionals
          "COALESCE",
          "NULLIF",
          "IFNULL",
          "NVL",
          "NVL2",
          "DECODE",
          // arrays and row generators
          "ARRAY_LENGTH",
          "CARDINALITY",
          "UNNEST",
          "ARRAY_CONTAINS",
          "GENERATE_SERIES",
          "SYSTEM_RANGE");

  /**
   * Well-known dangerous functions, with the reason a user reads; an operator cannot allow these.
   * Functions that are merely not pure ({@code pg_sleep}, which holds a pooled connection) are
   * simply not on the allow-list, and {@code staging.sql-functions} may add them.
   */
  private static final Map<String, String> DENIED =
      Map.ofEntries(
          Map.entry("FILE_READ", "reads files on the database server"),
          Map.entry("FILE_WRITE", "writes files on the database server"),
          Map.entry("CSVREAD", "reads files on the database server"),
          Map.entry("CSVWRITE", "writes files on the database server"),
          Map.entry("LINK_SCHEMA", "connects the database to another database"),
          Map.entry("LINK_TABLE", "connects the database to another database"),
          Map.entry("DATABASE_PATH", "tells where the database files are"),
          Map.entry("SET", "changes session variables"),
          Map.entry("CANCEL_SESSION", "stops other sessions"),
          Map.entry("ABORT_SESSION", "stops other sessions"),
          Map.entry("PG_READ_FILE", "reads files on the database server"),
          Map.entry("PG_READ_BINARY_FILE", "reads files on the database server"),
          Map.entry("PG_LS_DIR", "lists directories on the database server"),
          Map.entry("PG_STAT_FILE", "inspects files on the database server"),
          Map.entry("LO_IMPORT", "reads files on the database server"),
          Map.entry("LO_EXPORT", "writes files on the database server"),
          Map.entry("LO_FROM_BYTEA", "creates large objects"),
          Map.entry("LO_PUT", "writes large objects"),
          Map.entry("LO_GET", "reads large objects of other users"),
          Map.entry("DBLINK", "connects the database to another database"),
          Map.entry("DBLINK_EXEC", "connects the database to another database"),
          Map.entry("DBLINK_CONNECT", "connects the database to another database"),
          Map.entry("SET_CONFIG", "changes server settings"),
          Map.entry("CURRENT_SETTING", "reads server settings"),
          Map.entry("PG_TERMINATE_BACKEND", "stops other sessions"),
          Map.entry("PG_CANCEL_BACKEND", "stops other sessions"),
          Map.entry("PG_RELOAD_CONF", "reloads the server's configuration"),
          Map.entry("QUERY_TO_XML", "runs SQL given as text, past these checks"),
          Map.entry("CURSOR_TO_XML", "runs SQL given as text, past these checks"),
          Map.entry("TS_STAT", "runs SQL given as text, past these checks"),
          Map.entry("NEXTVAL", "changes a sequence"),
          Map.entry("SETVAL", "changes a sequence"));

  /**
   * Why {@code name} may not be called, or empty. Schema-qualified names are refused: a function in
   * a schema of the user's choice is whatever someone defined there.
   */
  static Optional<String> problem(String name, Set<String> extraAllowed) {
    String upper = name.strip().replace("\"", "").toUpperCase(Locale.ROOT);
    if (upper.contains(".")) {
      return Optional.of(
          "calls "
              + name
              + ", a function named with its schema; staging SQL may"
              + " call only the built-in functions listed in jsdl-schema/README.md");
    }
    String why = DENIED.get(upper);
    if (why != null) {
      return Optional.of("calls " + upper + ", which " + why);
    }
    if (ALLOWED.contains(upper) || extraAllowed.contains(upper)) {
      return Optional.empty();
    }
    return Optional.of(
        "calls "
            + name
            + ", which "
            + NOT_ALLOWED
            + " (jsdl-schema/README.md lists them; an operator may add more with staging.sql-functions)");
  }
}

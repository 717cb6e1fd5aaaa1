package io.gantry.server.internal.jobstore.jdbc;

/**
 * SQL for records owned by a user (jobs, schedules): bound to the owner's immutable user id ({@code
 * owner_id}, job store V15), never to the name alone. A name can be taken again after its user is
 * removed; an id never is. The stored name ({@code owner}) is what the record was submitted under,
 * kept for the audit trail.
 *
 * <p>Who owns a record now, by name, as the rest of the server compares owners:
 *
 * <ul>
 *   <li>the record's id belongs to a user: that user's name;
 *   <li>its id belongs to no user (the user was removed): the stored name followed by {@value
 *       #REMOVED}, which is no valid user name (a space, parentheses), so no caller, however named,
 *       is ever its owner; administrators still see it;
 *   <li>no id (stored for a name that was no user: the store used without accounts): the stored
 *       name, unless a user of that name exists now, who never inherits it.
 * </ul>
 */
public final class Owners {
  /** Follows the stored name of a record whose user no longer exists. */
  public static final String REMOVED = io.gantry.server.auth.UserAccount.REMOVED_SUFFIX;

  /** The id of the user called {@code ?} now, or NULL: one parameter, the name. */
  public static final String ID_OF_NAMED = "(SELECT u.user_id FROM gantry_user u WHERE u.name = ?)";

  private Owners() {}

  /** The name of the record's owner now (see the class comment), for a SELECT list. */
  public static String presented(String table) {
    String id = table + ".owner_id";
    String name = table + ".owner";
    return "CASE WHEN "
        + id
        + " IS NOT NULL THEN COALESCE((SELECT u.name FROM gantry_user u WHERE u.user_id = "
        + id
        + "), "
        + name
        + " || '"
        + REMOVED
        + "') WHEN EXISTS (SELECT 1 FROM gantry_user u WHERE u.name = "
        + name
        + ") THEN "
        + name
        + " || '"
        + REMOVED
        + "' ELSE "
        + name
        + " END";
  }

  /** A condition: owned by the user called {@code ?} now. Two parameters: the name, twice. */
  public static String ownedByNamed(String table) {
    String id = table + ".owner_id";
    String name = table + ".owner";
    return "("
        + id
        + " = "
        + ID_OF_NAMED
        + " OR ("
        + id
        + " IS NULL AND "
        + name
        + " = ? AND NOT EXISTS (SELECT 1 FROM gantry_user u WHERE u.name = "
        + name
        + ")))";
  }

  /** A condition: the record's owner still exists (see the class comment). No parameter. */
  public static String ownerExists(String table) {
    String id = table + ".owner_id";
    String name = table + ".owner";
    return "("
        + id
        + " IN (SELECT u.user_id FROM gantry_user u) OR ("
        + id
        + " IS NULL AND NOT EXISTS (SELECT 1 FROM gantry_user u WHERE u.name = "
        + name
        + ")))";
  }
}

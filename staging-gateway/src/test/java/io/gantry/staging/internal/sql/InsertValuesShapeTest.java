package io.gantry.staging.internal.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which stage-out statements run over a staged table, and what they become there. */
class InsertValuesShapeTest {
  @Test
  void aOneRowInsertBecomesASelectOverTheStagedRows() {
    InsertValuesShape shape =
        InsertValuesShape.of(
            "insert into var_run (a, b, c)\n  values (?, upper(?), cast(? as int)) ;");
    assertEquals(3, shape.markers());
    assertEquals(
        "insert into var_run (a, b, c) SELECT s.c1, upper(?), cast(s.c2 as int) FROM staged s",
        shape.overStagedRows(new String[] {"s.c1", "?", "s.c2"}, "staged s"));
    assertFalse(shape.valuesAreMarkersOnly());
    assertArrayEquals(new String[] {"var_run", "a, b, c"}, shape.plainTarget());
  }

  @Test
  void markersInLiteralsQuotedNamesAndCommentsAreNotMarkers() {
    InsertValuesShape shape =
        InsertValuesShape.of(
            "INSERT INTO \"t?\" (\"a?\", b) /* ? /* nested ? */ */ VALUES"
                + " ('?''?', E'\\'?', $$?$$, $x$ ? $x$, ? -- ?\n, ?)");
    assertEquals(2, shape.markers());
    assertNull(shape.plainTarget(), "a commented head is not a plain target");
  }

  @Test
  void markersOnlyWithAPlainTargetCopiesStraightIn() {
    InsertValuesShape shape =
        InsertValuesShape.of("INSERT INTO risk.\"Var Run\" VALUES ( ? ,?,  ? )");
    assertTrue(shape.valuesAreMarkersOnly());
    assertArrayEquals(new String[] {"risk.\"Var Run\"", null}, shape.plainTarget());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "UPDATE t SET a = ? WHERE b = ?",
        "MERGE INTO t USING (SELECT ? AS a) s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.a)",
        "INSERT INTO t VALUES (?, ?), (?, ?)",
        "INSERT INTO t VALUES (?, ?) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (?, ?) RETURNING a",
        "INSERT INTO t VALUES (DEFAULT, ?)",
        "INSERT INTO t SELECT ?, ?",
        "WITH x AS (SELECT 1) INSERT INTO t VALUES (?)",
        "INSERT INTO t VALUES ({fn ucase(?)})",
        "INSERT INTO t VALUES (?); DELETE FROM t",
        "INSERT INTO t (a) VALUES (?"
      })
  void anythingElseKeepsTheJdbcPath(String statement) {
    assertNull(InsertValuesShape.of(statement), statement);
  }
}

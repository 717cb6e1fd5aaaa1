package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** parse(write(parse(doc))) equals parse(doc), for every example and the test documents. */
class RoundTripTest {

  static List<String> documents() throws IOException {
    List<String> documents = new ArrayList<>();
    for (Path example : ExamplesTest.examples()) {
      documents.add(Files.readString(example));
    }
    documents.add(JsdlDocuments.baseJob());
    documents.add(StandardJsdlTest.WITH_FOREIGN_EXTENSIONS);
    documents.add(StandardJsdlTest.SPMD_JOB);
    return documents;
  }

  @ParameterizedTest
  @MethodSource("documents")
  void writingAndReadingAgainGivesTheSameModel(String document) {
    JsdlJob first = new JsdlParser().parse(document).validJob();
    String written = JsdlWriter.write(first);
    ParseResult again = new JsdlParser().parse(written);
    assertTrue(again.isValid(), again.report().toString());
    assertNull(ModelEquality.difference(first.element(), again.validJob().element()), written);
    assertEquals(written, JsdlWriter.write(again.validJob()));
  }
}

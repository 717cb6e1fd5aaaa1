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
    if (first.template().isPresent()) {
      // a filled template's SQL holds bound markers the model cannot carry: the template's own
      // text is what is written and read again (the job store keeps it, with the values)
      String source = first.template().get().source();
      ParseResult again = new JsdlParser().parse(source, first.template().get().values());
      assertTrue(again.isValid(), again.report().toString());
      assertNull(ModelEquality.difference(first.element(), again.validJob().element()), source);
      JobTemplate filledAgain = again.validJob().template().orElseThrow();
      assertEquals(first.template().get().values(), filledAgain.values());
      assertEquals(first.template().get().declared(), filledAgain.declared());
      return;
    }
    String written = JsdlWriter.write(first);
    ParseResult again = new JsdlParser().parse(written);
    assertTrue(again.isValid(), again.report().toString());
    assertNull(ModelEquality.difference(first.element(), again.validJob().element()), written);
    assertEquals(written, JsdlWriter.write(again.validJob()));
  }
}

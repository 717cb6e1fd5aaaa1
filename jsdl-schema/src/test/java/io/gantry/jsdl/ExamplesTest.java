package io.gantry.jsdl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ExamplesTest {
  static final Path EXAMPLES = Path.of("examples");

  static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.toString().endsWith(".jsdl")).sorted().toList();
    }
  }

  @ParameterizedTest
  @MethodSource("examples")
  void everyExampleIsValid(Path example) throws IOException {
    ParseResult result = new JsdlParser().parse(example);
    assertEquals(
        "",
        result.report().errors().stream().map(Problem::toString).reduce("", (a, b) -> a + b + "\n"),
        example + " has errors");
    assertTrue(result.job().isPresent());
  }
}

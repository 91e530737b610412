package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The database stages leave out the {@link DatabaseIndependent} suites by the list in
 * {@code src/test/surefire/database-independent.txt} (so that their test profiles' applications are not built there);
 * the annotation decides, the list only saves time. This keeps the two equal: a suite annotated and not listed would
 * cost its profile's build in three stages, one listed and not annotated would run in no database stage.
 */
class DatabaseIndependentExcludesTest {

    private static final Path SOURCES = Path.of("src/test/java");

    @Test
    void theDatabaseStagesExcludeExactlyTheAnnotatedSuites() throws IOException {
        List<String> annotated;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            annotated = files.filter(file -> file.toString().endsWith(".java")).filter(this::annotated)
                    .map(file -> SOURCES.relativize(file).toString().replace('\\', '/')).sorted().toList();
        }
        List<String> excluded = Files.readAllLines(Path.of("src/test/surefire/database-independent.txt")).stream()
                .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).sorted().toList();
        assertThat(annotated).hasSizeGreaterThan(10);
        assertThat(excluded).containsExactlyElementsOf(annotated);
    }

    private boolean annotated(Path file) {
        try {
            return Files.readAllLines(file).stream().anyMatch(line -> line.equals("@DatabaseIndependent"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * GitHub renders the README without includes, so its Java blocks are copies: each must equal a tagged region of this
 * module's sources (compiled and tested here), with Asciidoctor's semantics: every region of that tag, in order,
 * each with its common indentation removed. Edit the source and the README together, or this fails.
 */
class ReadmeSnippetsTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
    private static final Pattern TAG = Pattern.compile("\\s*// (tag|end)::([\\w-]+)\\[]\\s*");

    @Test
    void everyReadmeJavaBlockIsATaggedRegion() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("readme.path", "../README.md")));
        Map<String, String> regions = taggedRegions();
        List<String> blocks = new ArrayList<>();
        Matcher block = JAVA_BLOCK.matcher(readme);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        assertThat(blocks).as("the README's Java blocks").isNotEmpty();
        for (String code : blocks) {
            assertThat(regions.values()).as("a tagged region of docs-examples equal to the README block%n%s", code)
                    .contains(code);
        }
    }

    /** Every tag of src/main/java and src/test/java, by name: its regions' lines, each region dedented. */
    static Map<String, String> taggedRegions() throws IOException {
        Map<String, List<List<String>>> byTag = new LinkedHashMap<>();
        List<Path> sources;
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("src/main/java")), Files.walk(Path.of("src/test/java")))) {
            sources = files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        }
        for (Path source : sources) {
            Map<String, List<String>> open = new LinkedHashMap<>();
            for (String line : Files.readAllLines(source)) {
                Matcher tag = TAG.matcher(line);
                if (tag.matches()) {
                    if (tag.group(1).equals("tag")) {
                        List<String> region = new ArrayList<>();
                        open.put(tag.group(2), region);
                        byTag.computeIfAbsent(tag.group(2), name -> new ArrayList<>()).add(region);
                    } else {
                        open.remove(tag.group(2));
                    }
                    continue;
                }
                open.values().forEach(region -> region.add(line));
            }
        }
        Map<String, String> texts = new LinkedHashMap<>();
        byTag.forEach((name, regions) -> {
            StringBuilder text = new StringBuilder();
            regions.forEach(region -> dedented(region).forEach(line -> text.append(line).append('\n')));
            texts.put(name, text.toString());
        });
        return texts;
    }

    private static List<String> dedented(List<String> lines) {
        int indent = lines.stream().filter(line -> !line.isBlank())
                .mapToInt(line -> line.length() - line.stripLeading().length()).min().orElse(0);
        return lines.stream().map(line -> line.isBlank() ? "" : line.substring(indent)).toList();
    }
}

package io.quarkiverse.cable.it;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Writes a dump of every thread of this JVM, virtual threads included, for a test that timed out: in a
 * {@code @QuarkusTest} the application runs in the same JVM, so the dump shows where its threads were waiting.
 */
public final class ThreadDumps {

    private ThreadDumps() {
    }

    /**
     * @return where the dump went and the stacks of the cable's own threads (whose names start with "cable-"), or why
     *         there is none
     */
    public static String write(String name) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "thread-dumps"));
            Path file = dir.resolve(name + "-" + System.currentTimeMillis() + ".json");
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(file.toAbsolutePath().toString(),
                    HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            return "thread dump (virtual threads included) in " + file.toAbsolutePath() + "; cable threads: "
                    + cableThreads(new JsonObject(Files.readString(file)));
        } catch (Exception | LinkageError e) {
            return "no thread dump: " + e;
        }
    }

    private static String cableThreads(JsonObject dump) {
        StringBuilder text = new StringBuilder();
        JsonArray containers = dump.getJsonObject("threadDump").getJsonArray("threadContainers");
        for (int c = 0; c < containers.size(); c++) {
            JsonArray threads = containers.getJsonObject(c).getJsonArray("threads");
            for (int t = 0; threads != null && t < threads.size(); t++) {
                JsonObject thread = threads.getJsonObject(t);
                if (thread.getString("name", "").startsWith("cable-")) {
                    JsonArray stack = thread.getJsonArray("stack", new JsonArray());
                    text.append("\n  ").append(thread.getString("name")).append(' ')
                            .append(stack.stream().limit(12).toList());
                }
            }
        }
        return text.isEmpty() ? "none" : text.toString();
    }
}

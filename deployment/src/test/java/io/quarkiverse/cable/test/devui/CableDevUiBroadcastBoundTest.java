package io.quarkiverse.cable.test.devui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.devui.tests.DevUIJsonRPCTest;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI's test broadcast waits at most {@code quarkus.cable.health.writer-timeout} for the commit, then answers
 * that it is still queued. A writer that holds each batch open for 8 s (batch delay) stands in for a slow writer.
 */
class CableDevUiBroadcastBoundTest extends DevUIJsonRPCTest {

    @RegisterExtension
    static final QuarkusDevModeTest app = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addAsResource(new StringAsset("""
                    quarkus.datasource.db-kind=h2
                    quarkus.datasource.jdbc.url=jdbc:h2:mem:cable-devui-bound;DB_CLOSE_DELAY=-1
                    quarkus.devservices.enabled=false
                    quarkus.hibernate-orm.schema-management.strategy=validate
                    quarkus.cable.writer.batch-delay=8s
                    quarkus.cable.health.writer-timeout=1s
                    """), "application.properties"));

    CableDevUiBroadcastBoundTest() {
        super("quarkus-cable-core");
    }

    @Test
    void answersWithinTheWriterTimeoutThenTheBroadcastStillCommits() throws Exception {
        String payload = "bounded " + System.nanoTime();
        long start = System.nanoTime();
        JsonNode answer = executeJsonRPCMethod("broadcast", Map.of("channel", "devui:bound", "payload", payload));
        assertThat(answer.asText()).startsWith("not committed within PT1S (quarkus.cable.health.writer-timeout)");
        // The answer came before the commit could have happened (the batch delay is 8 s).
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            JsonNode recent = executeJsonRPCMethod("getRecentMessages", Map.of("limit", 10, "internal", false));
            assertThat(recent).anySatisfy(row -> assertThat(row.get("payload").asText()).isEqualTo(payload));
        });
    }
}

package io.quarkiverse.cable.test.devui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.devui.tests.DevUIJsonRPCTest;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card's JSON-RPC methods answer in development mode, where the service comes from the quarkus-cable-dev
 * artifact: figures, channels, a test broadcast committed to H2, and the newest messages.
 */
class CableDevUiTest extends DevUIJsonRPCTest {

    @RegisterExtension
    static final QuarkusDevModeTest app = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(WatchedChannel.class)
                    .addAsResource(
                            new StringAsset(
                                    """
                                            quarkus.datasource.db-kind=h2
                                            quarkus.datasource.jdbc.url=jdbc:h2:mem:cable-devui;DB_CLOSE_DELAY=-1
                                            quarkus.devservices.enabled=false
                                            quarkus.hibernate-orm.schema-management.strategy=validate
                                            """),
                            "application.properties"));

    CableDevUiTest() {
        super("quarkus-cable-core");
    }

    private static boolean has(JsonNode rows, String channel) {
        for (JsonNode row : rows) {
            if (row.get("channel").asText().equals(channel)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void figuresChannelsBroadcastsAndRecentMessages() throws Exception {
        JsonNode status = executeJsonRPCMethod("getStatus");
        assertThat(status.get("adapter").asText()).isEqualTo("database");
        assertThat(status.get("databaseReachable").asBoolean()).isTrue();

        JsonNode channels = executeJsonRPCMethod("getChannels");
        assertThat(channels.isArray()).isTrue();
        assertThat(channels).anySatisfy(row -> {
            assertThat(row.get("channel").asText()).isEqualTo(WatchedChannel.CHANNEL);
            assertThat(row.get("subscribers").asInt()).isEqualTo(1);
        });

        String payload = "hello from the Dev UI test " + System.nanoTime();
        JsonNode answer = executeJsonRPCMethod("broadcast", Map.of("channel", "devui:test", "payload", payload));
        assertThat(answer.asText()).isEqualTo("committed");

        JsonNode recent = executeJsonRPCMethod("getRecentMessages", Map.of("limit", 10, "internal", false));
        assertThat(recent).anySatisfy(row -> {
            assertThat(row.get("channel").asText()).isEqualTo("devui:test");
            assertThat(row.get("payload").asText()).isEqualTo(payload);
        });
        // The cable's own rows (WatchedChannel's remote disconnect, on cable:control:disconnect) are hidden by
        // default, shown on request.
        assertThat(recent).noneSatisfy(row -> assertThat(row.get("channel").asText()).startsWith("cable:"));
        JsonNode all = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            all = executeJsonRPCMethod("getRecentMessages", Map.of("limit", 10, "internal", true));
            if (has(all, "cable:control:disconnect")) {
                break;
            }
            Thread.sleep(50); // polls the table until the disconnect's commit shows, not a synchronization
        }
        assertThat(has(all, "cable:control:disconnect")).as("the internal row, shown on request: %s", all).isTrue();
        assertThat(all).anySatisfy(row -> assertThat(row.get("channel").asText()).isEqualTo("devui:test"));
        // The figures count the application's subscription only (WatchedChannel's), not the cable's readers.
        JsonNode figures = executeJsonRPCMethod("getStatus");
        assertThat(figures.get("channels").asInt()).isEqualTo(1);
        assertThat(figures.get("subscribers").asInt()).isEqualTo(1);
        assertThat(executeJsonRPCMethod("getChannels")).anySatisfy(row -> {
            assertThat(row.get("channel").asText()).isEqualTo("cable:control:disconnect");
            assertThat(row.get("internal").asBoolean()).isTrue();
        });

        JsonNode after = executeJsonRPCMethod("getStatus");
        assertThat(after.get("broadcasts").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(after.get("committed").asLong()).isGreaterThanOrEqualTo(1);

        // One method per test class: QuarkusDevModeTest starts the application again for every test method.
        JsonNode invalid = executeJsonRPCMethod("broadcast", Map.of("channel", "", "payload", "x"));
        assertThat(invalid.asText()).isEqualTo("failed: Cable channel name must not be null or empty");
    }
}

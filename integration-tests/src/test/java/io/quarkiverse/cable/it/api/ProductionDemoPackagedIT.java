package io.quarkiverse.cable.it.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * The demo as the README runs it: the production jar with its production configuration, and none of the switches the
 * tests use. Its pages and what they call work; the test and admin endpoints do not exist (404, and the JVM-halt
 * endpoint halts nothing), there is no Turbo key (so no signed stream name opens anything), and readiness shows no
 * internals.
 */
public class ProductionDemoPackagedIT {

    private static final String V1 = "actioncable-v1-json";

    private static CableNode demo;

    @BeforeAll
    static void startTheDemo() throws Exception {
        String url = CableNode.dbUrl() != null ? CableNode.dbUrl() : "jdbc:h2:mem:cable;DB_CLOSE_DELAY=-1";
        demo = CableNode.start("production-demo", url, Map.of("cable-it.test-endpoints", "false"));
    }

    @AfterAll
    static void stopTheDemo() throws Exception {
        if (demo != null) {
            demo.close();
        }
    }

    @Test
    void theDemoPagesAndWhatTheyCallWork() throws Exception {
        for (String page : new String[] { "", "todos.html", "llm.html", "js/actioncable.esm.js" }) {
            assertThat(send("GET", page, null).statusCode()).as(page).isEqualTo(200);
        }
        assertThat(send("POST", "todos", "write the report").statusCode()).isBetween(200, 204);
        assertThat(send("GET", "todos", null).body()).contains("write the report");
        assertThat(send("POST", "llm-demo/answers/prod-" + System.nanoTime() + "?tokens=3", null).statusCode())
                .isEqualTo(200);
    }

    @Test
    void noTestOrAdminEndpointExists() throws Exception {
        String[][] endpoints = {
                { "GET", "cable-admin/connections" },
                { "POST", "cable-admin/disconnect" },
                { "GET", "cable-admin/turbo/chat:lobby/signed" },
                { "GET", "cursor-notes/list/turbo" },
                { "DELETE", "history-admin/chat:lobby" },
                { "POST", "broadcast/chat:lobby" },
                { "POST", "enqueue/chat:lobby?count=1" },
                { "POST", "tx-crash/chat:lobby" },
        };
        for (String[] endpoint : endpoints) {
            assertThat(send(endpoint[0], endpoint[1], "x").statusCode()).as(endpoint[0] + " " + endpoint[1])
                    .isEqualTo(404);
        }
        assertThat(demo.readyStatus()).as("the halt endpoint halted nothing").isEqualTo(200);
    }

    @Test
    void withoutATurboKeyNoSignedNameOpensAStream() throws Exception {
        // chat:lobby signed with the demo's public dev/test key: worthless in production, which has no key.
        String signed = "ImNoYXQ6bG9iYnki--606e6ddf8908d5a9202d02005813a321f68ea6968397c5b71d2cac7bf935566a";
        String identifier = new JsonObject().put("channel", "Turbo::StreamsChannel")
                .put("signed_stream_name", signed).encode();
        try (WsClient client = WsClient.connect(null, demo.base(), "/cable?user=eve", V1)) {
            client.awaitFrame("{\"type\":\"welcome\"}");
            client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
            client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"reject_subscription\"}");
        }
    }

    @Test
    void readinessShowsNoInternals() throws Exception {
        JsonObject health = new JsonObject(send("GET", "q/health/ready", null).body());
        assertThat(health.getString("status")).isEqualTo("UP");
        JsonObject cable = health.getJsonArray("checks").stream().map(JsonObject.class::cast)
                .filter(check -> "Quarkus Cable".equals(check.getString("name"))).findFirst().orElseThrow();
        assertThat(cable.getMap()).containsOnlyKeys("name", "status");
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(demo.base().resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/plain")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return CableNode.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

}

package io.quarkiverse.cable.it.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Sessions of one identity on two nodes (separate processes on one PostgreSQL or MariaDB database), plus another
 * user's: a broadcast to the identity made on one node reaches exactly that identity's sessions on both, once each, in
 * order; a disconnect made on the other node closes all of them with Action Cable's frame, and the other user stays
 * connected and receiving.
 */
public class IdentitySessionsIT {

    private static final String V1 = "actioncable-v1-json";
    private static final String INBOX = new JsonObject().put("channel", "InboxChannel").encode();

    @Test
    void broadcastToAndDisconnectReachEverySessionOnEveryNode() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        List<CableNode> nodes = new ArrayList<>();
        List<WsClient> clients = new ArrayList<>();
        try {
            // Node A creates the tables; B starts after it.
            CableNode a = CableNode.start("identity-a", Map.of());
            nodes.add(a);
            CableNode b = CableNode.start("identity-b", Map.of());
            nodes.add(b);
            String ann = "ann-" + System.nanoTime();
            String bob = "bob-" + System.nanoTime();
            List<WsClient> anns = new ArrayList<>();
            for (CableNode node : List.of(a, a, b, b)) {
                anns.add(inbox(node, ann, clients));
            }
            WsClient bobs = inbox(b, bob, clients);

            int count = 20;
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                post(b, "/identities/" + ann + "/broadcast", "{\"n\":" + i + "}");
                expected.add(message("{\"n\":" + i + "}"));
            }
            post(b, "/identities/" + bob + "/broadcast", "\"fence\"");
            for (WsClient session : anns) {
                session.awaitFrame(expected.get(count - 1));
                assertThat(session.received).filteredOn(IdentityNodesTest::isBroadcast)
                        .containsExactlyElementsOf(expected);
            }
            bobs.awaitFrame(message("\"fence\""));
            assertThat(bobs.received).filteredOn(IdentityNodesTest::isBroadcast)
                    .containsExactly(message("\"fence\""));

            post(a, "/identities/" + ann + "/disconnect?reconnect=false", "");
            String frame = "{\"type\":\"disconnect\",\"reason\":\"remote\",\"reconnect\":false}";
            for (WsClient session : anns) {
                session.awaitFrame(frame);
                assertThat(session.closeStatus.get(60, TimeUnit.SECONDS)).isEqualTo((short) 1000);
                assertThat(session.received).filteredOn(frame::equals).hasSize(1);
            }
            post(a, "/identities/" + bob + "/broadcast", "\"still here\"");
            bobs.awaitFrame(message("\"still here\""));
            assertThat(bobs.closeStatus).isNotDone();
            assertThat(bobs.received).doesNotContain(frame);
        } finally {
            for (WsClient client : clients) {
                client.close();
            }
            CableNode.closeAll(nodes);
        }
    }

    private static WsClient inbox(CableNode node, String user, List<WsClient> clients) throws Exception {
        WsClient client = WsClient.connect(null, node.base(),
                "/cable?user=" + URLEncoder.encode(user, StandardCharsets.UTF_8), V1);
        clients.add(client);
        client.awaitFrame("{\"type\":\"welcome\"}");
        client.send(new JsonObject().put("command", "subscribe").put("identifier", INBOX).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(INBOX) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static void post(CableNode node, String path, String body) throws Exception {
        HttpResponse<String> response = CableNode.HTTP.send(HttpRequest.newBuilder(URI.create(node.base() + path.substring(1)))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("POST %s on %s: %s", path, node.name, response.body()).isEqualTo(202);
    }

    private static String message(String json) {
        return "{\"identifier\":" + Json.encode(INBOX) + ",\"message\":" + json + "}";
    }
}

package io.quarkiverse.cable.it.presence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * Presence across two nodes as separate processes on one PostgreSQL or MariaDB database: one id joined on both nodes
 * is one join; a member on the node that is SIGKILLed leaves once its lease runs out, written by the surviving node,
 * while the id that also has a session on the survivor stays; every event reaches the watcher exactly once.
 */
public class PresenceNodesIT {

    private static final String EXT = "actioncable-v1-ext-json";
    private static final Map<String, String> TTL = Map.of("quarkus.cable.presence.ttl", "3s");

    @Test
    void membersOfAKilledNodeLeaveOnceAndTheOthersStay() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        List<CableNode> nodes = new ArrayList<>();
        List<WsClient> clients = new ArrayList<>();
        try {
            CableNode a = CableNode.start("presence-a", TTL);
            nodes.add(a);
            CableNode b = CableNode.start("presence-b", TTL);
            nodes.add(b);
            String room = new JsonObject().put("channel", "ChatChannel").put("room", "presence-" + System.nanoTime())
                    .encode();
            WsClient watcher = subscribed(a, "watcher", room, clients);
            WsClient annOnA = subscribed(a, "ann", room, clients);
            WsClient annOnB = subscribed(b, "ann", room, clients);
            WsClient bobOnB = subscribed(b, "bob", room, clients);

            annOnA.send(join(room, "ann"));
            watcher.awaitFrame(event(room, "join", "ann"));
            annOnB.send(join(room, "ann")); // the same id on the other node: no event
            bobOnB.send(join(room, "bob"));
            watcher.awaitFrame(event(room, "join", "bob"));
            watcher.send(info(room));
            watcher.awaitFrame(
                    presence(room, "{\"type\":\"info\",\"total\":2,\"records\":[{\"id\":\"ann\"},{\"id\":\"bob\"}]}"));

            // Node B dies: bob (there only) leaves when B's lease runs out; ann stays, held by her session on A.
            long killedAt = System.nanoTime();
            b.kill();
            watcher.awaitFrame(event(room, "leave", "bob"));
            System.out.printf("PresenceNodesIT: bob's leave %d ms after node B was killed (TTL 3 s)%n",
                    Duration.ofNanos(System.nanoTime() - killedAt).toMillis());
            watcher.send(info(room));
            watcher.awaitFrame(presence(room, "{\"type\":\"info\",\"total\":1,\"records\":[{\"id\":\"ann\"}]}"));
            annOnA.send(leave(room));
            watcher.awaitFrame(event(room, "leave", "ann"));
            String events = "{\"type\":\"presence\",\"identifier\":" + Json.encode(room) + ",\"message\":{\"type\":\"";
            assertThat(watcher.received).filteredOn(frame -> frame.startsWith(events + "join")
                    || frame.startsWith(events + "leave")).containsExactly(event(room, "join", "ann"),
                            event(room, "join", "bob"), event(room, "leave", "bob"), event(room, "leave", "ann"));
        } finally {
            for (WsClient client : clients) {
                client.close();
            }
            CableNode.closeAll(nodes);
        }
    }

    private static WsClient subscribed(CableNode node, String user, String identifier, List<WsClient> clients)
            throws Exception {
        WsClient client = WsClient.connect(null, node.base(), "/cable?user=" + user, EXT);
        clients.add(client);
        client.send(new JsonObject().put("command", "subscribe").put("identifier", identifier).encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(identifier) + ",\"type\":\"confirm_subscription\"}");
        return client;
    }

    private static String join(String identifier, String id) {
        return new JsonObject().put("command", "join").put("identifier", identifier)
                .put("presence", new JsonObject().put("id", id)).encode();
    }

    private static String leave(String identifier) {
        return new JsonObject().put("command", "leave").put("identifier", identifier).encode();
    }

    private static String info(String identifier) {
        return new JsonObject().put("command", "presence").put("identifier", identifier).put("data", new JsonObject())
                .encode();
    }

    private static String presence(String identifier, String messageJson) {
        return "{\"type\":\"presence\",\"identifier\":" + Json.encode(identifier) + ",\"message\":" + messageJson + "}";
    }

    private static String event(String identifier, String type, String id) {
        return presence(identifier, "{\"type\":\"" + type + "\",\"id\":\"" + id + "\"}");
    }
}

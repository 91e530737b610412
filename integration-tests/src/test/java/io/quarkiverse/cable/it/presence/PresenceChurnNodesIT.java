package io.quarkiverse.cable.it.presence;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.JsonObject;

/**
 * No ghost across two nodes as separate processes on one PostgreSQL or MariaDB database ({@link PresenceChurn}: 16
 * clients, 5 cycles each, every cycle on a node of the seeded schedule's choosing), then node B is SIGKILLed with the
 * clients that stayed on it: once its lease has run out and the TTL after that, node A's set holds exactly the clients
 * that stayed on A, and A's watcher saw every id's joins and leaves alternate and end in the right state.
 */
public class PresenceChurnNodesIT {

    private static final Map<String, String> TTL = Map.of("quarkus.cable.presence.ttl", "3s");

    @Test
    void afterChurnAndANodeDeathTheSetHoldsExactlyTheClientsThatStayedOnTheLiveNode() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        List<CableNode> nodes = new ArrayList<>();
        List<WsClient> clients = new ArrayList<>();
        try {
            CableNode a = CableNode.start("churn-a", TTL);
            nodes.add(a);
            CableNode b = CableNode.start("churn-b", TTL);
            nodes.add(b);
            PresenceChurn churn = PresenceChurn.plan("churn-" + System.nanoTime(), 16, 5, 2);
            WsClient watcher = WsClient.connect(null, a.base(), "/cable?user=watcher", "actioncable-v1-ext-json");
            clients.add(watcher);
            churn.subscribe(watcher, null);

            clients.addAll(churn.run(List.of(a.base(), b.base())).values());
            b.kill();
            Set<String> expected = churn.expected(Set.of(0));
            String info = new JsonObject().put("command", "presence").put("identifier", churn.chat)
                    .put("data", new JsonObject()).encode();
            try {
                // B's lease (3 s) runs out, A's reaper hands B's sessions to the TTL (3 s more): generous slack.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    watcher.send(info);
                    return expected.equals(churn.lastInfo(watcher));
                });
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(churn.report(expected, churn.lastInfo(watcher)), e);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> churn.joinedLast(watcher, expected));
            churn.assertEventsAlternate(watcher, expected);
            System.out.printf("PresenceChurnNodesIT: seed %d, %d stayed on the live node: %s%n", churn.seed,
                    expected.size(), expected);
        } finally {
            for (WsClient client : clients) {
                try {
                    client.close();
                } catch (Exception gone) {
                    // its node was killed
                }
            }
            CableNode.closeAll(nodes);
        }
    }
}

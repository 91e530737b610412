package io.quarkiverse.cable.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.test.ApplicationNode;
import io.quarkiverse.cable.test.CableTestChannels;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * The test kit's multi-node pattern as an application uses it: a {@code @QuarkusTest} run by Failsafe after
 * packaging (hence {@code *IT}), the application under test in the test's JVM and a second node from the packaged jar
 * that takes the application's datasource (nothing about the database is given to it). An action performed on the
 * second node reaches a subscriber of the first, and a presence join made on the second is seen on the first, through
 * the shared database. Needs a database server (-Pdb-postgresql or -Pdb-mariadb); the H2 stage does not run it.
 */
@OncePerServer
@QuarkusTest
class SecondNodeIT {

    @Test
    void anActionAndAJoinOnTheSecondNodeReachTheFirst() {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        String room = CableTestChannels.unique("nodes");
        try (ApplicationNode second = ApplicationNode.builder().name("second-node").jar(CableNode.jar())
                .jvmOption("-Xmx256m").config(Map.of()).start();
                CableTestClient ann = CableTestClient.builder().queryParam("user", "ann").connect();
                CableTestClient bob = CableTestClient.builder().base(second.base()).queryParam("user", "bob").connect()) {
            CableTestSubscription annChat = ann.subscribe("ChatChannel", Map.of("room", room));
            CableTestSubscription bobChat = bob.subscribe("ChatChannel", Map.of("room", room));

            bobChat.perform("speak", Map.of("text", "from the second node"));
            JsonObject spoken = annChat.awaitTransmission(message -> "from the second node".equals(message.getString("text")));
            assertThat(spoken.getString("user")).isEqualTo("bob");

            bobChat.join("bob", Map.of("node", "second"));
            assertThat(annChat.awaitJoin("bob").getJsonObject("info")).isEqualTo(new JsonObject().put("node", "second"));
        }
    }
}

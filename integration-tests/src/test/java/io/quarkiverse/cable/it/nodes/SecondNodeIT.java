package io.quarkiverse.cable.it.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.test.ApplicationNode;
import io.quarkiverse.cable.test.CableTestChannels;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkiverse.cable.test.SecondNode;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;

/**
 * The test kit's multi-node pattern as an application uses it: a {@code @QuarkusTest} run by Failsafe after
 * packaging (hence {@code *IT}), the application under test in the test's JVM and a second node from the packaged jar
 * that takes the application's datasource (nothing about the database is given to it). An action performed on the
 * second node reaches a subscriber of the first, and a presence join made on the second is seen on the first, through
 * the shared database. The second node comes from the kit's JUnit extension, SecondNode. Needs a database server
 * (-Pdb-postgresql or -Pdb-mariadb): the H2 stage runs no such IT, and ApplicationNode refuses an in-memory H2; the
 * MySQL stage excludes it (integration-tests/pom.xml), as the other multi-node ITs whose SQL the MariaDB stage runs.
 */
@QuarkusTest
public class SecondNodeIT {

    /** Started after the application under test (which made the cable's tables), stopped after the last test. */
    @RegisterExtension
    static SecondNode second = SecondNode.of(ApplicationNode.builder().name("second-node").jar(CableNode.jar())
            .jvmOption("-Xmx256m"));

    @Test
    void anActionAndAJoinOnTheSecondNodeReachTheFirst() {
        String room = CableTestChannels.unique("nodes");
        try (CableTestClient ann = CableTestClient.builder().queryParam("user", "ann").connect();
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

package io.quarkiverse.cable.it.abuse;

import static io.quarkiverse.cable.it.streams.StreamAuthorizationTest.ALICE;
import static io.quarkiverse.cable.it.streams.StreamAuthorizationTest.MALLORY;
import static io.quarkiverse.cable.it.streams.StreamAuthorizationTest.expected;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.WsClient;
import io.quarkiverse.cable.it.streams.StreamAuthorizationTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@code @StreamFrom} under attack, beside healthy clients in the same run: while broadcasts flow, attackers keep
 * opening connections to a members-only room without the role and to rooms whose path parameter smuggles a
 * separator ({@code 42%3Aadmin}). Every attacker is closed with 1008 having received nothing, not even the broadcasts
 * of the channel it tried to reach; the healthy clients receive every broadcast, in order.
 */
@QuarkusTest
@DatabaseIndependent
public class StreamFromAttackerTest {

    private static final int BROADCASTS = 100;
    private static final int ATTACKERS = 40;

    @Inject
    Cable cable;

    @TestHTTPResource("/")
    URI base;

    @Test
    void attackersAreRefusedAndReceiveNothingWhileHealthyClientsReceiveEverything() throws Exception {
        String room = "atk" + System.nanoTime();
        List<WsClient> attackers = new ArrayList<>();
        try (WsClient member = WsClient.connectWith(base, "/private-rooms/" + room, ALICE).awaitFrame("ready");
                WsClient visitor = WsClient.connect(null, base, "/rooms/" + room).awaitFrame("ready");
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<WsClient>> opening = new ArrayList<>();
            for (int i = 0; i < ATTACKERS; i++) {
                String path = switch (i % 4) {
                    case 0 -> "/private-rooms/" + room;
                    case 1 -> "/private-rooms/" + room + "%3Aadmin";
                    case 2 -> "/rooms/" + room + "%3Aadmin";
                    default -> "/rooms/" + room + "%2F..%2Fadmin";
                };
                Map<String, String> headers = i % 8 < 4 ? Map.of() : MALLORY;
                opening.add(pool.submit(() -> WsClient.connectWith(base, path, headers)));
            }
            for (int i = 0; i < BROADCASTS; i++) {
                cable.broadcast("private:" + room, "p" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
                cable.broadcast("room:" + room, "r" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
                cable.broadcast("room:" + room + ":admin", "secret" + i).toCompletableFuture().get(60,
                        TimeUnit.SECONDS);
            }
            for (Future<WsClient> attacker : opening) {
                attackers.add(attacker.get(60, TimeUnit.SECONDS));
            }
            for (WsClient attacker : attackers) {
                StreamAuthorizationTest.assertRefused(attacker);
            }
            member.awaitFrames(BROADCASTS + 1);
            visitor.awaitFrames(BROADCASTS + 1);
            assertThat(member.received).containsExactlyElementsOf(expected("ready", "p", BROADCASTS));
            assertThat(visitor.received).containsExactlyElementsOf(expected("ready", "r", BROADCASTS));
            for (WsClient attacker : attackers) {
                assertThat(attacker.received).isEmpty();
            }
        } finally {
            for (WsClient attacker : attackers) {
                attacker.close();
            }
        }
    }
}

package io.quarkiverse.cable.it.presence;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.NodeTests;
import io.quarkiverse.cable.it.OncePerServer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * {@code quarkus.cable.presence.in-stream}: joins and leaves are messages of the channel's stream, written in the
 * transaction that changed the presence set, so a client that recovers gets the ones it missed in order with the
 * broadcasts, each once (src/test/js/presence-in-stream.test.js: {@code @anycable/core} in Node, extended protocol,
 * its network cut by a proxy; then SSE from the stream's start). On every database: the positions are the store's.
 */
@OncePerServer
@QuarkusTest
@TestProfile(PresenceInStreamTest.InStream.class)
public class PresenceInStreamTest {

    public static class InStream implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.presence.in-stream", "true");
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Test
    void aClientThatWasAwayRecoversTheJoinsAndLeavesItMissed() throws Exception {
        NodeTests.assertPasses(base, "presence-in-stream.test.js", 1);
    }
}

package io.quarkiverse.cable.runtime.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.PresenceRecord;
import io.quarkiverse.cable.PresenceSnapshot;
import io.quarkiverse.cable.runtime.core.IdentityChannels;
import io.quarkiverse.cable.runtime.core.PresenceSettings;
import io.quarkiverse.cable.spi.PresenceEnvelope;

/** The memory adapter's presence sets follow the database adapter's rules (PresenceTest covers that one). */
class MemoryPresenceTest {

    private final LinkedBlockingQueue<String> published = new LinkedBlockingQueue<>();
    private final MemoryPresence presence = new MemoryPresence(
            new PresenceSettings(Duration.ofMillis(200), 2, 1024, false, false, 16, 10_000),
            message -> published.add(new String(message.payload(), StandardCharsets.UTF_8)));

    @AfterEach
    void stop() {
        presence.stop();
    }

    @Test
    void anIdJoinsWithItsFirstSessionAndLeavesWithItsLast() {
        assertThat(presence.join("room", "ann", "s1", "{\"tab\":1}")).isTrue();
        assertThat(presence.join("room", "ann", "s2", "{\"tab\":2}")).isFalse();
        assertThat(presence.leave("room", "ann", "s1")).isFalse();
        assertThat(presence.snapshot("room", 10)).isEqualTo(new PresenceSnapshot(1,
                List.of(new PresenceRecord("ann", "{\"tab\":2}"))));
        assertThat(presence.leave("room", "ann", "s2")).isTrue();
        assertThat(presence.leave("room", "ann", "s2")).isFalse();
        // The second session brought other info: no join, an update every member hears.
        assertThat(published).containsExactly("4:room{\"type\":\"join\",\"id\":\"ann\",\"info\":{\"tab\":1}}",
                "4:room{\"type\":\"update\",\"id\":\"ann\",\"info\":{\"tab\":2}}",
                "4:room{\"type\":\"leave\",\"id\":\"ann\"}");
        assertThat(presence.count("room")).isZero();
    }

    @Test
    void aDisconnectedSessionLeavesWhenTheTtlEndsUnlessAnotherSessionHoldsTheId() throws Exception {
        presence.start("test");
        presence.join("room", "bob", "s1", null);
        presence.join("room", "cy", "s1", null);
        presence.join("other", "bob", "s1", null);
        presence.join("room", "cy", "s2", null);
        published.clear();
        // Read the clock before the disconnect: the TTL's deadline is taken inside disconnected(), so a clock read
        // after it could see the leave arrive a little under the TTL later although it came exactly on time.
        long disconnectedAt = System.nanoTime();
        presence.disconnected("s1");
        // bob leaves both channels after the TTL; cy stays, held by s2. Nothing before the TTL ended.
        List<String> left = List.of(published.poll(60, TimeUnit.SECONDS), published.poll(60, TimeUnit.SECONDS));
        assertThat(Duration.ofNanos(System.nanoTime() - disconnectedAt)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(left).containsExactlyInAnyOrder("4:room{\"type\":\"leave\",\"id\":\"bob\"}",
                "5:other{\"type\":\"leave\",\"id\":\"bob\"}");
        assertThat(presence.snapshot("room", 10).records()).containsExactly(new PresenceRecord("cy", null));
        assertThat(published).isEmpty();
    }

    @Test
    void aSnapshotListsAtMostMaxRecordsAndCountsAll() {
        for (String id : List.of("c", "a", "b")) {
            presence.join("room", id, "s-" + id, null);
        }
        assertThat(presence.snapshot("room", 2)).isEqualTo(new PresenceSnapshot(3,
                List.of(new PresenceRecord("a", null), new PresenceRecord("b", null))));
    }

    @Test
    void envelopesCarryTheChannelAndTheEventUnparsed() {
        PresenceEnvelope parsed = PresenceEnvelope.parse(new String(
                PresenceEnvelope.joined("a:b", "7", "[1]", false).getFirst().payload(), StandardCharsets.UTF_8));
        assertThat(parsed).isEqualTo(new PresenceEnvelope("a:b", "{\"type\":\"join\",\"id\":\"7\",\"info\":[1]}"));
        assertThat(parsed.event().info()).isEqualTo("[1]");
        assertThat(PresenceEnvelope.parse("junk")).isNull();
        assertThat(PresenceEnvelope.parse("99:short")).isNull();
    }

    @Test
    void inStreamEveryJoinAndLeaveIsAlsoAMessageOfTheChannelsStreamAndTheCablesOwnSetsAreNot() {
        List<String> messages = new ArrayList<>();
        MemoryPresence inStream = new MemoryPresence(
                new PresenceSettings(Duration.ofSeconds(15), 2, 1024, false, true, 16, 10_000),
                message -> messages.add(message.channel() + " " + new String(message.payload(), StandardCharsets.UTF_8)));
        inStream.join("room", "ann", "s1", "{\"tab\":1}");
        inStream.join("room", "ann", "s2", "{\"tab\":1}"); // no change: nothing written
        inStream.leave("room", "ann", "s1");
        inStream.leave("room", "ann", "s2");
        inStream.join(IdentityChannels.IDENTITIES_PRESENT, "user=ann", "s1", null);
        assertThat(messages).containsExactly(
                "cable:presence 4:room{\"type\":\"join\",\"id\":\"ann\",\"info\":{\"tab\":1}}",
                "room {\"$presence\":{\"type\":\"join\",\"id\":\"ann\",\"info\":{\"tab\":1}}}",
                "cable:presence 4:room{\"type\":\"leave\",\"id\":\"ann\"}",
                "room {\"$presence\":{\"type\":\"leave\",\"id\":\"ann\"}}",
                "cable:presence 25:cable:presence:identities{\"type\":\"join\",\"id\":\"user=ann\"}");
        inStream.stop();
    }
}

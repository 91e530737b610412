package io.quarkiverse.cable.it.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableException.HistoryUnavailable.Reason;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.MetricsScrape;
import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.CableStats;
import io.quarkiverse.cable.runtime.core.Internal;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkus.test.junit.QuarkusTest;

/**
 * No silent gap after a failover, on every database: the database the cable writes to turns into one that lacks the
 * newest acknowledged messages (what an asynchronous standby promoted after the primary's crash looks like, see the
 * topology stage for the real one). The test builds that state in place: it deletes the channel's newest messages,
 * rolls the channel's position and the id allocator back to before them, and marks the recorded database identity as
 * another database's.
 * <p>
 * Then: the next message must reach the live subscriber although its id is not above the poller's cursor; it must
 * carry a new epoch (its position re-uses a lost one, with another payload); and a client resuming from any position
 * of the old epoch must be refused with {@code epoch_changed}, never replayed an incomplete history as complete.
 */
@QuarkusTest
public class DatabaseIdentityChangeTest {

    @Inject
    Cable cable;

    @Inject
    @Internal
    CableEngine engine;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aDatabaseThatLostAcknowledgedMessagesGetsNewEpochsAndThePollerReadsItsNewRows() throws Exception {
        String channel = Channels.unique("failover");
        Collector live = new Collector();
        try (Subscription subscription = cable.subscribe(channel, live)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (int i = 1; i <= 5; i++) {
                cable.broadcast(channel, "before-" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            live.awaitCount(5);
            CableMessage kept = live.messages.get(1);
            CableMessage lost = live.messages.get(4);
            CableStats stats = engine.stats();
            long lostBefore = stats.messagesLostInFailover();

            failOverToAStandbyWithOnly(channel, kept);

            cable.broadcast(channel, "after-failover").toCompletableFuture().get(60, TimeUnit.SECONDS);
            live.awaitCount(6);
            CableMessage after = live.messages.get(5);
            assertThat(after.text()).isEqualTo("after-failover");
            assertThat(after.id()).as("ids went backwards").isLessThanOrEqualTo(lost.id());
            assertThat(after.position()).as("the position of a lost message, with another payload")
                    .isEqualTo(kept.position() + 1);
            assertThat(after.epoch()).as("so it must be in a new epoch").isNotEqualTo(kept.epoch());
            assertThat(live.messages).hasSize(6);
            // The three messages the poller had read past the new database's last id.
            await().atMost(Collector.TIMEOUT).until(() -> stats.messagesLostInFailover() == lostBefore + 3);
            assertThat(MetricsScrape.now().count("cable_database_lost_messages_total"))
                    .isEqualTo(stats.messagesLostInFailover());

            assertRefusedWithEpochChanged(channel, StreamPosition.of(lost));
            assertRefusedWithEpochChanged(channel, StreamPosition.of(kept));

            // The new epoch resumes normally.
            Collector resumed = new Collector();
            try (Subscription again = cable.subscribe(channel, StreamPosition.of(after), resumed)) {
                again.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
                cable.broadcast(channel, "next").toCompletableFuture().get(60, TimeUnit.SECONDS);
                resumed.awaitCount(1);
                live.awaitCount(7);
                assertThat(resumed.messages.get(0).epoch()).isEqualTo(after.epoch());
                assertThat(resumed.messages.get(0).position()).isEqualTo(after.position() + 1);
            }
        }
    }

    /**
     * A failover that lost nothing (the standby had every commit) still changes the database: the live stream's next
     * message must carry the new epoch, although its position continues the one the poller cached.
     */
    @Test
    void aFailoverThatLostNothingStillGivesTheLiveStreamTheNewEpoch() throws Exception {
        String channel = Channels.unique("failover-nothing-lost");
        Collector live = new Collector();
        try (Subscription subscription = cable.subscribe(channel, live)) {
            subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
            cable.broadcast(channel, "before").toCompletableFuture().get(60, TimeUnit.SECONDS);
            live.awaitCount(1);
            CableMessage before = live.messages.get(0);
            long changesBefore = engine.stats().databaseIdentityChanges();
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement update = connection.prepareStatement(
                            "UPDATE cable_shards SET db_identity = 'the-old-primary' WHERE shard = 0")) {
                update.executeUpdate();
            }
            cable.broadcast(channel, "after").toCompletableFuture().get(60, TimeUnit.SECONDS);
            live.awaitCount(2);
            CableMessage after = live.messages.get(1);
            assertThat(after.position()).isEqualTo(before.position() + 1);
            assertThat(after.epoch()).isNotEqualTo(before.epoch());
            assertRefusedWithEpochChanged(channel, StreamPosition.of(before));
            // The poller said so although it had read nothing the new database lacks (the warning the failover page
            // promises comes with this count), and once: later polls of the same database say nothing more.
            await().atMost(Collector.TIMEOUT).until(() -> engine.stats().databaseIdentityChanges() == changesBefore + 1);
            cable.broadcast(channel, "later").toCompletableFuture().get(60, TimeUnit.SECONDS);
            live.awaitCount(3);
            assertThat(engine.stats().databaseIdentityChanges()).isEqualTo(changesBefore + 1);
        }
    }

    /** What a promoted asynchronous standby holds: the channel up to {@code kept}, the identity of the old primary. */
    private void failOverToAStandbyWithOnly(String channel, CableMessage kept) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            run(connection, "DELETE FROM cable_messages WHERE id > ?", kept.id());
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE cable_channels SET last_position = ?, last_message_id = ? WHERE channel_hash = ?")) {
                update.setLong(1, kept.position());
                update.setLong(2, kept.id());
                update.setLong(3, ChannelHash.of(channel));
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            run(connection, "UPDATE cable_shards SET last_id = ?, db_identity = 'the-old-primary' WHERE shard = 0",
                    kept.id());
            connection.commit();
        }
    }

    private static void run(Connection connection, String sql, long id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, id);
            statement.executeUpdate();
        }
    }

    private void assertRefusedWithEpochChanged(String channel, StreamPosition after) {
        Collector recovered = new Collector();
        Subscription subscription = cable.subscribe(channel, after, recovered);
        assertThatThrownBy(() -> subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(CableException.HistoryUnavailable.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.EPOCH_CHANGED));
        assertThat(recovered.messages).isEmpty();
    }
}

package io.quarkiverse.cable.it.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.it.todo.TodoItem;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 25, item 3: inside {@code @Transactional}, a broadcast the cable refuses (over-size, or an object Jackson
 * cannot write) is thrown at the call and the transaction is marked rollback-only, so the Panache entity saved
 * beside it never commits: not when the exception propagates, not when the method catches it and returns normally.
 * Runs on whichever database the profile selects.
 */
@QuarkusTest
public class TransactionalRefusalTest {

    /** One byte over the integration tests' quarkus.cable.max-payload-size (17M). */
    private static final int OVER_SIZE = 17 * 1024 * 1024 + 1;

    @Inject
    Cable cable;

    @Inject
    Saver saver;

    @Test
    void overSizePayloadThrowsAndTheEntityIsNotCommitted() throws Exception {
        String channel = Channels.unique("tx-oversize");
        String title = channel + ":item";
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            assertThatThrownBy(() -> saver.saveAndBroadcast(title, channel, new byte[OVER_SIZE]))
                    .isInstanceOf(CableException.InvalidMessage.class)
                    .hasMessageContaining("quarkus.cable.max-payload-size");
            assertThat(stored(title)).as("the entity saved beside the refused broadcast").isZero();
            assertNothingDelivered(channel, collector);
        }
    }

    @Test
    void unwritableObjectThrowsAndTheEntityIsNotCommitted() throws Exception {
        String channel = Channels.unique("tx-unwritable");
        String title = channel + ":item";
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            assertThatThrownBy(() -> saver.saveAndBroadcast(title, channel, new Unwritable()))
                    .isInstanceOf(CableException.InvalidMessage.class)
                    .hasMessageContaining("could not be written as JSON");
            assertThat(stored(title)).isZero();
            assertNothingDelivered(channel, collector);
        }
    }

    @Test
    void catchingTheRefusalStillRollsBack() throws Exception {
        String channel = Channels.unique("tx-caught");
        String title = channel + ":item";
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            CableException caught = saver.saveBroadcastAndCatch(title, channel, new byte[OVER_SIZE]);
            assertThat(caught).isInstanceOf(CableException.InvalidMessage.class);
            assertThat(stored(title)).as("rollback-only: the method returned normally, nothing committed").isZero();
            assertNothingDelivered(channel, collector);
        }
    }

    @Test
    void aValidBroadcastBesideItCommitsAsBefore() throws Exception {
        String channel = Channels.unique("tx-valid");
        String title = channel + ":item";
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            saver.saveAndBroadcast(title, channel, "saved");
            assertThat(stored(title)).isEqualTo(1);
            assertThat(collector.awaitCount(1).texts()).containsExactly("saved");
        }
    }

    /**
     * One broadcast over the per-transaction limit is refused at the call, naming that limit (not the writer queue,
     * which has room), and the whole transaction rolls back: none of the broadcasts before it is delivered.
     */
    @Test
    void oneOverTheTransactionLimitThrowsAndNothingCommits() throws Exception {
        Config config = ConfigProvider.getConfig();
        int limit = config.getOptionalValue("quarkus.cable.writer.max-transaction-broadcasts", Integer.class)
                .orElseGet(() -> config.getValue("quarkus.cable.writer.queue-capacity", Integer.class));
        String channel = Channels.unique("tx-over-limit");
        String title = channel + ":item";
        Collector collector = new Collector();
        try (Subscription subscription = confirmed(channel, collector)) {
            assertThatThrownBy(() -> saver.saveAndBroadcastMany(title, channel, limit + 1))
                    .isInstanceOf(CableException.QueueFull.class)
                    .hasMessageContaining("(" + limit + ", see quarkus.cable.writer.max-transaction-broadcasts)");
            assertThat(stored(title)).isZero();
            assertNothingDelivered(channel, collector);
        }
    }

    /** Outside a transaction the same refusal stays a failed stage (the call does not throw). */
    @Test
    void outsideATransactionTheStageFails() {
        String channel = Channels.unique("no-tx-oversize");
        var stage = cable.broadcast(channel, new byte[OVER_SIZE]).toCompletableFuture();
        assertThat(stage).isCompletedExceptionally();
        assertThatThrownBy(stage::join).hasCauseInstanceOf(CableException.InvalidMessage.class);
    }

    /** A marker broadcast after the refusal is the first and only message: the refused one was never stored. */
    private void assertNothingDelivered(String channel, Collector collector) throws Exception {
        cable.broadcast(channel, "marker").toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(collector.awaitCount(1).texts()).containsExactly("marker");
    }

    private static long stored(String title) {
        return QuarkusTransaction.requiringNew().call(() -> TodoItem.count("title", title));
    }

    private Subscription confirmed(String channel, Collector collector) throws Exception {
        Subscription subscription = cable.subscribe(channel, collector);
        subscription.confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        return subscription;
    }

    /** What an application writes: save an entity, broadcast it, ignore the stage. */
    @ApplicationScoped
    static class Saver {

        @Inject
        Cable cable;

        @Transactional
        void saveAndBroadcast(String title, String channel, Object payload) {
            TodoItem item = new TodoItem();
            item.title = title;
            item.persist();
            cable.broadcast(channel, payload);
        }

        @Transactional
        void saveAndBroadcastMany(String title, String channel, int count) {
            TodoItem item = new TodoItem();
            item.title = title;
            item.persist();
            for (int i = 0; i < count; i++) {
                cable.broadcast(channel, "broadcast " + i);
            }
        }

        @Transactional
        CableException saveBroadcastAndCatch(String title, String channel, Object payload) {
            TodoItem item = new TodoItem();
            item.title = title;
            item.persist();
            try {
                cable.broadcast(channel, payload);
                return null;
            } catch (CableException e) {
                return e;
            }
        }
    }

    /** Jackson cannot write it: its only property throws. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("not writable");
        }
    }
}

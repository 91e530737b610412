package io.quarkiverse.cable.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.it.Collector;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@link Cable#position}: the page cursor. Subscribing from it delivers exactly what was committed after it, then
 * live; an empty cursor (a channel without messages) delivers from the first message; inside a REPEATABLE READ
 * transaction (PostgreSQL, MariaDB) the cursor stays the transaction's snapshot while other transactions commit.
 */
@QuarkusTest
public class PageCursorApiTest {

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    private void broadcast(String channel, int from, int to) throws Exception {
        for (int i = from; i <= to; i++) {
            cable.broadcast(channel, "m" + i).toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
    }

    private static List<String> range(int from, int to) {
        return java.util.stream.IntStream.rangeClosed(from, to).mapToObj(i -> "m" + i).toList();
    }

    @Test
    void subscribingFromTheCursorDeliversExactlyWhatCameAfterIt() throws Exception {
        String channel = "cursor:after:" + System.nanoTime();
        broadcast(channel, 1, 3);
        Optional<StreamPosition> cursor = cable.position(channel);
        assertThat(cursor).hasValueSatisfying(p -> assertThat(p.offset()).isEqualTo(3));
        broadcast(channel, 4, 6);
        Collector received = new Collector();
        cable.subscribe(channel, cursor, received).confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        broadcast(channel, 7, 7);
        assertThat(received.awaitCount(4).texts()).containsExactlyElementsOf(range(4, 7));
        assertThat(cable.position(channel)).hasValue(new StreamPosition(cursor.get().epoch(), 7));
    }

    @Test
    void aChannelWithoutMessagesHasAnEmptyCursorThatStartsAtTheFirstMessage() throws Exception {
        String channel = "cursor:empty:" + System.nanoTime();
        Optional<StreamPosition> cursor = cable.position(channel);
        assertThat(cursor).isEmpty();
        assertThat(StreamPosition.cursor(cursor)).isEqualTo("0");
        broadcast(channel, 1, 2);
        Collector received = new Collector();
        cable.subscribe(channel, cursor, received).confirmed().toCompletableFuture().get(60, TimeUnit.SECONDS);
        broadcast(channel, 3, 3);
        assertThat(received.awaitCount(3).texts()).containsExactlyElementsOf(range(1, 3));
    }

    @Test
    void cursorTextRoundTrips() {
        StreamPosition position = new StreamPosition("e:1", 42);
        assertThat(StreamPosition.parseCursor(StreamPosition.cursor(Optional.of(position)))).hasValue(position);
        assertThat(StreamPosition.parseCursor("0")).isEmpty();
    }

    @Test
    void insideARepeatableReadTransactionTheCursorIsTheSnapshots() throws Exception {
        assumeTrue(!dbKind.equals("h2"), "H2's READ COMMITTED default has no transaction snapshot");
        String channel = "cursor:snapshot:" + System.nanoTime();
        broadcast(channel, 1, 2);
        QuarkusTransaction.requiringNew().run(() -> {
            try {
                if (dbKind.startsWith("postgres")) {
                    try (Connection connection = dataSource.getConnection();
                            Statement statement = connection.createStatement()) {
                        statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                    }
                }
                Optional<StreamPosition> first = cable.position(channel);
                assertThat(first).hasValueSatisfying(p -> assertThat(p.offset()).isEqualTo(2));
                // Committed by another transaction while this one is open.
                CompletableFuture.runAsync(() -> {
                    try {
                        broadcast(channel, 3, 4);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).get(60, TimeUnit.SECONDS);
                assertThat(cable.position(channel)).as("the same snapshot").isEqualTo(first);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(cable.position(channel)).hasValueSatisfying(p -> assertThat(p.offset()).isEqualTo(4));
    }
}

package io.quarkiverse.cable.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.cable.runtime.database.MessageStore;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkiverse.cable.spi.OutgoingMessage;

/**
 * Writer transactions back to back on one connection, as the writer makes them under load: {@code writeWithReceipt}
 * of a batch, then commit. Prints the median and p90 time per transaction. No JMH: the figure of interest is the cost
 * of one transaction, to compare two builds of the runtime run one after the other (the tables must exist: run the
 * throughput benchmark once first).
 * <p>
 * Arguments: db kind ({@code postgresql}, {@code mariadb}), JDBC URL, user, measured transactions, batch size.
 */
public final class WriterTransactionMain {

    private static final int WARM_UP = 50;

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int measured = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        try (Connection connection = DriverManager.getConnection(args[1], args[2], "")) {
            connection.setAutoCommit(false);
            MessageStore store = new MessageStore(null, SqlDialect.forDbKind(kind));
            String writer = UUID.randomUUID().toString();
            long[] nanos = new long[measured];
            for (int b = 0; b < WARM_UP + measured; b++) {
                List<OutgoingMessage> batch = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    String channel = "writer-bench:" + (i % 10);
                    batch.add(new OutgoingMessage(channel, ChannelHash.of(channel), Backend.PAYLOAD.getBytes(), false,
                            System.nanoTime(), new CompletableFuture<>()));
                }
                long start = System.nanoTime();
                store.writeWithReceipt(connection, batch, Instant.now(), writer, b + 1, false);
                connection.commit();
                if (b >= WARM_UP) {
                    nanos[b - WARM_UP] = System.nanoTime() - start;
                }
            }
            Arrays.sort(nanos);
            System.out.printf("%s, %d rows per transaction: median %.2f ms, p90 %.2f ms, %.1f us per row%n", kind, size,
                    nanos[measured / 2] / 1e6, nanos[measured * 9 / 10] / 1e6, nanos[measured / 2] / 1e3 / size);
        }
    }
}

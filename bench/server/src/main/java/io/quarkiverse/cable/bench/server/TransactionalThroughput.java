package io.quarkiverse.cable.bench.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Throughput of broadcasts made inside a JTA transaction against plain broadcasts, for
 * {@code bench/run-tx-throughput.sh}. One request runs one mode with K sending threads and reports broadcasts/s to
 * commit; the script interleaves the modes and takes medians.
 * <p>
 * Modes: {@code plain} is {@code cable.broadcast} outside any transaction, up to {@value #WINDOW} in flight per
 * thread (the writer batches them); {@code tx} runs each broadcast in its own transaction; {@code tx10} puts
 * {@value #PER_TRANSACTION} broadcasts in each transaction. A transactional broadcast counts when its transaction
 * committed, which is when its row is committed. Each transaction borrows a connection of the cable's datasource
 * (and does no other work), so its broadcasts are written on that connection and commit with it, the path an
 * application that writes its own data takes.
 */
@Path("/bench/tx-throughput")
public class TransactionalThroughput {

    /** What one request measured. */
    public record Result(String mode, int threads, int broadcasts, long failed, long millis, double perSecond) {
    }

    private static final int WINDOW = 2000;
    private static final int PER_TRANSACTION = 10;
    private static final int CHANNELS = 10;
    /** 40 bytes, as the JMH throughput benchmark's payload. */
    private static final String PAYLOAD = "0123456789012345678901234567890123456789";

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;

    @POST
    public Result run(@QueryParam("mode") String mode, @QueryParam("threads") int threads,
            @QueryParam("broadcasts") int broadcasts) throws Exception {
        if (threads < 1 || threads > 64 || broadcasts < threads || broadcasts > 10_000_000) {
            throw new BadRequestException("threads must be 1..64 and broadcasts threads..10,000,000");
        }
        String kind = mode == null ? "" : mode.toLowerCase(Locale.ROOT);
        if (!kind.equals("plain") && !kind.equals("tx") && !kind.equals("tx10")) {
            throw new BadRequestException("mode must be plain, tx or tx10");
        }
        int perThread = broadcasts / threads;
        AtomicLong failed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                senders.add(pool.submit(() -> {
                    switch (kind) {
                        case "plain" -> sendPlain(thread, perThread, failed);
                        case "tx" -> sendInTransactions(thread, perThread, 1, failed);
                        default -> sendInTransactions(thread, perThread, PER_TRANSACTION, failed);
                    }
                    return null;
                }));
            }
            for (Future<?> sender : senders) {
                // Bounded: a stuck run fails the request instead of hanging the bench script.
                sender.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        long nanos = System.nanoTime() - start;
        int sent = perThread * threads;
        return new Result(kind, threads, sent, failed.get(), TimeUnit.NANOSECONDS.toMillis(nanos),
                (sent - failed.get()) * 1e9 / nanos);
    }

    /** Plain broadcasts with a window of stages in flight; returns once every stage completed. */
    private void sendPlain(int thread, int count, AtomicLong failed) throws InterruptedException {
        Semaphore window = new Semaphore(WINDOW);
        for (int i = 0; i < count; i++) {
            window.acquire();
            cable.broadcast(channel(thread, i), PAYLOAD).whenComplete((done, failure) -> {
                if (failure != null) {
                    failed.incrementAndGet();
                }
                window.release();
            });
        }
        window.acquire(WINDOW);
    }

    /**
     * {@code perTransaction} broadcasts per transaction, one transaction after another; waits for each transaction's
     * stages (after its commit) before the next, so the figure is broadcasts committed per second.
     */
    private void sendInTransactions(int thread, int count, int perTransaction, AtomicLong failed) {
        for (int i = 0; i < count; i += perTransaction) {
            int first = i;
            int size = Math.min(perTransaction, count - i);
            List<CompletableFuture<Void>> stages = new ArrayList<>(size);
            try {
                QuarkusTransaction.requiringNew().run(() -> {
                    joinDatasource();
                    for (int j = 0; j < size; j++) {
                        CompletionStage<Void> stage = cable.broadcast(channel(thread, first + j), PAYLOAD);
                        stages.add(stage.toCompletableFuture());
                    }
                });
            } catch (RuntimeException e) {
                // Broadcasts that joined fail with RolledBack and are counted below; the ones never made here.
                failed.addAndGet(size - stages.size());
            }
            for (CompletableFuture<Void> stage : stages) {
                try {
                    stage.get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    failed.incrementAndGet();
                }
            }
        }
    }

    /** Enlists a connection of the cable's datasource, as an application's own statements would. */
    private void joinDatasource() {
        try (Connection connection = dataSource.getConnection()) {
            // Closing the handle leaves the connection enlisted until the transaction ends.
        } catch (SQLException e) {
            throw new IllegalStateException("Could not borrow a connection of the cable's datasource", e);
        }
    }

    private static String channel(int thread, int i) {
        return "txbench:" + ((thread + i) % CHANNELS);
    }
}

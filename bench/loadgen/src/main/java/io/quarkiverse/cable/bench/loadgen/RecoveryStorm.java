package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * The reconnect storm of recoverable streams ({@code recovery-storm} command): {@code clients} subscribers over
 * {@code channels} {@code FanoutChannel} streams, extended protocol. Each round:
 * <ol>
 * <li>fresh storm: all clients connect and subscribe at the same instant, without history; timed until the last
 * {@code confirm_subscription};</li>
 * <li>one broadcast per channel, which every client receives (its position);</li>
 * <li>every client disconnects; {@code missed} broadcasts per channel are committed meanwhile
 * ({@code POST /bench/publish}, answered after the commits);</li>
 * <li>recovery storm: all clients reconnect at the same instant, each asking for the history after its position;
 * timed until the last client has its whole replay and {@code confirm_history};</li>
 * <li>one live broadcast per channel, which every client receives after its replay; all disconnect.</li>
 * </ol>
 * Every frame is checked ({@link RecoveringClient}): each message once, in order, offsets consecutive, one epoch,
 * replay before {@code confirm_history}, no {@code reject_history}. The run fails (exit 5) on any violation or a client
 * that did not get there within {@code timeout-s}.
 */
final class RecoveryStorm {

    static final String USAGE = """
              recovery-storm --url ws://127.0.0.1:8090/cable --backend <label> --out <file.md>
                  [--clients 1000] [--channels 10] [--missed 100] [--rounds 3] [--warmup-rounds 1]
                  [--timeout-s 180]
                  (the bench server's POST /bench/publish on the same host and port commits the broadcasts)
            """;

    private final URI url;
    private final String backend;
    private final Path out;
    private final int clients;
    private final int channels;
    private final int missed;
    private final int rounds;
    private final int warmupRounds;
    private final long timeoutMs;

    private final ViolationLog violations = new ViolationLog();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private final long[] published;

    private RecoveryStorm(URI url, String backend, Path out, int clients, int channels, int missed, int rounds,
            int warmupRounds, long timeoutMs) {
        this.url = url;
        this.backend = backend;
        this.out = out;
        this.clients = clients;
        this.channels = channels;
        this.missed = missed;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.timeoutMs = timeoutMs;
        this.published = new long[channels];
    }

    static RecoveryStorm parse(Arguments arguments) throws UsageException {
        URI url = URI.create(arguments.required("url"));
        String backend = arguments.required("backend");
        Path out = Path.of(arguments.required("out"));
        int clients = arguments.integer("clients", 1000, 1);
        int channels = arguments.integer("channels", 10, 1);
        int missed = arguments.integer("missed", 100, 1);
        int rounds = arguments.integer("rounds", 3, 1);
        int warmupRounds = arguments.integer("warmup-rounds", 1, 0);
        int timeoutS = arguments.integer("timeout-s", 180, 1);
        arguments.requireAllUsed();
        return new RecoveryStorm(url, backend, out, clients, channels, missed, rounds, warmupRounds,
                timeoutS * 1000L);
    }

    /** One storm's outcome: per-client milliseconds from the storm's start to ready, and those that failed. */
    record Storm(long[] readyMillis, int failed) {
        long total() {
            return readyMillis.length == 0 ? -1 : readyMillis[readyMillis.length - 1];
        }

        long percentile(double p) {
            return readyMillis.length == 0 ? -1
                    : readyMillis[Math.min(readyMillis.length - 1, (int) Math.ceil(p * readyMillis.length) - 1)];
        }
    }

    /** Runs every round and writes the report; false when any client failed or saw a violation. */
    boolean execute() throws IOException, InterruptedException {
        int loops = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        List<Storm> fresh = new ArrayList<>();
        List<Storm> recovered = new ArrayList<>();
        int failedClients = 0;
        try {
            List<Context> contexts = new ArrayList<>();
            for (int i = 0; i < loops; i++) {
                contexts.add(vertx.getOrCreateContext());
            }
            WebSocketClient client = vertx.createWebSocketClient(new WebSocketClientOptions()
                    .setMaxConnections(100_000).setConnectTimeout((int) timeoutMs).setClosingTimeout(2));
            WebSocketConnectOptions connect = new WebSocketConnectOptions().setAbsoluteURI(url.toString())
                    .addSubProtocol(RecoveringClient.SUBPROTOCOL);
            // Warm-up rounds (same work, not reported) let the JIT compile both paths before anything is timed.
            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                List<RecoveringClient> all = new ArrayList<>(clients);
                for (int i = 0; i < clients; i++) {
                    all.add(new RecoveringClient(vertx, stream(i % channels), violations));
                }
                Function<Integer, Context> contextOf = i -> contexts.get(i % contexts.size());

                Storm freshStorm = storm(all, contextOf, c -> all.get(c).connect(client, connect, 0, timeoutMs));
                publishEveryChannel(1);
                awaitAll(all, contextOf, c -> all.get(c).awaitOffset(published[c % channels]), "the first broadcast");
                awaitAll(all, contextOf, c -> {
                    all.get(c).close();
                    return Future.succeededFuture();
                }, "closing");

                publishEveryChannel(missed);
                Storm recoveryStorm = storm(all, contextOf,
                        c -> all.get(c).connect(client, connect, published[c % channels], timeoutMs));
                long short_ = all.stream().filter(c -> c.replayed() != missed).count();
                if (short_ > 0 && recoveryStorm.failed() == 0) {
                    violations.add(short_ + " clients replayed other than " + missed + " messages");
                }

                publishEveryChannel(1);
                awaitAll(all, contextOf, c -> all.get(c).awaitOffset(published[c % channels]),
                        "the live broadcast after the replay");
                awaitAll(all, contextOf, c -> {
                    all.get(c).close();
                    return Future.succeededFuture();
                }, "closing");
                failedClients += freshStorm.failed() + recoveryStorm.failed();
                if (round > 0) {
                    fresh.add(freshStorm);
                    recovered.add(recoveryStorm);
                }
                System.out.printf(Locale.ROOT, "%s %s %d: fresh storm %d ms, recovery storm %d ms (%d x %d replayed)"
                        + ", violations so far %d%n", backend, round > 0 ? "round" : "warm-up",
                        round > 0 ? round : round + warmupRounds, freshStorm.total(), recoveryStorm.total(),
                        clients, missed, violations.count());
            }
        } finally {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // sockets still closing; the process exits anyway
            }
        }
        boolean clean = failedClients == 0 && violations.count() == 0;
        String report = report(fresh, recovered, failedClients, clean);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
        System.out.print(report);
        return clean;
    }

    private String stream(int channel) {
        return "storm-" + run + "-" + channel;
    }

    /** Starts the step on every client at the same instant (each on its context) and times each one's success. */
    private Storm storm(List<RecoveringClient> all, Function<Integer, Context> contextOf,
            Function<Integer, Future<Void>> step) throws InterruptedException {
        long[] ready = new long[all.size()];
        Arrays.fill(ready, -1);
        CountDownLatch done = new CountDownLatch(all.size());
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < all.size(); i++) {
            int c = i;
            contextOf.apply(c).runOnContext(ignored -> step.apply(c).onComplete(result -> {
                if (result.succeeded()) {
                    ready[c] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                } else {
                    failures.add(result.cause());
                }
                done.countDown();
            }));
        }
        if (!done.await(timeoutMs + 30_000, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("storm did not end within the timeout");
        }
        failures.stream().limit(3).forEach(f -> violations.add("client failed: " + f.getMessage()));
        long[] succeeded = Arrays.stream(ready).filter(t -> t >= 0).sorted().toArray();
        return new Storm(succeeded, failures.size());
    }

    private void awaitAll(List<RecoveringClient> all, Function<Integer, Context> contextOf,
            Function<Integer, Future<Void>> step, String what) throws InterruptedException {
        List<CompletableFuture<Void>> futures = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            int c = i;
            Promise<Void> promise = Promise.promise();
            contextOf.apply(c).runOnContext(ignored -> step.apply(c).onComplete(promise));
            futures.add(promise.future().toCompletionStage().toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            long missing = futures.stream().filter(f -> !f.isDone() || f.isCompletedExceptionally()).count();
            violations.add(missing + " clients did not get " + what + ": " + e);
            throw new IllegalStateException(missing + " clients did not get " + what, e);
        }
    }

    /** {@code count} numbered broadcasts on every channel, the channels in parallel; returns once all committed. */
    private void publishEveryChannel(int count) throws IOException, InterruptedException {
        URI base = URI.create((url.getScheme().equals("wss") ? "https" : "http") + "://" + url.getHost() + ":"
                + url.getPort() + "/bench/publish/");
        List<CompletableFuture<HttpResponse<String>>> requests = new ArrayList<>();
        for (int k = 0; k < channels; k++) {
            requests.add(http.sendAsync(HttpRequest.newBuilder(base.resolve(stream(k) + "?from=" + (published[k] + 1)
                    + "&count=" + count)).timeout(Duration.ofMillis(timeoutMs)).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (int k = 0; k < channels; k++) {
            HttpResponse<String> response;
            try {
                response = requests.get(k).get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new IOException("publishing to " + stream(k) + " failed", e);
            }
            if (response.statusCode() != 200) {
                throw new IOException("publishing to " + stream(k) + ": " + response.statusCode() + " " + response.body());
            }
            published[k] += count;
        }
    }

    private String report(List<Storm> fresh, List<Storm> recovered, int failedClients, boolean clean) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "### %s: %,d clients, %d channels, %d missed each%n%n", backend, clients,
                channels, missed));
        text.append("| Round | Fresh storm: all subscribed (ms) | p50 / p95 (ms) | Recovery storm: all caught up (ms) "
                + "| p50 / p95 (ms) | Replayed | Replayed/s |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int r = 0; r < fresh.size(); r++) {
            Storm f = fresh.get(r);
            Storm c = recovered.get(r);
            long replayed = (long) c.readyMillis().length * missed;
            text.append(String.format(Locale.ROOT, "| %d | %,d | %,d / %,d | %,d | %,d / %,d | %,d | %,.0f |%n", r + 1,
                    f.total(), f.percentile(0.5), f.percentile(0.95), c.total(), c.percentile(0.5),
                    c.percentile(0.95), replayed, c.total() > 0 ? replayed * 1000.0 / c.total() : 0));
        }
        long freshMedian = median(fresh.stream().mapToLong(Storm::total).toArray());
        long recoveredMedian = median(recovered.stream().mapToLong(Storm::total).toArray());
        text.append(String.format(Locale.ROOT,
                "%nMedian over %d rounds (after %d warm-up): fresh storm %,d ms, recovery storm %,d ms "
                        + "(x%.2f). Failed clients: %d. Violations (gap, duplicate, reordering, wrong epoch, confirm_history "
                        + "early or late, reject_history): %d.%n",
                fresh.size(), warmupRounds, freshMedian, recoveredMedian,
                freshMedian > 0 ? (double) recoveredMedian / freshMedian : 0, failedClients, violations.count()));
        if (!clean) {
            text.append("\nFAILED. First problems:\n");
            violations.first().forEach(v -> text.append("- ").append(v).append('\n'));
        }
        return text.append('\n').toString();
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? -1 : sorted[sorted.length / 2];
    }
}

package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/**
 * The presence bench ({@code presence-storm} command): {@code connections} extended-protocol clients over
 * {@code channels} {@code FanoutChannel} streams (each stream is its subscriptions' presence set). With every client
 * connected and subscribed, and nobody joined, one window measures the baseline: rows the database writes per second
 * and the server's CPU ({@code GET /bench/counters}). Then {@code joins} clients join at the same instant, each with
 * an id of its own: timed until every joiner has its own join event and one info() per channel agrees with who
 * joined. The server's heap before and after gives the bytes per presence entry. Then the same window with everybody
 * joined (idle: no write per connection is the claim) and a window of churn ({@code churn-rate} leaves and joins per
 * second). The JSON result goes to {@code out}; exit 5 when a client failed or an info() disagreed.
 */
final class PresenceStorm {

    static final String USAGE = """
              presence-storm --url ws://127.0.0.1:8090/cable --backend <label> --out <file.json>
                  [--connections 1000] [--channels 1] [--joins 1000] [--window-s 20] [--churn-rate 50]
                  [--settle-s 11] [--timeout-s 180]
                  (the bench server's GET /bench/counters and /bench/heap on the same host and port)
            """;
    private static final String EXT = "actioncable-v1-ext-json";

    private final URI url;
    private final String backend;
    private final Path out;
    private final int connections;
    private final int channels;
    private final int joins;
    private final int windowS;
    private final int churnRate;
    private final long timeoutMs;
    private final long settleMs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private final String run = Long.toString(System.currentTimeMillis(), 36);

    private PresenceStorm(URI url, String backend, Path out, int connections, int channels, int joins, int windowS,
            int churnRate, long settleMs, long timeoutMs) {
        this.url = url;
        this.backend = backend;
        this.out = out;
        this.connections = connections;
        this.channels = channels;
        this.joins = joins;
        this.windowS = windowS;
        this.churnRate = churnRate;
        this.timeoutMs = timeoutMs;
        this.settleMs = settleMs;
    }

    static PresenceStorm parse(Arguments arguments) throws UsageException {
        URI url = URI.create(arguments.required("url"));
        String backend = arguments.required("backend");
        Path out = Path.of(arguments.required("out"));
        int connections = arguments.integer("connections", 1000, 1);
        int channels = arguments.integer("channels", 1, 1);
        int joins = arguments.integer("joins", connections, 1);
        int windowS = arguments.integer("window-s", 20, 1);
        int churnRate = arguments.integer("churn-rate", 50, 1);
        int settleS = arguments.integer("settle-s", 11, 0);
        int timeoutS = arguments.integer("timeout-s", 180, 1);
        arguments.requireAllUsed();
        if (joins > connections) {
            throw new UsageException("--joins cannot exceed --connections");
        }
        return new PresenceStorm(url, backend, out, connections, channels, joins, windowS, churnRate,
                settleS * 1000L, timeoutS * 1000L);
    }

    /** One client: its subscription, its own join event, its pending info() reply. */
    private final class Client {
        final int index;
        final String identifier;
        final String presenceId;
        final CompletableFuture<Void> subscribed = new CompletableFuture<>();
        volatile CompletableFuture<Void> ownJoin = new CompletableFuture<>();
        volatile CompletableFuture<Integer> info = new CompletableFuture<>();
        ClientWebSocket socket;
        Context context;

        Client(int index) {
            this.index = index;
            this.identifier = new JsonObject().put("channel", "FanoutChannel").put("stream", stream(index)).encode();
            this.presenceId = "u" + index;
        }

        void onText(String text) {
            JsonObject frame = new JsonObject(text);
            String type = frame.getString("type");
            if ("welcome".equals(type)) {
                send(new JsonObject().put("command", "subscribe").put("identifier", identifier));
            } else if ("confirm_subscription".equals(type)) {
                subscribed.complete(null);
            } else if ("reject_subscription".equals(type) || "disconnect".equals(type)) {
                subscribed.completeExceptionally(new IllegalStateException(text));
                ownJoin.completeExceptionally(new IllegalStateException(text));
            } else if ("presence".equals(type)) {
                JsonObject message = frame.getJsonObject("message");
                String kind = message.getString("type");
                if ("join".equals(kind) && presenceId.equals(message.getString("id"))) {
                    ownJoin.complete(null);
                } else if ("info".equals(kind)) {
                    info.complete(message.getInteger("total"));
                } else if ("error".equals(kind)) {
                    info.completeExceptionally(new IllegalStateException(text));
                }
            }
        }

        void send(JsonObject command) {
            context.runOnContext(ignored -> socket.writeTextMessage(command.encode()));
        }

        void join() {
            ownJoin = new CompletableFuture<>();
            send(new JsonObject().put("command", "join").put("identifier", identifier)
                    .put("presence", new JsonObject().put("id", presenceId).put("info", new JsonObject().put("n", index))));
        }

        void leave() {
            send(new JsonObject().put("command", "leave").put("identifier", identifier));
        }

        CompletableFuture<Integer> askInfo() {
            info = new CompletableFuture<>();
            send(new JsonObject().put("command", "presence").put("identifier", identifier).put("data", new JsonObject()));
            return info;
        }
    }

    private String stream(int index) {
        return "presence-" + run + "-" + (index % channels);
    }

    /** Counters around a window: rows the database wrote per second, the server's CPU as a share of one core. */
    record Window(double rowsPerSecond, double cpuCores, int operations) {
    }

    boolean execute() throws IOException, InterruptedException {
        int loops = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        Map<String, Object> result = new HashMap<>();
        boolean ok = true;
        List<Client> clients = new ArrayList<>(connections);
        try {
            WebSocketClient wsClient = vertx.createWebSocketClient(new WebSocketClientOptions()
                    .setMaxConnections(100_000).setConnectTimeout((int) timeoutMs).setClosingTimeout(2));
            WebSocketConnectOptions connect = new WebSocketConnectOptions().setAbsoluteURI(url.toString())
                    .addSubProtocol(EXT);
            List<Context> contexts = new ArrayList<>();
            for (int i = 0; i < loops; i++) {
                contexts.add(vertx.getOrCreateContext());
            }
            // Connected and subscribed in batches, so the connect storm is not what is measured.
            for (int from = 0; from < connections; from += 500) {
                List<CompletableFuture<Void>> batch = new ArrayList<>();
                for (int i = from; i < Math.min(connections, from + 500); i++) {
                    Client client = new Client(i);
                    clients.add(client);
                    client.context = contexts.get(i % contexts.size());
                    CompletableFuture<Void> opened = new CompletableFuture<>();
                    client.context.runOnContext(ignored -> {
                        client.socket = wsClient.webSocket();
                        client.socket.textMessageHandler(client::onText);
                        client.socket.connect(connect).onComplete(done -> {
                            if (done.failed()) {
                                client.subscribed.completeExceptionally(done.cause());
                            }
                            opened.complete(null);
                        });
                    });
                    batch.add(client.subscribed);
                }
                all(batch, "subscriptions");
            }
            long heapBefore = heap();
            Window baseline = window(null);

            long stormStart = System.nanoTime();
            List<CompletableFuture<Void>> ownJoins = new ArrayList<>();
            for (int i = 0; i < joins; i++) {
                Client client = clients.get(i);
                client.join();
                ownJoins.add(client.ownJoin);
            }
            all(ownJoins, "own join events");
            long joinedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stormStart);
            ok &= infoAgrees(clients, joins);
            long agreedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stormStart);
            long heapJoined = heap();
            Window idle = window(null);
            Window churn = window(clients);
            ok &= infoAgrees(clients, joins);

            result.put("backend", backend);
            result.put("connections", connections);
            result.put("channels", channels);
            result.put("joins", joins);
            result.put("windowS", windowS);
            result.put("churnRate", churnRate);
            result.put("stormJoinedMs", joinedMs);
            result.put("stormAgreedMs", agreedMs);
            result.put("heapBytesPerEntry", (heapJoined - heapBefore) / joins);
            result.put("baseline", JsonObject.mapFrom(baseline).getMap());
            result.put("idle", JsonObject.mapFrom(idle).getMap());
            result.put("churn", JsonObject.mapFrom(churn).getMap());
            result.put("ok", ok);
        } finally {
            for (Client client : clients) {
                if (client.socket != null) {
                    client.context.runOnContext(ignored -> client.socket.close());
                }
            }
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
        Files.writeString(out, new JsonObject(result).encodePrettily());
        return ok;
    }

    /** One info() per channel, asked by a member: its total must be the joiners of that channel. */
    private boolean infoAgrees(List<Client> clients, int joined) {
        boolean agrees = true;
        for (int channel = 0; channel < Math.min(channels, clients.size()); channel++) {
            int expected = 0;
            for (int i = channel; i < joined; i += channels) {
                expected++;
            }
            int total = clients.get(channel).askInfo().orTimeout(timeoutMs, TimeUnit.MILLISECONDS).join();
            if (total != expected) {
                System.err.printf("channel %d: info() total %d, %d joined%n", channel, total, expected);
                agrees = false;
            }
        }
        return agrees;
    }

    /** A window of {@code windowS} seconds; with {@code churning}, leaves and joins at {@code churnRate} per second. */
    private Window window(List<Client> churning) throws IOException, InterruptedException {
        // What came before settles first: an idle PostgreSQL backend reports its counts up to 10 s late
        // (PGSTAT_IDLE_INTERVAL), so without the wait a window would count the previous phase's writes.
        Thread.sleep(settleMs);
        long[] before = counters();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(windowS);
        int operations = 0;
        int next = 0;
        List<Client> away = new ArrayList<>();
        while (System.nanoTime() < end) {
            if (churning == null) {
                Thread.sleep(200);
                continue;
            }
            // Half the operations are leaves of joined clients, half the joins back of those that left.
            if (operations % 2 == 0 || away.isEmpty()) {
                Client client = churning.get(next++ % joins);
                client.leave();
                away.add(client);
            } else {
                away.remove(0).join();
            }
            operations++;
            long due = start + operations * 1_000_000_000L / churnRate;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
        for (Client client : away) {
            client.join();
        }
        List<CompletableFuture<Void>> back = away.stream().map(client -> client.ownJoin).toList();
        all(back, "the churn's last joins");
        long[] after = counters();
        double seconds = (System.nanoTime() - start) / 1e9;
        double rows = before[0] < 0 ? -1 : (after[0] - before[0]) / seconds;
        return new Window(rows, (after[1] - before[1]) / 1e9 / seconds, operations);
    }

    private void all(List<CompletableFuture<Void>> futures, String what) {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("not every client got " + what + " within " + timeoutMs + " ms: " + e, e);
        }
    }

    private long[] counters() throws IOException, InterruptedException {
        JsonObject body = get("/bench/counters");
        return new long[] { body.getLong("rowsWritten"), body.getLong("cpuNanos") };
    }

    private long heap() throws IOException, InterruptedException {
        return get("/bench/heap").getLong("usedBytes");
    }

    private JsonObject get(String path) throws IOException, InterruptedException {
        URI target = URI.create("http://" + url.getHost() + ":" + url.getPort() + path);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + target + " answered " + response.statusCode() + ": " + response.body());
        }
        return new JsonObject(response.body());
    }
}

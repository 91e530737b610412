import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * What the cable's LISTEN connections and NOTIFYs cost another NOTIFY user of the same PostgreSQL database, and the
 * reverse. Run by {@code bench/run-notify-neighbour.sh}, with the PostgreSQL JDBC driver on the class path.
 *
 * <pre>
 * java -cp pgjdbc.jar bench/notify/NotifyNeighbour.java pingpong &lt;jdbc url&gt; &lt;warm-up s&gt; &lt;window s&gt;
 *     the neighbour: a job queue's wake-up pattern, a NOTIFY ping-pong between two connections on channels of their
 *     own, one round trip at a time; prints one JSON line (round trips per second, p50/p95/p99 ms)
 * java -cp pgjdbc.jar bench/notify/NotifyNeighbour.java listeners &lt;jdbc url&gt;
 *     idle LISTEN connections on a channel nobody notifies: reads a count per stdin line, opens connections until it
 *     holds that many, prints "ready N"; closes them all at the end of stdin
 * java bench/notify/NotifyNeighbour.java cable-load &lt;ports, comma-separated&gt; &lt;broadcasts/s per node&gt; &lt;s&gt; &lt;warm-up s&gt;
 *     one WebSocket subscriber of one FanoutChannel stream on each bench server node, and (rate above 0) broadcasts
 *     to that stream POSTed to each node at the rate; prints "ready" once subscribed, then after the time one JSON
 *     line with the cable's delivery latency (POST sent to frame received, on every node's subscriber) of the
 *     broadcasts sent after the warm-up (every broadcast counts for the delivered/expected check)
 * </pre>
 */
public class NotifyNeighbour {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "pingpong" -> pingPong(args[1], Double.parseDouble(args[2]), Double.parseDouble(args[3]));
            case "listeners" -> listeners(args[1]);
            case "cable-load" -> cableLoad(args[1], Integer.parseInt(args[2]), Double.parseDouble(args[3]),
                    Double.parseDouble(args[4]));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    // ---- the neighbour ----------------------------------------------------------------------------------------

    private static void pingPong(String url, double warmupSeconds, double windowSeconds) throws Exception {
        try (Connection ping = DriverManager.getConnection(url); Connection pong = DriverManager.getConnection(url)) {
            ping.setAutoCommit(true);
            pong.setAutoCommit(true);
            try (Statement listen = ping.createStatement()) {
                listen.execute("LISTEN neighbour_pong");
            }
            try (Statement listen = pong.createStatement()) {
                listen.execute("LISTEN neighbour_ping");
            }
            AtomicBoolean running = new AtomicBoolean(true);
            // The worker of the queue: every wake-up it hears is answered at once with a NOTIFY of its own.
            Thread worker = Thread.ofPlatform().name("pong").start(() -> {
                PGConnection listening = unwrap(pong);
                try (Statement answer = pong.createStatement()) {
                    while (running.get()) {
                        PGNotification[] heard = listening.getNotifications(200);
                        if (heard != null) {
                            for (int i = 0; i < heard.length; i++) {
                                answer.execute("NOTIFY neighbour_pong");
                            }
                        }
                    }
                } catch (Exception e) {
                    if (running.get()) {
                        e.printStackTrace();
                    }
                }
            });
            PGConnection listening = unwrap(ping);
            long lost = 0;
            long[] latencies = new long[1 << 16];
            int count = 0;
            try (Statement notify = ping.createStatement()) {
                long start = System.nanoTime();
                long measureFrom = start + (long) (warmupSeconds * 1e9);
                long end = measureFrom + (long) (windowSeconds * 1e9);
                long now = start;
                while (now < end) {
                    long sent = System.nanoTime();
                    notify.execute("NOTIFY neighbour_ping");
                    PGNotification[] heard = listening.getNotifications(5000);
                    now = System.nanoTime();
                    if (heard == null || heard.length == 0) {
                        lost++; // the round trip is counted lost and the next one starts
                        continue;
                    }
                    if (sent >= measureFrom) {
                        if (count == latencies.length) {
                            latencies = Arrays.copyOf(latencies, count * 2);
                        }
                        latencies[count++] = now - sent;
                    }
                }
            }
            running.set(false);
            worker.join(5000);
            long[] measured = Arrays.copyOf(latencies, count);
            Arrays.sort(measured);
            System.out.println(String.format(Locale.ROOT,
                    "{\"roundTrips\":%d,\"perSecond\":%.1f,\"p50Ms\":%.3f,\"p95Ms\":%.3f,\"p99Ms\":%.3f,\"lost\":%d}",
                    count, count / windowSeconds, percentileMs(measured, 50), percentileMs(measured, 95),
                    percentileMs(measured, 99), lost));
        }
    }

    private static PGConnection unwrap(Connection connection) {
        try {
            return connection.unwrap(PGConnection.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static double percentileMs(long[] sorted, int percentile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)] / 1e6;
    }

    // ---- idle listeners ---------------------------------------------------------------------------------------

    private static void listeners(String url) throws Exception {
        List<Connection> held = new ArrayList<>();
        ExecutorService opening = Executors.newFixedThreadPool(8);
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = stdin.readLine()) != null;) {
            if (line.isBlank()) {
                continue;
            }
            int target = Integer.parseInt(line.trim());
            List<Future<Connection>> opened = new ArrayList<>();
            for (int i = held.size(); i < target; i++) {
                opened.add(opening.submit(() -> {
                    Connection connection = DriverManager.getConnection(url);
                    try (Statement listen = connection.createStatement()) {
                        // A channel of its own that nobody notifies: what it pays is for other channels' NOTIFYs.
                        listen.execute("LISTEN idle_listener");
                    }
                    return connection;
                }));
            }
            for (Future<Connection> connection : opened) {
                held.add(connection.get(120, TimeUnit.SECONDS));
            }
            System.out.println("ready " + held.size());
            System.out.flush();
        }
        opening.shutdown();
        for (Connection connection : held) {
            connection.close();
        }
    }

    // ---- the cable's steady broadcast load --------------------------------------------------------------------

    private static final Pattern SEQUENCE = Pattern.compile("\"sequence\":(\\d+)");
    private static final String IDENTIFIER = "{\"channel\":\"FanoutChannel\",\"stream\":\"neighbour\"}";

    private static void cableLoad(String ports, int ratePerNode, double seconds, double warmupSeconds)
            throws Exception {
        List<Integer> nodes = Arrays.stream(ports.split(",")).map(Integer::valueOf).toList();
        Map<Long, Long> sentAt = new ConcurrentHashMap<>();
        List<Long> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong measureFrom = new AtomicLong(Long.MAX_VALUE);
        AtomicLong deliveries = new AtomicLong();
        HttpClient client = HttpClient.newHttpClient();
        String subscribe = "{\"command\":\"subscribe\",\"identifier\":" + quoted(IDENTIFIER) + "}";
        CountDownLatch confirmed = new CountDownLatch(nodes.size());
        List<WebSocket> sockets = new ArrayList<>();
        for (int port : nodes) {
            WebSocket.Listener listener = new WebSocket.Listener() {
                private final StringBuilder text = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                    text.append(data);
                    if (last) {
                        String frame = text.toString();
                        text.setLength(0);
                        long now = System.nanoTime();
                        if (frame.contains("\"welcome\"")) {
                            socket.sendText(subscribe, true);
                        } else if (frame.contains("confirm_subscription")) {
                            confirmed.countDown();
                        } else {
                            Matcher sequence = SEQUENCE.matcher(frame);
                            if (sequence.find()) {
                                Long sent = sentAt.get(Long.parseLong(sequence.group(1)));
                                if (sent != null) {
                                    if (sent >= measureFrom.get()) {
                                        delivered.add(now - sent);
                                    }
                                    deliveries.incrementAndGet();
                                }
                            }
                        }
                    }
                    socket.request(1);
                    return null;
                }
            };
            sockets.add(client.newWebSocketBuilder().subprotocols("actioncable-v1-json")
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/cable"), listener).get(60, TimeUnit.SECONDS));
        }
        if (!confirmed.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("subscriptions not confirmed: " + confirmed.getCount());
        }
        System.out.println("ready");
        System.out.flush();
        AtomicLong next = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        measureFrom.set(start + (long) (warmupSeconds * 1e9));
        long end = start + (long) (seconds * 1e9);
        List<Thread> publishers = new ArrayList<>();
        if (ratePerNode > 0) {
            long period = 1_000_000_000L / ratePerNode;
            for (int port : nodes) {
                // Evenly spaced, not waiting for the previous commit: a steady stream of broadcasts into each node.
                publishers.add(Thread.ofPlatform().start(() -> {
                    long due = System.nanoTime();
                    while (due < end) {
                        long sequence = next.getAndIncrement();
                        HttpRequest post = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                                + "/bench/publish/neighbour?from=" + sequence + "&count=1"))
                                .POST(HttpRequest.BodyPublishers.noBody()).build();
                        sentAt.put(sequence, System.nanoTime());
                        client.sendAsync(post, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                            if (error != null || response.statusCode() != 200) {
                                failed.incrementAndGet();
                            }
                        });
                        due += period;
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            java.util.concurrent.locks.LockSupport.parkNanos(wait);
                        }
                    }
                }));
            }
        }
        long remaining = end - System.nanoTime();
        if (remaining > 0) {
            Thread.sleep(remaining / 1_000_000);
        }
        for (Thread publisher : publishers) {
            publisher.join();
        }
        long expected = next.get() * nodes.size();
        long drainUntil = System.nanoTime() + 5_000_000_000L;
        while (deliveries.get() < expected && System.nanoTime() < drainUntil) {
            Thread.sleep(20);
        }
        long[] latencies;
        synchronized (delivered) {
            latencies = delivered.stream().mapToLong(Long::longValue).toArray();
        }
        Arrays.sort(latencies);
        for (WebSocket socket : sockets) {
            socket.abort();
        }
        System.out.println(String.format(Locale.ROOT,
                "{\"nodes\":%d,\"ratePerNode\":%d,\"broadcasts\":%d,\"deliveries\":%d,\"expected\":%d,\"failed\":%d,"
                        + "\"p50Ms\":%.2f,\"p95Ms\":%.2f,\"p99Ms\":%.2f}",
                nodes.size(), ratePerNode, next.get(), deliveries.get(), expected, failed.get(),
                percentileMs(latencies, 50), percentileMs(latencies, 95), percentileMs(latencies, 99)));
        System.exit(0);
    }

    private static String quoted(String json) {
        return "\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}

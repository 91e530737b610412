package io.quarkiverse.cable.test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.vertx.core.json.JsonObject;

/**
 * An Action Cable client for an application's {@code @QuarkusTest}s, as Rails' {@code ActionCable::Channel::TestCase}
 * and Phoenix' {@code ChannelTest} are for theirs, except that it goes through the real endpoint: a WebSocket
 * connection to {@code /cable} of the application under test, identified as the application's
 * {@code CableIdentification} sees it (headers, cookies, query parameters, a token), speaking
 * {@code actioncable-v1-json}.
 *
 * <pre>{@code
 * try (CableTestClient alice = CableTestClient.builder().queryParam("user", "alice").connect()) {
 *     CableTestSubscription lobby = alice.subscribe("ChatChannel", Map.of("room", "lobby"));
 *     lobby.perform("speak", Map.of("text", "hi"));
 *     lobby.awaitTransmission(message -> "hi".equals(message.getString("text")));
 * }
 * }</pre>
 *
 * Every wait is bounded ({@link #DEFAULT_TIMEOUT} unless {@link Builder#timeout(Duration)} says otherwise), wakes on
 * each frame, never sleeps, and fails with an {@link AssertionError} listing the frames received. A wait fails at
 * once when the server closed the connection. Frames are kept for the client's life (pings excepted), so a wait
 * also matches what arrived before it was called.
 */
public final class CableTestClient implements AutoCloseable {

    /** How long a wait lasts unless the builder chose otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    static final String V1_JSON = "actioncable-v1-json";
    static final String EXT_JSON = "actioncable-v1-ext-json";
    /** AnyCable's sub-protocol for a token ({@code websocketAuthStrategy: 'sub-protocol'}). */
    static final String TOKEN_PREFIX = "anycable-token.";

    final Duration timeout;
    private final URI uri;
    private final List<JsonObject> frames = new ArrayList<>();
    /** Set when the connection ended (close frame or error); guarded by {@link #frames}. */
    private String ended;
    private WebSocket socket;
    /** The JDK client of this connection alone, shut down with it (its selector thread goes with it). */
    private HttpClient http;

    private CableTestClient(URI uri, Duration timeout) {
        this.uri = uri;
        this.timeout = timeout;
    }

    /** Connects anonymously to the application under test, as {@link Builder#connect()} does. */
    public static CableTestClient connect() {
        return builder().connect();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How to connect: where to, and as whom. */
    public static final class Builder {

        private URI base;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private final Map<String, String> cookies = new LinkedHashMap<>();
        private final Map<String, String> query = new LinkedHashMap<>();
        private String protocol = V1_JSON;
        private String token;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder() {
        }

        /**
         * The application's base URL, such as {@code @TestHTTPResource("/") URI base} or a second node's
         * {@link ApplicationNode#base()}; the Action Cable mount path is added to it. Without it: the application under
         * test, at {@code quarkus.http.test-host}, {@code quarkus.http.test-port} and {@code quarkus.http.root-path}.
         */
        public Builder base(URI base) {
            this.base = base;
            return this;
        }

        /** A request header of the upgrade (e.g. {@code Authorization}); {@code Sec-WebSocket-*} ones are refused. */
        public Builder header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** A cookie of the upgrade request (a session cookie, as a browser sends it). */
        public Builder cookie(String name, String value) {
            cookies.put(name, value);
            return this;
        }

        /** A query parameter of the endpoint's URL ({@code /cable?token=...}). */
        public Builder queryParam(String name, String value) {
            query.put(name, value);
            return this;
        }

        /**
         * A bearer token offered as AnyCable's {@code anycable-token.<token>} sub-protocol; the cable turns it into
         * {@code Authorization: Bearer <token>} before Quarkus authenticates the upgrade.
         */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /** Speak {@code actioncable-v1-ext-json} (stream positions on broadcasts, the session id in the welcome). */
        public Builder extendedProtocol() {
            this.protocol = EXT_JSON;
            return this;
        }

        /** The bound of every wait of this client. */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Opens the connection and waits for the welcome.
         *
         * @throws AssertionError when the server refused the connection (the unauthorized disconnect, an HTTP status
         *         instead of the upgrade) or did not welcome it in time
         */
        public CableTestClient connect() {
            CableTestClient client = open();
            JsonObject answer;
            try {
                answer = client.awaitFrame(frame -> "welcome".equals(frame.getString("type"))
                        || "disconnect".equals(frame.getString("type")), "the welcome");
            } catch (AssertionError e) {
                client.close();
                throw e;
            }
            if ("disconnect".equals(answer.getString("type"))) {
                client.close();
                throw new AssertionError("The server refused the connection to " + client.uri + ": " + answer.encode());
            }
            return client;
        }

        /**
         * Opens the connection expecting the server to refuse it, and returns why: the reason of its disconnect frame
         * ({@code unauthorized} when the application's {@code CableIdentification} returned null), or
         * {@code HTTP <status>} when the upgrade itself was refused (Quarkus Security, a wrong path).
         *
         * @throws AssertionError when the server welcomed the connection
         */
        public String connectRefused() {
            CableTestClient client;
            try {
                client = open();
            } catch (HandshakeRefused e) {
                return "HTTP " + e.status;
            }
            try (client) {
                JsonObject answer = client.awaitFrame(frame -> "welcome".equals(frame.getString("type"))
                        || "disconnect".equals(frame.getString("type")), "the refusal");
                if ("welcome".equals(answer.getString("type"))) {
                    throw new AssertionError("Expected the server to refuse the connection to " + client.uri
                            + ", it was welcomed");
                }
                return answer.getString("reason");
            }
        }

        private CableTestClient open() {
            Config config = ConfigProvider.getConfig();
            URI http = base != null ? base : applicationUnderTest(config);
            String path = servedPath(http.getPath(),
                    config.getOptionalValue("quarkus.cable.action-cable.mount-path", String.class).orElse("/cable"));
            String scheme = "https".equals(http.getScheme()) ? "wss" : "ws";
            String queryString = query.entrySet().stream()
                    .map(entry -> encode(entry.getKey()) + "=" + encode(entry.getValue()))
                    .collect(Collectors.joining("&"));
            URI uri = URI.create(scheme + "://" + http.getHost() + (http.getPort() == -1 ? "" : ":" + http.getPort()) + path
                    + (queryString.isEmpty() ? "" : "?" + queryString));
            CableTestClient client = new CableTestClient(uri, timeout);
            client.http = HttpClient.newHttpClient();
            WebSocket.Builder builder = client.http.newWebSocketBuilder().connectTimeout(timeout);
            headers.forEach(builder::header);
            if (!cookies.isEmpty()) {
                builder.header("Cookie", cookies.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                        .collect(Collectors.joining("; ")));
            }
            if (token == null) {
                builder.subprotocols(protocol);
            } else {
                builder.subprotocols(protocol, TOKEN_PREFIX + token);
            }
            try {
                client.socket = builder.buildAsync(uri, client.new Recorder()).get(timeout.toMillis(),
                        TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                client.http.shutdownNow();
                if (e.getCause() instanceof WebSocketHandshakeException refused) {
                    throw new HandshakeRefused(refused.getResponse().statusCode());
                }
                throw new AssertionError("Could not connect to " + uri + ": " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                client.http.shutdownNow();
                throw new AssertionError("Could not connect to " + uri + " within " + timeout, e);
            } catch (InterruptedException e) {
                client.http.shutdownNow();
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted while connecting to " + uri, e);
            }
            return client;
        }

        private static URI applicationUnderTest(Config config) {
            String host = config.getOptionalValue("quarkus.http.test-host", String.class).orElse("localhost");
            int port = config.getOptionalValue("quarkus.http.test-port", Integer.class).orElse(8081);
            String root = config.getOptionalValue("quarkus.http.root-path", String.class).orElse("/");
            return URI.create("http://" + host + ":" + port + (root.startsWith("/") ? root : "/" + root));
        }

        /** The mount path under the base URL's path: {@code /app/} and {@code /cable} give {@code /app/cable}. */
        static String servedPath(String basePath, String mountPath) {
            String root = basePath == null || basePath.isEmpty() ? "" : basePath;
            root = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
            return root + (mountPath.startsWith("/") ? mountPath : "/" + mountPath);
        }

        private static String encode(String text) {
            return URLEncoder.encode(text, StandardCharsets.UTF_8);
        }
    }

    /** The upgrade was answered with an HTTP status instead of a WebSocket. */
    private static final class HandshakeRefused extends AssertionError {
        final int status;

        HandshakeRefused(int status) {
            super("The server answered the upgrade with HTTP " + status);
            this.status = status;
        }
    }

    /** The endpoint this client is connected to. */
    public URI uri() {
        return uri;
    }

    /**
     * Subscribes to {@code channel} with no parameters and waits for the confirmation.
     *
     * @throws AssertionError when the subscription was rejected, or not confirmed in time
     */
    public CableTestSubscription subscribe(String channel) {
        return subscribe(channel, Map.of());
    }

    /**
     * Subscribes to {@code channel} with {@code params} (the identifier's other keys, as
     * {@code consumer.subscriptions.create({channel, ...params})}) and waits for the confirmation.
     *
     * @throws AssertionError when the subscription was rejected (with the reason, when the server gave one), or not
     *         confirmed in time
     */
    public CableTestSubscription subscribe(String channel, Map<String, ?> params) {
        return trySubscribe(channel, params).awaitConfirmation();
    }

    /**
     * Sends the subscribe command and returns at once, for a test that expects a rejection
     * ({@link CableTestSubscription#awaitRejection()}) or waits for the confirmation itself.
     */
    public CableTestSubscription trySubscribe(String channel, Map<String, ?> params) {
        if (params.containsKey("channel")) {
            throw new IllegalArgumentException("params must not name the channel; it is the first argument");
        }
        JsonObject identifier = new JsonObject().put("channel", channel);
        params.forEach(identifier::put);
        CableTestSubscription subscription = new CableTestSubscription(this, identifier.encode());
        send(new JsonObject().put("command", "subscribe").put("identifier", subscription.identifier()));
        return subscription;
    }

    void send(JsonObject command) {
        synchronized (frames) {
            if (ended != null) {
                throw new AssertionError("Cannot send " + command.encode() + ": the connection ended (" + ended + ")");
            }
        }
        try {
            socket.sendText(command.encode(), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("Could not send " + command.encode() + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while sending " + command.encode(), e);
        }
    }

    /** Every frame received so far except pings, in order. */
    public List<JsonObject> frames() {
        synchronized (frames) {
            return frames.stream().map(JsonObject::copy).toList();
        }
    }

    /** Frames of this client matching {@code filter}, in order. */
    List<JsonObject> frames(Predicate<JsonObject> filter) {
        synchronized (frames) {
            return frames.stream().filter(filter).map(JsonObject::copy).toList();
        }
    }

    /**
     * Waits for the first frame (received before or after the call) matching {@code match}, describing it as
     * {@code what} in the failure.
     */
    JsonObject awaitFrame(Predicate<JsonObject> match, String what) {
        return awaitFrame(match, 0, what);
    }

    /** Waits for the frame matching {@code match} after the first {@code skip} ones that match. */
    JsonObject awaitFrame(Predicate<JsonObject> match, int skip, String what) {
        return awaitFrame(match, skip, what, timeout);
    }

    /** {@link #awaitFrame(Predicate, int, String)} bounded by {@code timeout} instead of the client's. */
    JsonObject awaitFrame(Predicate<JsonObject> match, int skip, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (frames) {
            while (true) {
                int matched = 0;
                for (JsonObject frame : frames) {
                    if (match.test(frame) && matched++ == skip) {
                        return frame.copy();
                    }
                }
                long left = deadline - System.nanoTime();
                if (ended != null || left <= 0) {
                    throw new AssertionError("Expected " + what + " on " + uri + (ended != null
                            ? ", but the connection ended (" + ended + ")"
                            : " within " + timeout) + "; received " + describe());
                }
                try {
                    frames.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("Interrupted while waiting for " + what, e);
                }
            }
        }
    }

    /** The last 20 frames, for a failure message. */
    private String describe() {
        List<String> all = frames.stream().map(JsonObject::encode).toList();
        return all.size() + " frames" + (all.isEmpty() ? ""
                : ", the last ones: " + all.subList(Math.max(0, all.size() - 20), all.size()));
    }

    /** Receives on the JDK's threads, one message at a time, in order. */
    private final class Recorder implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                record(text);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            end("closed by the server with " + statusCode + (reason == null || reason.isEmpty() ? "" : " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            end("failed: " + error);
        }
    }

    private void record(String text) {
        // On the JDK's client thread, whose context class loader is the system one: Vert.x looks its JSON codec up
        // through the context class loader, and in a @QuarkusTest the one it finds there is not of the Vert.x this
        // class sees ("QuarkusJacksonFactory not a subtype"). Parse with this class's loader as context.
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(CableTestClient.class.getClassLoader());
        JsonObject frame;
        try {
            frame = new JsonObject(text);
        } catch (RuntimeException e) {
            // Not Action Cable: kept as it came, so a failure message shows it.
            frame = new JsonObject().put("unparsed", text);
        } finally {
            thread.setContextClassLoader(context);
        }
        if ("ping".equals(frame.getString("type"))) {
            return; // every 3 s: not worth keeping, and no test waits for one
        }
        synchronized (frames) {
            frames.add(frame);
            frames.notifyAll();
        }
    }

    private void end(String how) {
        synchronized (frames) {
            if (ended == null) {
                ended = how;
            }
            frames.notifyAll();
        }
    }

    /** Closes the connection (normal closure), waiting a bounded time for the server's close frame. */
    @Override
    public void close() {
        boolean open;
        synchronized (frames) {
            open = ended == null;
        }
        if (open) {
            closeConnection();
        }
        http.shutdownNow();
    }

    private void closeConnection() {
        CompletableFuture<WebSocket> closing = socket.sendClose(WebSocket.NORMAL_CLOSURE, "").toCompletableFuture();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            closing.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (frames) {
                while (ended == null && System.nanoTime() < deadline) {
                    frames.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            // The server is gone or does not answer: nothing more to wait for.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            socket.abort();
            end("closed by the test");
        }
    }
}

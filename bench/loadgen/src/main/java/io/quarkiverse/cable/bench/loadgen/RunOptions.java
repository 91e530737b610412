package io.quarkiverse.cable.bench.loadgen;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/**
 * What one {@code run} does. The tuning parameters mirror the environment variables of Solid Cable's k6 script
 * ({@code bench/loadtest.js}, the per-vu-iterations storm version) with the same defaults; the k6 name is noted on
 * each.
 */
record RunOptions(URI url, String backend, ScenarioKind scenario, int users, Path out, Parameters parameters,
        URI publishUrl, URI heapUrl, boolean paired) {

    /**
     * Without {@code --publish-url}, everything runs on {@code url}. With it (two nodes on one database), subscribers
     * stay on {@code url} (node B) and what produces the messages goes to {@code publishUrl} (node A): the steady
     * pings through a second connection, the fan-out publisher.
     */
    RunOptions(URI url, String backend, ScenarioKind scenario, int users, Path out, Parameters parameters) {
        this(url, backend, scenario, users, out, parameters, url, null, false);
    }

    /**
     * {@code --heap-url} (fan-out only, optional): the subscribers' server's {@code /bench/heap}, read before the
     * subscribers connect, once all of them are subscribed and before the publisher starts, and after the run; the
     * run file then has the heap each held connection costs the server.
     */
    boolean probesHeap() {
        return heapUrl != null;
    }

    boolean crossNode() {
        return !publishUrl.equals(url);
    }

    /**
     * Steady: whether each user pings through a second connection ({@code --publish-url}'s node) and receives on its
     * first. Always across nodes; {@code --paired true} asks for it on one node too, the control that separates
     * what the shape costs from what crossing nodes costs.
     */
    boolean pairedSender() {
        return crossNode() || paired;
    }

    /** Written into the run file as given, so a result can always be traced back to its settings. */
    record Parameters(
            int time, // TIME: steady duration, and the default of the other durations (s)
            int num, // NUM: pings per steady iteration
            int payloadBytes, // PAYLOAD_BYTES: message bodies are padded to this length
            int receiveTimeoutMs, // RECEIVE_TIMEOUT_MS: wait for a delivery, and for a subscription confirmation
            int handshakeTimeoutS, // HANDSHAKE_TIMEOUT_SECONDS: WebSocket upgrade plus welcome
            int minSleepMs, // MIN_SLEEP_MS
            int maxSleepMs, // MAX_SLEEP_MS
            int churnUsers, // CHURN_VUS
            int churnTime, // CHURN_TIME (s)
            int stormRounds, // STORM_ROUNDS
            int stormSleepMs, // STORM_SLEEP_MS
            int stormMaxDurationS, // maxDuration of the storm scenario
            int fanoutRate, // FANOUT_RATE (messages/s)
            int fanoutTime, // FANOUT_TIME (s)
            int fanoutWarmup, // FANOUT_WARMUP (s)
            int fanoutDrain, // FANOUT_DRAIN (s)
            int gracefulStopS, // k6's default gracefulStop, which the script does not override
            String testId, // TEST_ID
            String fanoutStream, // FANOUT_STREAM
            boolean fanoutWhisper) { // not in the k6 script: the publisher whispers instead of performing publish
    }

    static RunOptions parse(Arguments args) throws UsageException {
        URI url = parseUrl("--url", args.required("url"), "ws", "wss");
        String publishText = args.text("publish-url", null);
        URI publishUrl = publishText == null ? url : parseUrl("--publish-url", publishText, "ws", "wss");
        String backend = args.required("backend");
        ScenarioKind scenario = ScenarioKind.parse(args.required("scenario"));
        int users = args.requiredInteger("users", 1);
        Path out = Path.of(args.required("out"));

        int time = args.integer("time", 90, 1);
        int num = args.integer("num", 5, 1);
        int payloadBytes = args.integer("payload-bytes", 64, 0);
        int receiveTimeoutMs = args.integer("receive-timeout-ms", 60_000, 1);
        int handshakeTimeoutS = args.integer("handshake-timeout-s", 60, 1);
        int minSleepMs = args.integer("min-sleep-ms", 500, 0);
        int maxSleepMs = args.integer("max-sleep-ms", 1000, 0);
        int churnUsers = args.integer("churn-users", Math.max(1, users / 5), 1);
        int churnTime = args.integer("churn-time", time, 1);
        int stormRounds = args.integer("storm-rounds", 5, 1);
        int stormSleepMs = args.integer("storm-sleep-ms", 100, 0);
        // STORM_TIME defaults to max(15, TIME/3); the script only uses it for this bound.
        int stormTime = Math.max(15, time / 3);
        int stormMaxDurationS = args.integer("storm-max-duration-s", Math.max(stormTime, handshakeTimeoutS + 5), 1);
        int fanoutRate = args.integer("fanout-rate", 10, 1);
        int fanoutTime = args.integer("fanout-time", time, 1);
        int fanoutWarmup = args.integer("fanout-warmup", 15, 0);
        int fanoutDrain = args.integer("fanout-drain", 10, 0);
        int gracefulStopS = args.integer("graceful-stop-s", 30, 0);
        String testId = args.text("test-id", backend);
        String fanoutStream = args.text("fanout-stream", testId + "-fanout");
        String fanoutVia = args.text("fanout-via", "broadcast");
        if (!fanoutVia.equals("broadcast") && !fanoutVia.equals("whisper")) {
            throw new UsageException("--fanout-via must be broadcast or whisper, got '" + fanoutVia + "'");
        }
        String heapText = args.text("heap-url", null);
        URI heapUrl = heapText == null ? null : parseUrl("--heap-url", heapText, "http");
        boolean paired = Boolean.parseBoolean(args.text("paired", "false"));
        if (paired && scenario != ScenarioKind.STEADY) {
            throw new UsageException("--paired is for the steady scenario only (it pairs each user's connections)");
        }
        if (heapUrl != null && scenario != ScenarioKind.FANOUT) {
            throw new UsageException("--heap-url is for the fanout scenario only (its subscribers are held idle)");
        }
        args.requireAllUsed();

        return new RunOptions(url, backend, scenario, users, out,
                new Parameters(time, num, payloadBytes, receiveTimeoutMs, handshakeTimeoutS, minSleepMs, maxSleepMs,
                        churnUsers, churnTime, stormRounds, stormSleepMs, stormMaxDurationS, fanoutRate, fanoutTime,
                        fanoutWarmup, fanoutDrain, gracefulStopS, testId, fanoutStream, fanoutVia.equals("whisper")),
                publishUrl, heapUrl, paired);
    }

    /** Connections held open at the same time by the scenario's virtual users. */
    int virtualUsers() {
        return switch (scenario) {
            case CHURN -> parameters.churnUsers();
            case FANOUT -> users + 1; // the subscribers and the publisher
            default -> users;
        };
    }

    /** {@code text} as a URL with a host and one of {@code schemes}; {@code option} names it in the error. */
    private static URI parseUrl(String option, String text, String... schemes) throws UsageException {
        try {
            URI url = new URI(text);
            if (!List.of(schemes).contains(url.getScheme()) || url.getHost() == null) {
                throw new UsageException(option + " must be " + String.join(" or ",
                        List.of(schemes).stream().map(scheme -> scheme + "://host[:port]/path").toList())
                        + ", got '" + text + "'");
            }
            return url;
        } catch (URISyntaxException e) {
            throw new UsageException(option + " is not a URL: " + e.getMessage());
        }
    }
}

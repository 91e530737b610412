package io.quarkiverse.cable.it.presence;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.cable.it.WsClient;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

/**
 * A seeded schedule of presence churn on ChatChannel's Action Cable endpoint, for one node or several: each client runs
 * cycles, each on a node of the schedule's choosing; a cycle connects, subscribes, joins the room's presence set in one
 * of the three ways (the client's join on subscribe, a separate join command, the server's join through the
 * {@code here} action) and ends, at a random offset that is zero half the time (inside the join's commit window), by a
 * leave, an unsubscribe, a close or an abrupt drop of the connection; a client's last cycle may instead stay connected.
 * The expected set is the clients that stayed (on a node still alive). Ids do not share sessions, so the seed and one
 * client's cycles are the whole reproducer of a wrong id: the failure report prints exactly that.
 */
public final class PresenceChurn {

    enum JoinBy {
        SUBSCRIBE,
        COMMAND,
        SERVER
    }

    enum End {
        LEAVE,
        UNSUBSCRIBE,
        CLOSE,
        DROP,
        STAY
    }

    /** One cycle of one client: its node, how it joins, how long it waits after its join (0: at once), how it ends. */
    record Cycle(int node, JoinBy joinBy, int delayMillis, End end) {
        @Override
        public String toString() {
            return "node" + node + ":" + joinBy + "+" + delayMillis + "ms+" + end;
        }
    }

    final long seed;
    final String chat;
    final Map<String, List<Cycle>> schedules = new TreeMap<>();

    private PresenceChurn(long seed, String chat) {
        this.seed = seed;
        this.chat = chat;
    }

    /** The seed is {@code -Dcable.churn.seed} when given (a rerun of a failure), else new. */
    static PresenceChurn plan(String room, int clients, int cycles, int nodes) {
        long seed = Long.getLong("cable.churn.seed", System.nanoTime());
        Random random = new Random(seed);
        PresenceChurn churn = new PresenceChurn(seed,
                new JsonObject().put("channel", "ChatChannel").put("room", room).encode());
        for (int c = 0; c < clients; c++) {
            List<Cycle> schedule = new ArrayList<>();
            for (int i = 0; i < cycles; i++) {
                int node = random.nextInt(nodes);
                JoinBy joinBy = JoinBy.values()[random.nextInt(JoinBy.values().length)];
                int delay = random.nextBoolean() ? 0 : random.nextInt(30);
                // A client's last cycle stays connected half the time; no other cycle does.
                boolean stays = i == cycles - 1 && random.nextBoolean();
                End end = stays ? End.STAY : End.values()[random.nextInt(End.values().length - 1)];
                schedule.add(new Cycle(node, joinBy, delay, end));
            }
            churn.schedules.put("churner-" + c, schedule);
        }
        return churn;
    }

    /** The ids that must be in the set at the end: the clients whose last cycle stayed on a node in {@code alive}. */
    Set<String> expected(Set<Integer> alive) {
        Set<String> expected = new TreeSet<>();
        schedules.forEach((id, cycles) -> {
            Cycle last = cycles.get(cycles.size() - 1);
            if (last.end() == End.STAY && alive.contains(last.node())) {
                expected.add(id);
            }
        });
        return expected;
    }

    /** Runs every client's cycles at once, against {@code nodes}; returns the connections that stayed, by id. */
    Map<String, WsClient> run(List<URI> nodes) throws Exception {
        Map<String, WsClient> staying = new ConcurrentHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> runs = new ArrayList<>();
            schedules.forEach((id, cycles) -> runs.add(threads.submit(() -> {
                WsClient last = run(nodes, id, cycles);
                if (last != null) {
                    staying.put(id, last);
                }
                return null;
            })));
            for (Future<?> run : runs) {
                run.get(5, TimeUnit.MINUTES);
            }
        }
        return staying;
    }

    private WsClient run(List<URI> nodes, String user, List<Cycle> cycles) throws Exception {
        for (Cycle cycle : cycles) {
            WsClient client = WsClient.connect(null, nodes.get(cycle.node()), "/cable?user=" + user,
                    "actioncable-v1-ext-json");
            boolean keep = false;
            try {
                subscribe(client, cycle.joinBy() == JoinBy.SUBSCRIBE ? user : null);
                if (cycle.joinBy() == JoinBy.COMMAND) {
                    client.send(PresenceTest.join(chat, Json.encode(user), null));
                } else if (cycle.joinBy() == JoinBy.SERVER) {
                    client.send(new JsonObject().put("command", "message").put("identifier", chat)
                            .put("data", new JsonObject().put("action", "here").encode()).encode());
                }
                if (cycle.delayMillis() > 0) {
                    Thread.sleep(cycle.delayMillis()); // an offset of the schedule, not a wait for anything
                }
                switch (cycle.end()) {
                    case LEAVE -> client.send("{\"command\":\"leave\",\"identifier\":" + Json.encode(chat) + "}");
                    case UNSUBSCRIBE ->
                        client.send("{\"command\":\"unsubscribe\",\"identifier\":" + Json.encode(chat) + "}");
                    case CLOSE -> client.close();
                    case DROP -> client.abort();
                    case STAY -> keep = true;
                }
            } finally {
                if (!keep && cycle.end() != End.CLOSE && cycle.end() != End.DROP) {
                    client.close(); // after a leave or an unsubscribe, the connection goes too
                }
            }
            if (keep) {
                return client;
            }
        }
        return null;
    }

    /** Subscribes to the room (with a join on subscribe as {@code joinAs}, or none) and waits for the confirmation. */
    void subscribe(WsClient client, String joinAs) throws Exception {
        JsonObject subscribe = new JsonObject().put("command", "subscribe").put("identifier", chat);
        if (joinAs != null) {
            subscribe.put("presence", new JsonObject().put("id", joinAs));
        }
        client.send(subscribe.encode());
        client.awaitFrame("{\"identifier\":" + Json.encode(chat) + ",\"type\":\"confirm_subscription\"}");
    }

    /** The watcher's join and leave events per id, in the order it received them. */
    Map<String, List<String>> eventsById(WsClient watcher) {
        Map<String, List<String>> events = new TreeMap<>();
        for (JsonObject message : presenceMessages(watcher)) {
            String type = message.getString("type");
            if ("join".equals(type) || "leave".equals(type)) {
                events.computeIfAbsent(message.getString("id"), id -> new ArrayList<>()).add(type);
            }
        }
        return events;
    }

    /** The ids of the watcher's newest info answer (null before any). */
    Set<String> lastInfo(WsClient watcher) {
        Set<String> ids = null;
        for (JsonObject message : presenceMessages(watcher)) {
            if ("info".equals(message.getString("type"))) {
                ids = new TreeSet<>();
                for (Object record : message.getJsonArray("records")) {
                    ids.add(((JsonObject) record).getString("id"));
                }
            }
        }
        return ids;
    }

    private List<JsonObject> presenceMessages(WsClient watcher) {
        List<JsonObject> messages = new ArrayList<>();
        for (String frame : watcher.received) {
            JsonObject json = new JsonObject(frame);
            if ("presence".equals(json.getString("type")) && chat.equals(json.getString("identifier"))) {
                messages.add(json.getJsonObject("message"));
            }
        }
        return messages;
    }

    /** Every id's events alternate join, leave, ... starting with a join, and end in its expected state. */
    void assertEventsAlternate(WsClient watcher, Set<String> expected) {
        eventsById(watcher).forEach((id, sequence) -> {
            for (int i = 0; i < sequence.size(); i++) {
                assertThat(sequence.get(i)).as("event %d of %s (seed %d, schedule %s): %s", i, id, seed,
                        schedules.get(id), sequence).isEqualTo(i % 2 == 0 ? "join" : "leave");
            }
            assertThat(sequence.size() % 2 == 1).as("%s ends %s (seed %d, schedule %s): %s", id,
                    expected.contains(id) ? "present" : "absent", seed, schedules.get(id), sequence)
                    .isEqualTo(expected.contains(id));
        });
    }

    /** Whether the watcher's last event of every expected id is a join (its leaves, if any, came before). */
    boolean joinedLast(WsClient watcher, Set<String> expected) {
        Map<String, List<String>> events = eventsById(watcher);
        return expected.stream().allMatch(id -> events.containsKey(id)
                && events.get(id).get(events.get(id).size() - 1).equals("join"));
    }

    String report(Set<String> expected, Set<String> actual) {
        StringBuilder report = new StringBuilder("Presence set after the churn (seed ").append(seed)
                .append(", rerun with -Dcable.churn.seed=").append(seed).append("): expected ").append(expected)
                .append(", found ").append(actual)
                .append("\nThe wrong ids' schedules (one client's cycles reproduce its ghost):");
        Set<String> wrong = new TreeSet<>(expected);
        if (actual != null) {
            wrong.addAll(actual);
            Set<String> both = new TreeSet<>(expected);
            both.retainAll(actual);
            wrong.removeAll(both);
        }
        for (String id : wrong) {
            report.append("\n  ").append(id).append(": ").append(schedules.get(id))
                    .append(expected.contains(id) ? " (missing)" : " (ghost)");
        }
        return report.toString();
    }
}

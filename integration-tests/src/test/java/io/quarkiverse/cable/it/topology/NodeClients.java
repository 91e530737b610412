package io.quarkiverse.cable.it.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.vertx.core.json.JsonObject;

/**
 * The real JavaScript clients of a topology case (src/test/js/topology-clients.js) in one Node process: a recovering
 * {@code @anycable/core} client ({@code actioncable-v1-ext-json}) and a live {@code @rails/actioncable} client, both
 * subscribed to one chat room on one node, each through a TCP proxy the test can cut ({@link #drop()}). Every event
 * the clients report is kept, with the {@link System#nanoTime()} at which this side read it. Node and the npm packages
 * installed by the build's {@code npm ci} are required: without them the case fails rather than skips.
 */
final class NodeClients implements AutoCloseable {

    /** One line of the script: {@code c} the client ("rec" or "live"), {@code t} the event type. */
    record Event(long nanos, JsonObject json) {
        String client() {
            return json.getString("c");
        }

        String type() {
            return json.getString("t");
        }
    }

    final List<Event> events = new CopyOnWriteArrayList<>();
    private final Process node;
    private final OutputStream commands;
    private final StringBuilder stderr = new StringBuilder();

    private NodeClients(Process node) {
        this.node = node;
        this.commands = node.getOutputStream();
        Thread.ofPlatform().daemon().name("node-clients-out").start(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null;) {
                    long now = System.nanoTime();
                    if (line.startsWith("{")) {
                        events.add(new Event(now, new JsonObject(line)));
                    } else {
                        synchronized (stderr) {
                            stderr.append(line).append('\n');
                        }
                    }
                }
            } catch (Exception e) {
                // the process ended
            }
        });
        Thread.ofPlatform().daemon().name("node-clients-err").start(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(node.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null;) {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                    }
                }
            } catch (Exception e) {
                // the process ended
            }
        });
    }

    /** Starts both clients on the node at {@code port}, subscribed to {@code room}. */
    static NodeClients start(int port, String room) throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/@anycable/core")).as("npm ci ran in src/test/js").isDirectory();
        ProcessBuilder builder = new ProcessBuilder("node", "topology-clients.js").directory(directory);
        builder.environment().put("CABLE_BASE", "http://127.0.0.1:" + port);
        builder.environment().put("ROOM", room);
        return new NodeClients(builder.start());
    }

    List<Event> of(String client, String type) {
        return events.stream().filter(e -> client.equals(e.client()) && type.equals(e.type())).toList();
    }

    boolean saw(String client, String type, Predicate<JsonObject> condition) {
        return events.stream().anyMatch(e -> client.equals(e.client()) && type.equals(e.type()) && condition.test(e.json()));
    }

    /** The first event matching, after {@code afterNanos}; null when none. */
    Event first(String client, String type, Predicate<JsonObject> condition, long afterNanos) {
        return events.stream().filter(e -> e.nanos() > afterNanos && client.equals(e.client()) && type.equals(e.type())
                && condition.test(e.json())).findFirst().orElse(null);
    }

    /** The payloads ("m") a client received, in order. */
    List<String> payloads(String client) {
        return of(client, "msg").stream().map(e -> e.json().getString("m")).toList();
    }

    /** Cuts both clients' connections (a TCP reset); they reconnect by themselves. */
    void drop() throws Exception {
        send("drop");
    }

    /** What the script wrote that is not an event (warnings, a stack trace), for failure messages. */
    String diagnostics() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /** Whether the Node process still runs; fails the wait at once with its output when it does not. */
    boolean running() {
        if (!node.isAlive()) {
            throw new AssertionError("the Node clients exited: " + diagnostics());
        }
        return true;
    }

    private void send(String command) throws Exception {
        commands.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
    }

    @Override
    public void close() {
        try {
            send("exit");
            commands.close();
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
        } catch (Exception e) {
            node.destroyForcibly();
        }
    }

    /**
     * What {@code client} received is every acknowledged message exactly once, each producer's in order, and of the
     * messages of unknown outcome at most once: nothing else.
     */
    void assertDeliveredExactly(String client, String name, Collection<String> acknowledged, Set<String> unknown) {
        List<String> got = payloads(client);
        assertThat(got).as("%s: each message once", name).doesNotHaveDuplicates();
        assertEachProducerInOrder(name, got);
        assertThat(got).as("%s: every acknowledged message", name).containsAll(acknowledged);
        Set<String> allowed = new HashSet<>(acknowledged);
        allowed.addAll(unknown);
        assertThat(allowed).as("%s: nothing that was not sent", name).containsAll(got);
    }

    /** Payloads "pN-k" of one producer N arrive with k increasing. */
    static void assertEachProducerInOrder(String client, List<String> payloads) {
        Map<String, Integer> last = new HashMap<>();
        for (String payload : payloads) {
            int dash = payload.lastIndexOf('-');
            if (!payload.startsWith("p") || dash < 0) {
                continue;
            }
            int n = Integer.parseInt(payload.substring(dash + 1));
            Integer before = last.put(payload.substring(0, dash), n);
            assertThat(before == null || before < n).as("%s: %s after %s", client, payload, before).isTrue();
        }
    }
}

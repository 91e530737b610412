package io.quarkiverse.cable.it.recovery;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkiverse.cable.it.CableNode;
import io.quarkiverse.cable.it.NodeTests;

/**
 * Recovery across a node restart and a move to another node, with the real {@code @anycable/core} client
 * (src/test/js/ext-nodes.test.js): two nodes as separate processes on one PostgreSQL or MariaDB database, the client
 * connected to node A through a TCP proxy while a producer broadcasts through node B the whole time. Node A is
 * stopped (SIGTERM) and started again, then the proxy moves the client to node B; every message arrives exactly once,
 * in order, one epoch, and on every reconnection the replay comes before {@code confirm_history}, live messages after.
 * <p>
 * The script stops and starts node A through a small control endpoint of this test ({@code POST /stop-a},
 * {@code POST /start-a}, which answers the new port), since only this JVM owns the node processes.
 */
public class RecoveryNodesIT {

    /** More than the producer can broadcast while node A restarts on a slow machine: a refusal would be too_large. */
    private static final Map<String, String> NODE_CONFIG = Map.of("quarkus.cable.history.max-replay", "100000");

    @Test
    void clientRecoversExactlyAcrossRestartAndMove() throws Exception {
        assumeTrue(CableNode.sharedDatabase(), "nodes need a shared database server (-Pdb-postgresql or -Pdb-mariadb)");
        List<CableNode> nodes = new ArrayList<>();
        HttpServer control = null;
        try {
            // Node A creates the tables; B starts after it.
            CableNode a = CableNode.start("recover-a", NODE_CONFIG);
            nodes.add(a);
            CableNode b = CableNode.start("recover-b", NODE_CONFIG);
            nodes.add(b);
            control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            control.setExecutor(Executors.newSingleThreadExecutor());
            control.createContext("/stop-a", exchange -> answer(exchange, () -> {
                int exit = nodes.get(0).stop();
                return "stopped with " + exit;
            }));
            control.createContext("/start-a", exchange -> answer(exchange, () -> {
                CableNode restarted = CableNode.start("recover-a-restarted", NODE_CONFIG);
                nodes.add(restarted);
                return Integer.toString(restarted.port);
            }));
            control.start();
            NodeTests.assertPasses(b.base(), "ext-nodes.test.js", 1,
                    Map.of("CABLE_NODE_A_PORT", Integer.toString(a.port),
                            "CABLE_CONTROL", "http://127.0.0.1:" + control.getAddress().getPort()));
        } finally {
            if (control != null) {
                control.stop(0);
            }
            CableNode.closeAll(nodes);
        }
    }

    private interface Action {
        String run() throws Exception;
    }

    /** Runs the action and answers 200 with its result, or 500 with the failure (the script then fails with it). */
    private static void answer(HttpExchange exchange, Action action) throws IOException {
        int status = 200;
        String body;
        try {
            body = action.run();
        } catch (Exception | AssertionError e) {
            status = 500;
            body = e.toString();
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}

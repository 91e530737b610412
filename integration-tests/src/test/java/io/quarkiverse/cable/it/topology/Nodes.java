package io.quarkiverse.cable.it.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.cable.it.CableNode;

/** Starts cable nodes side by side (a node takes up to a minute to start on a loaded CI machine). */
final class Nodes {

    private Nodes() {
    }

    /** One node per name, each on its JDBC URL with the same extra configuration; all started when this returns. */
    static List<CableNode> start(List<CableNode> started, Map<String, String> urlsByName, Map<String, String> config)
            throws Exception {
        List<CompletableFuture<CableNode>> starting = new ArrayList<>();
        urlsByName.forEach((name, url) -> starting.add(CompletableFuture.supplyAsync(() -> {
            try {
                return CableNode.start(name, url, config);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        })));
        List<CableNode> nodes = new ArrayList<>();
        Exception failure = null;
        for (CompletableFuture<CableNode> node : starting) {
            try {
                nodes.add(node.get(CableNode.START_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS));
            } catch (Exception e) {
                failure = failure == null ? e : failure;
            }
        }
        started.addAll(nodes);
        if (failure != null) {
            throw failure;
        }
        return nodes;
    }
}

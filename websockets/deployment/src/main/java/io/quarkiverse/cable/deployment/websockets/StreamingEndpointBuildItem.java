package io.quarkiverse.cable.deployment.websockets;

import java.util.List;

import org.jboss.jandex.ClassInfo;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A WebSockets Next endpoint that streams cable channels ({@code @StreamFrom}, or a {@code CableStreams} field or
 * parameter), read from the index once ({@link CableWebSocketProcessor#scanStreamingEndpoints}): the origin check,
 * the authorization check, the stream templates and the generated endpoints all take it from here.
 */
public final class StreamingEndpointBuildItem extends MultiBuildItem {

    private final ClassInfo endpoint;
    private final String id;
    private final String path;
    private final List<String> templates;

    StreamingEndpointBuildItem(ClassInfo endpoint, String id, String path, List<String> templates) {
        this.endpoint = endpoint;
        this.id = id;
        this.path = path;
        this.templates = List.copyOf(templates);
    }

    ClassInfo endpoint() {
        return endpoint;
    }

    /** The endpoint id WebSockets Next knows it by. */
    String id() {
        return id;
    }

    /** The path it is served at, joined with its enclosing endpoints' paths. */
    String path() {
        return path;
    }

    /** Its checked {@code @StreamFrom} channel templates; empty when it streams only through {@code CableStreams}. */
    List<String> templates() {
        return templates;
    }

    boolean streamsFrom() {
        return !templates.isEmpty();
    }
}

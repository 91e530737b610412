package io.quarkiverse.cable.test;

import java.net.URI;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A second node of the application under test for the whole test class, as a JUnit 5 extension: started before the
 * class's first test (after {@code @QuarkusTest} started the first node, so the cable's tables exist), stopped after
 * its last. What it starts is an {@link ApplicationNode}: the packaged jar, on the test application's datasource.
 *
 * <pre>
 * {@code
 * &#64;QuarkusTest
 * class TwoNodesIT {
 *     &#64;RegisterExtension
 *     static SecondNode second = SecondNode.start(Map.of("quarkus.cable.presence.ttl", "2s"));
 *
 *     &#64;Test
 *     void reachesTheOtherNode() {
 *         try (CableTestClient bob = CableTestClient.builder().base(second.base()).connect()) { ... }
 *     }
 * }
 * }
 * </pre>
 *
 * The node needs the packaged application: run such classes with Failsafe ({@code *IT}), after {@code package}.
 */
public final class SecondNode implements BeforeAllCallback, AfterAllCallback {

    private final ApplicationNode.Builder builder;
    private volatile ApplicationNode node;

    private SecondNode(ApplicationNode.Builder builder) {
        this.builder = Objects.requireNonNull(builder, "builder");
    }

    /** A second node with {@code config} on top of the application's own configuration. */
    public static SecondNode start(Map<String, String> config) {
        return of(ApplicationNode.builder().config(config));
    }

    /** A second node as {@code builder} describes it (another jar, JVM options, timeouts). */
    public static SecondNode of(ApplicationNode.Builder builder) {
        return new SecondNode(builder);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        node = builder.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ApplicationNode started = node;
        node = null;
        if (started != null) {
            started.close();
        }
    }

    /** The running node; fails outside the test class's lifetime. */
    public ApplicationNode node() {
        ApplicationNode started = node;
        if (started == null) {
            throw new IllegalStateException("The second node runs only while its test class does: register it with "
                    + "@RegisterExtension on a static field");
        }
        return started;
    }

    /** The node's base URL, {@code http://127.0.0.1:<port>/}. */
    public URI base() {
        return node().base();
    }
}

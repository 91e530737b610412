package io.quarkiverse.cable.it.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.Subscription;
import io.quarkiverse.cable.it.Channels;
import io.quarkiverse.cable.it.Collector;
import io.quarkiverse.cable.runtime.database.SchemaManager;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The {@code validate} strategy's message is complete: on an empty database, exactly the statements it prints (split
 * as printed, nothing added) make a schema the application then starts on with {@code validate}, and broadcasts go
 * through. Before the fix the message left out the {@code cable_shards} seed row, so the first write failed.
 */
@QuarkusTest
@TestProfile(PrintedDdlTest.Validate.class)
public class PrintedDdlTest {

    @Inject
    Cable cable;

    @Test
    void theApplicationStartsWithValidateOnExactlyThePrintedStatementsAndBroadcasts() throws Exception {
        String channel = Channels.unique("printed-ddl");
        Collector received = new Collector();
        try (Subscription subscription = cable.subscribe(channel, received)) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            cable.broadcast(channel, "stored").toCompletableFuture().get(30, TimeUnit.SECONDS);
            received.awaitCount(1);
        }
        assertThat(received.texts()).containsExactly("stored");
    }

    public static class Validate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.cable.schema.strategy", "validate");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PrintedStatements.class));
        }
    }

    /** Runs what {@code validate} prints on an empty database, then points the application at it. */
    public static class PrintedStatements implements QuarkusTestResourceLifecycleManager {
        private FreshDatabase database;

        @Override
        public Map<String, String> start() {
            try {
                database = new FreshDatabase("cable_printed_ddl");
                // The application's own limits (application.properties: max-payload-size=17M, max-channel-length
                // at its default), which the SQL broadcast routines carry: the manager the application validates with.
                SchemaManager manager = new SchemaManager(SqlDialect.forDbKind(database.kind), 1024, 17L * 1024 * 1024);
                try (Connection connection = database.connect()) {
                    String[] printed = new String[1];
                    assertThatThrownBy(() -> manager.validate(connection, "default"))
                            .isInstanceOfSatisfying(IllegalStateException.class, e -> printed[0] = e.getMessage());
                    String statements = printed[0].substring(printed[0].indexOf("\n\n") + 2);
                    try (Statement statement = connection.createStatement()) {
                        for (String sql : splitAsTheClientDoes(statements)) {
                            statement.execute(sql);
                        }
                    }
                    manager.validate(connection, "default");
                }
                return Map.of("quarkus.datasource.jdbc.url", database.url);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * Splits a script the way psql and the mariadb client do for what the cable prints: at a line ending in the
         * current delimiter (";", or what a {@code DELIMITER} line sets), never inside a dollar-quoted body.
         */
        static List<String> splitAsTheClientDoes(String script) {
            List<String> statements = new java.util.ArrayList<>();
            StringBuilder current = new StringBuilder();
            String delimiter = ";";
            boolean dollarQuoted = false;
            for (String line : script.split("\n")) {
                if (!dollarQuoted && line.startsWith("DELIMITER ")) {
                    delimiter = line.substring("DELIMITER ".length()).trim();
                    continue;
                }
                int quotes = line.split("\\$cable\\$", -1).length - 1;
                if (quotes % 2 == 1) {
                    dollarQuoted = !dollarQuoted;
                }
                if (!dollarQuoted && line.endsWith(delimiter)) {
                    current.append(line, 0, line.length() - delimiter.length());
                    if (!current.toString().isBlank()) {
                        statements.add(current.toString());
                    }
                    current.setLength(0);
                } else {
                    current.append(line).append('\n');
                }
            }
            assertThat(current.toString()).as("an unterminated statement").isBlank();
            return statements;
        }

        @Override
        public void stop() {
            try {
                database.drop();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}

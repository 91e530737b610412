package io.quarkiverse.cable.runtime.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * Creates the cable tables when they are missing, by running the dialect's idempotent DDL resource: the same file the
 * documentation shows to users who manage the schema with Flyway or Liquibase.
 */
public final class SchemaCreator {

    private SchemaCreator() {
    }

    public static void createIfMissing(DataSource dataSource, SqlDialect dialect) throws SQLException {
        List<String> statements = statements(dialect.ddlResource());
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            for (String ddl : statements) {
                statement.execute(ddl);
            }
        }
    }

    /** The resource's statements: separated by semicolons at line ends, with comment lines dropped. */
    public static List<String> statements(String resource) {
        String script;
        try (InputStream in = SchemaCreator.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing cable DDL resource " + resource);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read cable DDL resource " + resource, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                statements.add(current.substring(0, current.lastIndexOf(";")).strip());
                current.setLength(0);
            }
        }
        return statements;
    }
}

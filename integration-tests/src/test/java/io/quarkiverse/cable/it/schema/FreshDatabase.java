package io.quarkiverse.cable.it.schema;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An empty place on the run's database server (a new in-memory database on H2, a new schema on PostgreSQL, a new
 * database on MariaDB/MySQL, where a schema is a database), prepared by a test resource before the application
 * starts on it. The server comes from the module's surefire properties ({@code cable.it.db-*}).
 */
public final class FreshDatabase {

    static final List<String> CABLE_TABLES = List.of("cable_messages", "cable_channels", "cable_shards",
            "cable_writers", "cable_presence", "cable_presence_sessions", "cable_presence_nodes");
    private static final Pattern DATABASE_IN_URL = Pattern.compile("(jdbc:[a-z]+://[^/]+/)([^?;]*)(.*)");

    final String kind = System.getProperty("cable.it.db-kind", "h2");
    final String url;
    private final String name;
    private final String user = System.getProperty("cable.it.db-user", "sa");
    private final String password = System.getProperty("cable.it.db-password", "");

    /** Creates (or empties) the place named {@code name}, a lower-case identifier. */
    FreshDatabase(String name) throws SQLException {
        this.name = name;
        String server = System.getProperty("cable.it.db-url", "jdbc:h2:mem:cable;DB_CLOSE_DELAY=-1");
        switch (kind) {
            case "h2" -> url = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
            case "postgresql" -> {
                url = server + (server.contains("?") ? "&" : "?") + "currentSchema=" + name;
                execute(server, "DROP SCHEMA IF EXISTS " + name + " CASCADE", "CREATE SCHEMA " + name);
            }
            default -> {
                Matcher matcher = DATABASE_IN_URL.matcher(server);
                if (!matcher.matches()) {
                    throw new IllegalStateException("no database in " + server);
                }
                String database = matcher.group(2) + "_" + name;
                url = matcher.group(1) + database + matcher.group(3);
                execute(server, "DROP DATABASE IF EXISTS " + database, "CREATE DATABASE " + database);
            }
        }
        if (kind.equals("h2")) {
            execute(url, "DROP ALL OBJECTS");
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Removes the place (the H2 one dies with the JVM). */
    void drop() throws SQLException {
        String server = System.getProperty("cable.it.db-url", "");
        if (kind.equals("postgresql")) {
            execute(server, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
        } else if (!kind.equals("h2")) {
            Matcher matcher = DATABASE_IN_URL.matcher(server);
            if (matcher.matches()) {
                execute(server, "DROP DATABASE IF EXISTS " + matcher.group(2) + "_" + name);
            }
        }
    }

    private void execute(String on, String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(on, user, password);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * The cable tables as the database describes them: each column's type, size and nullability, each index's
     * columns, in a stable order. Two equal descriptions mean nothing was created, altered or dropped in between.
     */
    static String describe(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        List<String> lines = new ArrayList<>();
        for (String table : CABLE_TABLES) {
            String stored = meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
            try (ResultSet columns = meta.getColumns(connection.getCatalog(), connection.getSchema(), stored, null)) {
                while (columns.next()) {
                    lines.add(table + " column " + columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " "
                            + columns.getString("TYPE_NAME") + "(" + columns.getInt("COLUMN_SIZE") + ") nullable="
                            + columns.getString("IS_NULLABLE"));
                }
            }
            try (ResultSet indexes = meta.getIndexInfo(connection.getCatalog(), connection.getSchema(), stored, false,
                    false)) {
                while (indexes.next()) {
                    if (indexes.getString("INDEX_NAME") != null) {
                        lines.add(table + " index " + indexes.getString("INDEX_NAME").toLowerCase(Locale.ROOT) + " "
                                + indexes.getShort("ORDINAL_POSITION") + " "
                                + String.valueOf(indexes.getString("COLUMN_NAME")).toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        lines.sort(null);
        return String.join("\n", lines);
    }
}

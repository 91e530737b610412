package io.quarkiverse.cable.runtime.database;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

/**
 * Brings a database's cable tables to what this version's DDL script defines, or checks that they are, per
 * {@link SchemaStrategy}. It compares the script with the database's metadata: a missing table is created with its
 * indexes, a missing column is added, a missing index is created. Nothing is ever dropped or changed.
 */
public final class SchemaManager {

    private static final Logger LOG = Logger.getLogger(SchemaManager.class);

    private final SqlDialect dialect;
    private final SchemaScript script;
    /** The SQL broadcast, installed after the tables; null when this manager handles the tables only. */
    private final SqlBroadcastRoutines routines;

    /** A manager of the tables {@code script} declares (a test of schema upgrades gives its own versions). */
    public static SchemaManager ofScript(SqlDialect dialect, String script) {
        return new SchemaManager(dialect, SchemaScript.parse(script));
    }

    private SchemaManager(SqlDialect dialect, SchemaScript script) {
        this.dialect = dialect;
        this.script = script;
        this.routines = null;
    }

    public SchemaManager(SqlDialect dialect) {
        this(dialect, SchemaScript.load(dialect.ddlResource()));
    }

    /** The tables and the SQL broadcast ({@code cable_broadcast}) with the configured limits written into it. */
    public SchemaManager(SqlDialect dialect, int maxChannelLength, long maxPayloadSize) {
        this.dialect = dialect;
        this.script = SchemaScript.load(dialect.ddlResource());
        this.routines = new SqlBroadcastRoutines(dialect, maxChannelLength, maxPayloadSize);
    }

    /** Applies {@code strategy} on {@code connection}; {@code datasource} names it in the failure message. */
    public void apply(Connection connection, SchemaStrategy strategy, String datasource) throws SQLException {
        switch (strategy) {
            case NONE -> {
            }
            case VALIDATE -> validate(connection, datasource);
            case UPDATE -> update(connection);
        }
    }

    /**
     * Fails, listing the statements to run, when a table, column or index of the script is missing, or the row the
     * id allocator needs is. The list is complete: run exactly it and the next start validates. It ends with the
     * script's row inserts, which are idempotent.
     */
    public void validate(Connection connection, String datasource) throws SQLException {
        List<String> missing = new ArrayList<>(missing(connection));
        if (missing.isEmpty() && seeded(connection)) {
            return;
        }
        missing.addAll(script.rows());
        throw new IllegalStateException("Quarkus Cable: the cable tables on datasource " + datasource
                + " are missing, older than this version or without their seed row (cable_shards, shard 0), and"
                + " quarkus.cable.schema.strategy is validate (the default in production), so the cable changes no"
                + " schema. Run these statements (or put them in your migration; the INSERT is idempotent), or set"
                + " quarkus.cable.schema.strategy=update to have the cable run them at startup:\n\n"
                + script(missing, connection));
    }

    /** The statements as a script for the database's own client (psql, mariadb), one after the other. */
    private String script(List<String> statements, Connection connection) throws SQLException {
        StringBuilder text = new StringBuilder();
        for (String statement : statements) {
            boolean routine = routines != null && routines.owns(statement, connection);
            text.append(dialect.scriptStatement(statement, routine)).append('\n');
        }
        return text.toString();
    }

    /** Whether the id allocator's row exists (the tables do). */
    private boolean seeded(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(dialect.newestId())) {
            return row.next();
        }
    }

    /** Creates what is missing, then inserts the rows the cable needs. Safe to run on several nodes at once. */
    public void update(Connection connection) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            for (String ddl : missing(connection)) {
                try {
                    statement.execute(ddl);
                } catch (SQLException e) {
                    // Another node may have run the same statement since: only fail if it is still needed.
                    if (missing(connection).contains(ddl)) {
                        if (routines != null && routines.owns(ddl, connection)) {
                            // The cable works without its SQL broadcast (MySQL with binary logging, for one, needs
                            // SUPER or log_bin_trust_function_creators to create a function).
                            LOG.warnf("Quarkus Cable could not install the SQL broadcast cable_broadcast(channel,"
                                    + " payload): %s. Broadcasts from Java work; run the statement yourself:%n%s",
                                    e.getMessage(), ddl);
                            continue;
                        }
                        throw e;
                    }
                }
            }
            for (String row : script.rows()) {
                statement.execute(row);
            }
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The statements that would bring the database to the script, in order; empty when it is up to date. */
    public List<String> missing(Connection connection) throws SQLException {
        Metadata metadata = new Metadata(connection);
        List<String> statements = new ArrayList<>();
        for (SchemaScript.Table table : script.tables()) {
            Set<String> columns = metadata.columns(table.name());
            if (columns.isEmpty()) {
                statements.addAll(table.statements());
                continue;
            }
            for (Map.Entry<String, String> column : table.columns().entrySet()) {
                if (!columns.contains(column.getKey())) {
                    statements.add(dialect.addColumn(table.name(), column.getValue()));
                }
            }
            Set<String> indexes = metadata.indexes(table.name());
            for (Map.Entry<String, String> index : table.indexes().entrySet()) {
                if (!indexes.contains(index.getKey())) {
                    statements.add(dialect.createIndex(index.getKey(), table.name(), index.getValue()));
                }
            }
        }
        if (routines != null) {
            statements.addAll(routines.missing(connection));
        }
        return statements;
    }

    /** Reads table columns and index names from JDBC metadata, in the connection's current catalog and schema. */
    private static final class Metadata {
        private final DatabaseMetaData meta;
        private final String catalog;
        private final String schema;

        Metadata(Connection connection) throws SQLException {
            this.meta = connection.getMetaData();
            this.catalog = connection.getCatalog();
            this.schema = connection.getSchema();
        }

        /** Lower-cased column names; empty when the table does not exist. */
        Set<String> columns(String table) throws SQLException {
            try (ResultSet rows = meta.getColumns(catalog, schema, pattern(table), null)) {
                return names(rows, "COLUMN_NAME");
            }
        }

        Set<String> indexes(String table) throws SQLException {
            try (ResultSet rows = meta.getIndexInfo(catalog, schema, stored(table), false, true)) {
                return names(rows, "INDEX_NAME");
            }
        }

        /** The name as the database stores unquoted identifiers (H2 upper-cases them, PostgreSQL lower-cases). */
        private String stored(String name) throws SQLException {
            if (meta.storesUpperCaseIdentifiers()) {
                return name.toUpperCase(Locale.ROOT);
            }
            return meta.storesLowerCaseIdentifiers() ? name.toLowerCase(Locale.ROOT) : name;
        }

        /** A metadata search pattern matching the name exactly ({@code _} is a wildcard in patterns). */
        private String pattern(String name) throws SQLException {
            String escape = meta.getSearchStringEscape();
            String stored = stored(name);
            return escape == null || escape.isEmpty() ? stored : stored.replace("_", escape + "_");
        }

        private static Set<String> names(ResultSet rows, String column) throws SQLException {
            Set<String> names = new HashSet<>();
            while (rows.next()) {
                String name = rows.getString(column);
                if (name != null) {
                    names.add(SchemaScript.key(name));
                }
            }
            return names;
        }
    }
}

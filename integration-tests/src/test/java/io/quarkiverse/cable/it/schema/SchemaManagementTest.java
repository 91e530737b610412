package io.quarkiverse.cable.it.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.runtime.database.SchemaManager;
import io.quarkiverse.cable.runtime.database.SqlDialect;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Schema management on the real database of the run (H2, PostgreSQL or MariaDB): the application's tables match this
 * version's script, and a table the script of a later version extends gets its new column and index from
 * {@code update} while {@code validate} refuses it, printing the statements. A probe table stands in for the cable's
 * own, so the running cable is not disturbed.
 */
@QuarkusTest
public class SchemaManagementTest {

    private static final String VERSION_1 = """
            CREATE TABLE IF NOT EXISTS cable_schema_probe (
                id BIGINT NOT NULL PRIMARY KEY,
                name VARCHAR(50) NOT NULL
            );
            """;
    /** Version 2 adds a column (with a default, so existing rows take it) and an index. */
    private static final String VERSION_2 = """
            CREATE TABLE IF NOT EXISTS cable_schema_probe (
                id BIGINT NOT NULL PRIMARY KEY,
                name VARCHAR(50) NOT NULL,
                score BIGINT DEFAULT 0 NOT NULL
            );
            CREATE INDEX IF NOT EXISTS cable_schema_probe_score ON cable_schema_probe (score);
            """;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @BeforeEach
    @AfterEach
    void dropProbe() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS cable_schema_probe");
        }
    }

    @Test
    void theApplicationsTablesMatchThisVersionsScript() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            SchemaManager manager = new SchemaManager(SqlDialect.forDbKind(dbKind));
            assertThat(manager.missing(connection)).isEmpty();
            manager.validate(connection, "default");
        }
    }

    @Test
    void updateBringsAnOlderTableToTheLaterScriptAndValidateRefusesItUntilThen() throws SQLException {
        SqlDialect dialect = SqlDialect.forDbKind(dbKind);
        SchemaManager first = SchemaManager.ofScript(dialect, VERSION_1);
        SchemaManager second = SchemaManager.ofScript(dialect, VERSION_2);
        try (Connection connection = dataSource.getConnection()) {
            assertThatThrownBy(() -> first.validate(connection, "default")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("quarkus.cable.schema.strategy is validate")
                    .hasMessageContaining("CREATE TABLE IF NOT EXISTS cable_schema_probe");
            first.update(connection);
            first.validate(connection, "default");
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO cable_schema_probe (id, name) VALUES (1, 'from version 1')");
            }

            assertThat(second.missing(connection)).containsExactly(
                    "ALTER TABLE cable_schema_probe ADD COLUMN score BIGINT DEFAULT 0 NOT NULL",
                    "CREATE INDEX cable_schema_probe_score ON cable_schema_probe (score)");
            assertThatThrownBy(() -> second.validate(connection, "default")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ALTER TABLE cable_schema_probe ADD COLUMN score BIGINT DEFAULT 0 NOT NULL;")
                    .hasMessageContaining("CREATE INDEX cable_schema_probe_score ON cable_schema_probe (score);");

            second.update(connection);
            assertThat(second.missing(connection)).as("up to date").isEmpty();
            second.update(connection); // idempotent
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT name, score FROM cable_schema_probe")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("from version 1");
                assertThat(rows.getLong(2)).as("the existing row took the new column's default").isZero();
            }
        }
    }
}

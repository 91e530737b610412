package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** DDL splitting and reading: the shipped scripts, and the shapes a later version's script may take. */
class SchemaScriptTest {

    private static final List<String> TABLES = List.of("cable_messages", "cable_channels", "cable_shards",
            "cable_writers", "cable_presence", "cable_presence_sessions", "cable_presence_nodes");

    @Test
    void statementsAreSplitAtLineEndSemicolonsWithoutCommentsOrBlankLines() {
        List<String> statements = SchemaScript.statements("""
                -- a comment; with a semicolon
                CREATE TABLE IF NOT EXISTS a (
                    id BIGINT NOT NULL, -- trailing remarks stay inside the statement
                    name VARCHAR(10) DEFAULT 'x;y' NOT NULL
                );

                INSERT INTO a (id, name) VALUES (1, 'one');
                """);
        assertThat(statements).hasSize(2);
        assertThat(statements.get(0)).startsWith("CREATE TABLE IF NOT EXISTS a (").endsWith(")")
                .contains("DEFAULT 'x;y' NOT NULL").doesNotContain("a comment");
        assertThat(statements.get(1)).isEqualTo("INSERT INTO a (id, name) VALUES (1, 'one')");
    }

    @Test
    void aStatementWithoutItsSemicolonIsRefused() {
        assertThatThrownBy(() -> SchemaScript.statements("CREATE TABLE IF NOT EXISTS a (id BIGINT)\n"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ends without a semicolon");
    }

    @Test
    void everyShippedScriptDefinesTheSameTablesAndColumns() {
        Map<String, Map<String, List<String>>> columnsByScript = new java.util.LinkedHashMap<>();
        for (String dbKind : List.of("h2", "postgresql", "mariadb")) {
            SchemaScript script = SchemaScript.load(SqlDialect.forDbKind(dbKind).ddlResource());
            assertThat(script.tables()).extracting(SchemaScript.Table::name).as(dbKind).containsExactlyElementsOf(TABLES);
            assertThat(script.table("cable_messages").indexes()).as(dbKind)
                    .containsOnlyKeys("cable_messages_channel", "cable_messages_created_at")
                    .containsEntry("cable_messages_channel", "(channel_hash, stream_position)");
            assertThat(script.rows()).as(dbKind).singleElement().asString().contains("cable_shards");
            columnsByScript.put(dbKind, script.tables().stream().collect(Collectors.toMap(SchemaScript.Table::name,
                    table -> List.copyOf(table.columns().keySet()))));
        }
        assertThat(columnsByScript.get("h2").get("cable_messages")).containsExactly("id", "channel_hash", "channel",
                "payload", "binary_payload", "stream_position", "created_at");
        assertThat(columnsByScript.get("postgresql")).isEqualTo(columnsByScript.get("h2"));
        assertThat(columnsByScript.get("mariadb")).isEqualTo(columnsByScript.get("h2"));
    }

    @Test
    void columnDefinitionsKeepTheirParenthesesAndInlineIndexesAreIndexes() {
        SchemaScript script = SchemaScript.parse("""
                CREATE TABLE IF NOT EXISTS t (
                    id BIGINT NOT NULL PRIMARY KEY,
                    at DATETIME(6) NOT NULL,
                    score DECIMAL(10, 2) DEFAULT 0 NOT NULL,
                    INDEX t_at (at, score),
                    UNIQUE (score)
                ) ENGINE = InnoDB;
                CREATE INDEX IF NOT EXISTS t_score ON t (score);
                """);
        SchemaScript.Table table = script.table("t");
        assertThat(table.columns()).containsExactly(Map.entry("id", "id BIGINT NOT NULL PRIMARY KEY"),
                Map.entry("at", "at DATETIME(6) NOT NULL"), Map.entry("score", "score DECIMAL(10, 2) DEFAULT 0 NOT NULL"));
        assertThat(table.indexes()).containsExactly(Map.entry("t_at", "(at, score)"), Map.entry("t_score", "(score)"));
        assertThat(table.statements()).hasSize(2);
    }

    @Test
    void anUnexpectedStatementIsRefused() {
        assertThatThrownBy(() -> SchemaScript.parse("DROP TABLE t;\n")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DROP TABLE t");
    }
}

package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The SQL broadcast's routines are templates under META-INF/quarkus-cable/routines: each dialect reads its own, sends
 * none of the describing header, and fills in every placeholder (a placeholder left in would install a routine that
 * fails at its first call, or not at all). What the routines do is SqlBroadcastTest's, on the real databases.
 */
class RoutineTemplatesTest {

    private static final String MARKER = "Quarkus Cable SQL broadcast vX";

    @Test
    void postgreSqlInstallsOneFunctionAndRevokesItsPublicGrant() {
        List<String> statements = new PostgreSqlDialect().sqlBroadcastRoutines("app", MARKER, 255, 65536);
        assertThat(statements).hasSize(2);
        assertThat(statements.get(0)).startsWith("CREATE OR REPLACE FUNCTION cable_broadcast(")
                .contains("-- " + MARKER, "SET search_path = \"app\", pg_temp", "> 255 THEN", "> 65536 THEN",
                        "pg_notify('quarkus_cable', 'sql')")
                .endsWith("$cable$");
        assertThat(statements.get(1)).isEqualTo("REVOKE ALL ON FUNCTION cable_broadcast(TEXT, TEXT) FROM PUBLIC");
        statements.forEach(statement -> assertThat(statement).doesNotContainPattern("@[A-Z_]+@"));
    }

    @Test
    void mariaDbInstallsAFunctionAndAProcedureOfTheSameName() {
        List<String> statements = new MariaDbDialect().sqlBroadcastRoutines("app", MARKER, 255, 65536);
        assertThat(statements).hasSize(4);
        assertThat(statements.get(0)).isEqualTo("DROP FUNCTION IF EXISTS cable_broadcast");
        assertThat(statements.get(1)).startsWith("CREATE FUNCTION cable_broadcast(")
                .contains("COMMENT '" + MARKER + "'", "> 255 THEN", "> 65536 THEN", "WSREP_CLUSTER_STATE_UUID")
                .endsWith("END");
        assertThat(statements.get(2)).isEqualTo("DROP PROCEDURE IF EXISTS cable_broadcast");
        assertThat(statements.get(3)).startsWith("CREATE PROCEDURE cable_broadcast(")
                .contains("COMMENT '" + MARKER + "'", "SELECT cable_broadcast(channel, payload) INTO message_id")
                .endsWith("END");
        statements.forEach(statement -> assertThat(statement).doesNotContainPattern("@[A-Z_]+@"));
    }

    @Test
    void everyTemplateIsListedForTheNativeImage() {
        for (String resource : SqlDialect.ROUTINE_RESOURCES) {
            assertThat(getClass().getClassLoader().getResource(resource)).as(resource).isNotNull();
        }
    }
}

package io.quarkiverse.cable.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * A suite whose subject is what a database server does under the cable (real clients recovering from its history, a
 * slow client beside its poller, presence and identities on the WebSocket and SSE front ends, whispers, replay pacing,
 * the operator's endpoints), not the JDBC driver: it runs once per server. The MySQL Connector/J stage talks to the
 * same MariaDB server as the MariaDB stage, which runs it with MariaDB's driver, so there it is skipped; the in-process
 * suites that stay in that stage (the writer's, the poller's, presence's, history's) send every statement the cable
 * sends through Connector/J (RecoverySubscribeTest reads history through it; ReplayAdmissionTest, the bounds on
 * those reads, and PresenceInStreamTest, a Node client recovering presence events, run in the MariaDB stage).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DisabledIfSystemProperty(named = "cable.it.db-kind", matches = "mysql", disabledReason = "runs once per database server: the MariaDB stage runs it on the same server")
public @interface OncePerServer {
}

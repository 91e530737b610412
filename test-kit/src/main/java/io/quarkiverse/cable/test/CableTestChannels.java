package io.quarkiverse.cable.test;

import java.util.UUID;

/**
 * Channel names no earlier test run used. The cable's tables ({@code cable_channels}, {@code cable_messages},
 * {@code cable_presence}, ...) are the cable's own, not Hibernate ORM's: its entities map read-only subselects, so
 * {@code quarkus.hibernate-orm.schema-management.strategy=drop-and-create} never drops or empties them, and on a
 * database that outlives the test JVM (a server, an H2 file) a channel keeps its stream position and its history from
 * one run to the next. When a test's channel is named after a row Hibernate recreated ({@code board:1} again), a
 * subscriber with history gets the previous run's messages and positions do not start at 1. Deleting the cable's rows
 * under a running application is not safe (its writer and pollers hold positions and ids in memory), so a test takes
 * a channel name of its own instead.
 */
public final class CableTestChannels {

    private CableTestChannels() {
    }

    /**
     * {@code prefix:<random UUID>}, as {@code board:6f1c...}: unique to this call, so unknown to every earlier run and
     * to every other test sharing the application and its database.
     */
    public static String unique(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("prefix must not be empty");
        }
        return prefix + ":" + UUID.randomUUID();
    }
}

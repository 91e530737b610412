package io.quarkiverse.cable.it;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

/** JDBC helpers the fault-injecting tests share: pass-through calls of their proxies, and what a channel stored. */
public final class Jdbc {

    private Jdbc() {
    }

    /** Calls {@code method} on {@code target} for a proxy, throwing what the target threw (not its reflective wrapper). */
    public static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Whether this is a node's writer thread ({@code cable-writer-*}): a fault meant for the writer's commit must not
     * be spent by another worker of the node that commits through the same datasource meanwhile (presence renewing
     * its lease or reaping another node's, the trimmer).
     */
    public static boolean onTheWriter() {
        return Thread.currentThread().getName().startsWith("cable-writer-");
    }

    /** How many rows {@code cable_messages} holds for {@code channel}. */
    public static long storedMessages(DataSource dataSource, String channel) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection
                        .prepareStatement("SELECT count(*) FROM cable_messages WHERE channel = ?")) {
            count.setString(1, channel);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}

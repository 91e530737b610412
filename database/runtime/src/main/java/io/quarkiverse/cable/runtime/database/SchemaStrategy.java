package io.quarkiverse.cable.runtime.database;

import io.quarkus.runtime.LaunchMode;

/** What the cable does with its tables when it starts ({@code quarkus.cable.schema.strategy}). */
public enum SchemaStrategy {

    /** Touch nothing: a migration tool (Flyway, Liquibase) owns the tables. */
    NONE,

    /**
     * Check that every table, column and index of this version exists; if not, fail startup with the statements
     * that would bring the database up to date. Changes nothing.
     */
    VALIDATE,

    /**
     * Create missing tables, add missing columns and indexes, then go on. Never drops or alters what exists. Needs
     * DDL privileges.
     */
    UPDATE;

    /**
     * The strategy when none is configured: {@code update} in dev and test mode, where databases are scratch ones;
     * {@code validate} in production, which like Hibernate ORM and Flyway changes no production schema unless asked.
     */
    public static SchemaStrategy defaultFor(LaunchMode mode) {
        return mode.isDevOrTest() ? UPDATE : VALIDATE;
    }
}

package io.quarkiverse.cable.deployment;

import io.quarkus.builder.item.EmptyBuildItem;

/**
 * The engine's start has been recorded: an adapter's step that must follow it (the database adapter's schema-ready
 * signal, which Hibernate ORM waits for) consumes this.
 */
public final class CableStartedBuildItem extends EmptyBuildItem {
}

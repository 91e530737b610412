package io.quarkiverse.cable.deployment.database;

import io.quarkus.builder.item.SimpleBuildItem;

/** The database adapter applies to this application: on this datasource, of this kind. */
public final class DatabaseAdapterBuildItem extends SimpleBuildItem {

    private final String datasourceName;
    private final String dbKind;

    DatabaseAdapterBuildItem(String datasourceName, String dbKind) {
        this.datasourceName = datasourceName;
        this.dbKind = dbKind;
    }

    String datasourceName() {
        return datasourceName;
    }

    String dbKind() {
        return dbKind;
    }
}

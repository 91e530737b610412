package io.quarkiverse.cable.deployment;

import io.quarkiverse.cable.runtime.core.CableBuildTimeConfig.Adapter;
import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The adapter chosen for this application and, for {@code database}, the datasource and its kind.
 */
public final class CableAdapterBuildItem extends SimpleBuildItem {

    private final Adapter adapter;
    private final String datasourceName;
    private final String dbKind;

    private CableAdapterBuildItem(Adapter adapter, String datasourceName, String dbKind) {
        this.adapter = adapter;
        this.datasourceName = datasourceName;
        this.dbKind = dbKind;
    }

    static CableAdapterBuildItem memory() {
        return new CableAdapterBuildItem(Adapter.MEMORY, null, null);
    }

    static CableAdapterBuildItem database(String datasourceName, String dbKind) {
        return new CableAdapterBuildItem(Adapter.DATABASE, datasourceName, dbKind);
    }

    public Adapter adapter() {
        return adapter;
    }

    public boolean isDatabase() {
        return adapter == Adapter.DATABASE;
    }

    public String datasourceName() {
        return datasourceName;
    }

    public String dbKind() {
        return dbKind;
    }
}

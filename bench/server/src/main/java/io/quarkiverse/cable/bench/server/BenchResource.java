package io.quarkiverse.cable.bench.server;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.RestResponse;

import io.quarkiverse.cable.Cable;

/** What runs, for the bench runner (readiness) and its report. */
@Path("/bench")
public class BenchResource {

    /**
     * @param flavour the build: {@code memory}, or the database the cable runs on ({@code h2}, {@code postgresql},
     *        {@code mariadb}); derived from what the build fixed, not from the runtime profile
     * @param dbKind the cable's database, {@code none} on the memory adapter
     */
    public record Info(String flavour, String relay, String adapter, String dbKind, boolean ready) {
    }

    /**
     * The heap the server holds after a full collection: what live objects take, not what the collector has not yet
     * reclaimed.
     */
    public record Heap(long usedBytes, long committedBytes) {
    }

    /**
     * Counters read around a window of the presence bench: rows the database wrote (inserted, updated, deleted; -1
     * without a database: PostgreSQL's counts for this database, MariaDB's for the whole server) and this process'
     * CPU time.
     */
    public record Counters(long rowsWritten, long cpuNanos) {
    }

    @Inject
    Cable cable;

    @Inject
    jakarta.enterprise.inject.Instance<javax.sql.DataSource> dataSource;

    @Inject
    Relay relay;

    @Inject
    BenchConfig config;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    Optional<String> datasourceKind;

    /** 200 once the relay can deliver, 503 (same body, {@code ready} false) while it cannot. */
    @GET
    @Path("/info")
    public RestResponse<Info> info() {
        String dbKind = "memory".equals(cable.adapter()) ? "none" : datasourceKind.orElse("none");
        String flavour = "memory".equals(cable.adapter()) ? "memory" : dbKind;
        Info info = new Info(flavour, config.relay().configName(), cable.adapter(), dbKind, relay.ready());
        return RestResponse.status(info.ready() ? Status.OK : Status.SERVICE_UNAVAILABLE, info);
    }

    @GET
    @Path("/stats")
    public Map<String, Long> stats() {
        return relay.counters().snapshot();
    }

    @GET
    @Path("/counters")
    public Counters counters() throws java.sql.SQLException {
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        if ("memory".equals(cable.adapter())) {
            return new Counters(-1, cpu);
        }
        String sql = switch (datasourceKind.orElse("none")) {
            // Backends report their counts at most once a second; the windows are long enough for that.
            case "postgresql" -> "SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database"
                    + " WHERE datname = current_database()";
            // MariaDB 10.11 has no Innodb_rows_* counters; the handler's count rows written, updated and deleted.
            case "mariadb", "mysql" -> "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS WHERE"
                    + " VARIABLE_NAME IN ('HANDLER_WRITE', 'HANDLER_UPDATE', 'HANDLER_DELETE')";
            default -> null;
        };
        if (sql == null) {
            return new Counters(-1, cpu);
        }
        try (var connection = dataSource.get().getConnection(); var statement = connection.createStatement()) {
            if (sql.contains("pg_stat_database")) {
                statement.execute("SELECT pg_stat_clear_snapshot()");
            }
            try (var rows = statement.executeQuery(sql)) {
                rows.next();
                return new Counters(rows.getLong(1), cpu);
            }
        }
    }

    /**
     * Collects garbage (twice: a first full collection can leave objects whose finalisation or reference processing
     * frees more) and answers the heap in use after it. For the load generator's heap per connection; it stops the
     * world, so it is called only while the server is idle.
     */
    @GET
    @Path("/heap")
    public Heap heap() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        memory.gc();
        var usage = memory.getHeapMemoryUsage();
        return new Heap(usage.getUsed(), usage.getCommitted());
    }
}

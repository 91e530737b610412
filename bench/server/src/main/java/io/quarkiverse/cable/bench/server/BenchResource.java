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

    @Inject
    Cable cable;

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

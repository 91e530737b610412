package io.quarkiverse.cable.bench.server;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.Cable;
import io.quarkus.runtime.Startup;

/** Creates the relay {@code bench.relay} names, at startup, and only that one (the others open no connections). */
@Singleton
public class RelaySelection {

    private static final Logger LOG = Logger.getLogger(RelaySelection.class);

    @Produces
    @Singleton
    @Startup
    Relay relay(BenchConfig config, Cable cable, Instance<CableRelay> cableRelay, Instance<RedisRelay> redisRelay,
            Instance<PgNotifyRelay> pgNotifyRelay) {
        BenchConfig.RelayKind kind = config.relay();
        if (kind != BenchConfig.RelayKind.CABLE && !"memory".equals(cable.adapter())) {
            // On the database adapter every message would cross the database as well as the relay.
            throw new IllegalStateException("bench.relay=" + kind.configName() + " needs the memory cable adapter,"
                    + " but this build uses the " + cable.adapter() + " adapter: run the memory flavour"
                    + " (bench/server/target/memory/quarkus-app/quarkus-run.jar with -Dquarkus.profile=memory)");
        }
        Relay relay = switch (kind) {
            case CABLE -> cableRelay.get();
            case REDIS -> redisRelay.get();
            case PGNOTIFY -> pgNotifyRelay.get();
        };
        LOG.infof("bench server: relay %s, cable adapter %s", kind.configName(), cable.adapter());
        return relay;
    }
}

package io.quarkiverse.cable.bench.server;

import java.util.Locale;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The bench server's own settings, read once at startup. */
@ConfigMapping(prefix = "bench")
public interface BenchConfig {

    /**
     * What carries a broadcast to the stream's subscribers: {@code cable} (the extension, on the flavour's adapter),
     * {@code redis} (Redis PUBLISH) or {@code pgnotify} (PostgreSQL NOTIFY). Any other value fails startup.
     */
    @WithDefault("cable")
    RelayKind relay();

    PgNotify pgnotify();

    interface PgNotify {

        /** Where the pgnotify relay sends NOTIFY and LISTENs, with its credentials. */
        @WithDefault("jdbc:postgresql://127.0.0.1:5432/cable_bench?user=postgres")
        String url();

        /** How many connections send NOTIFY; a publisher waits for a free one. */
        @WithDefault("4")
        int poolSize();
    }

    enum RelayKind {
        CABLE,
        REDIS,
        PGNOTIFY;

        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}

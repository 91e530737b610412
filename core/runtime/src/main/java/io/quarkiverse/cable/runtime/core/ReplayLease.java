package io.quarkiverse.cable.runtime.core;

import java.util.List;

import io.quarkiverse.cable.CableMessage;

/**
 * A replay's share of the node's {@link ReplayBudget}, handed to the front end with the replay: it reports each
 * message as it hands it to the client's socket, and closes the lease when the replay is written or abandoned. The
 * engine closes it too when the subscription ends, so a stream that fails or is cancelled mid-replay gives back
 * what it held. Both calls are idempotent past the bytes held.
 */
public interface ReplayLease extends AutoCloseable {

    /** For replays outside the budget (the Java API's, whose messages go to the application's listener at once). */
    ReplayLease NONE = new ReplayLease() {
        @Override
        public void written(CableMessage message) {
        }

        @Override
        public void close() {
        }
    };

    /** {@code message} of the replay was handed to the socket: its bytes go back to the budget. */
    void written(CableMessage message);

    /** The replay is over (written, refused or abandoned): what it still holds goes back, and its place. */
    @Override
    void close();

    /** One lease for the replays of several streams sent as one (a protocol subscription's group). */
    static ReplayLease all(List<ReplayLease> leases) {
        if (leases.isEmpty()) {
            return NONE;
        }
        if (leases.size() == 1) {
            return leases.get(0);
        }
        return new ReplayLease() {
            @Override
            public void written(CableMessage message) {
                // The leases together took every message's cost: the first that still holds some gives this one back
                // (the group's replay is one list in id order, so which stream's lease it comes from does not matter).
                for (ReplayLease lease : leases) {
                    if (lease instanceof ReplayBudget.Lease held && held.held() > 0) {
                        held.written(message);
                        return;
                    }
                }
            }

            @Override
            public void close() {
                leases.forEach(ReplayLease::close);
            }
        };
    }
}

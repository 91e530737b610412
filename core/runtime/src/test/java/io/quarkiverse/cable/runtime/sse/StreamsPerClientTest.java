package io.quarkiverse.cable.runtime.sse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The per-client table's bookkeeping: the bound, places given back, entries gone at zero. */
class StreamsPerClientTest {

    @Test
    void aClientHasAtMostTheLimitOpenAndOthersAreApart() {
        StreamsPerClient clients = new StreamsPerClient(3);
        for (int i = 0; i < 3; i++) {
            assertThat(clients.take("address:127.0.0.2")).isTrue();
        }
        assertThat(clients.take("address:127.0.0.2")).isFalse();
        assertThat(clients.open("address:127.0.0.2")).isEqualTo(3);
        assertThat(clients.take("address:127.0.0.3")).isTrue();
        assertThat(clients.take("user:alice")).isTrue();
        clients.release("address:127.0.0.2");
        assertThat(clients.take("address:127.0.0.2")).isTrue();
        assertThat(clients.take("address:127.0.0.2")).isFalse();
    }

    @Test
    void theTableHoldsOnlyClientsWithAStreamOpen() {
        StreamsPerClient clients = new StreamsPerClient(2);
        for (int i = 0; i < 1000; i++) {
            String client = "address:10.0." + (i / 256) + "." + (i % 256);
            assertThat(clients.take(client)).isTrue();
            assertThat(clients.clients()).isEqualTo(1);
            clients.release(client);
            assertThat(clients.clients()).isZero();
        }
        clients.take("user:bob");
        clients.take("user:bob");
        clients.release("user:bob");
        assertThat(clients.clients()).isEqualTo(1);
        clients.release("user:bob");
        clients.release("user:bob"); // one too many: nothing to give back, no entry made
        assertThat(clients.clients()).isZero();
        assertThat(clients.take("user:bob")).isTrue();
        assertThat(clients.take("user:bob")).isTrue();
        assertThat(clients.take("user:bob")).isFalse();
    }
}

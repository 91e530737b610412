package io.quarkiverse.cable.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.transaction.UserTransaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.testing.BroadcastCapture;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Without any database (memory adapter), the testing helper captures what a {@code @Transactional} bean broadcast:
 * only after the commit, and nothing of a rolled-back transaction.
 */
class MemoryTransactionCaptureTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClass(Notifier.class))
            .overrideConfigKey("quarkus.datasource.db-kind", "h2")
            .overrideConfigKey("quarkus.datasource.active", "false")
            .overrideConfigKey("quarkus.cable.datasource", "none-here")
            .overrideConfigKey("quarkus.devservices.enabled", "false");

    @ApplicationScoped
    public static class Notifier {
        @Inject
        Cable cable;

        @Transactional
        public void notifyThenMaybeFail(String text, boolean fail) {
            cable.broadcast("orders", text);
            if (fail) {
                throw new IllegalStateException("roll back");
            }
        }
    }

    @Inject
    Notifier notifier;

    @Inject
    Cable cable;

    @Inject
    UserTransaction transaction;

    @Test
    void capturesCommittedBroadcastsOnly() throws Exception {
        assertThat(cable.adapter()).isEqualTo("memory");
        try (BroadcastCapture capture = BroadcastCapture.channel("orders")) {
            assertThatThrownBy(() -> notifier.notifyThenMaybeFail("rolled back", true))
                    .isInstanceOf(IllegalStateException.class);
            notifier.notifyThenMaybeFail("committed", false);
            assertThat(capture.await(1)).hasSize(1);
            assertThat(capture.texts()).containsExactly("committed");

            // Held until the commit: not captured while the transaction is open.
            transaction.begin();
            CompletableFuture<Void> pending = cable.broadcast("orders", "later").toCompletableFuture();
            assertThat(capture.count()).isEqualTo(1);
            assertThatThrownBy(pending::join).isInstanceOf(IllegalStateException.class);
            transaction.commit();
            pending.get(30, TimeUnit.SECONDS);
            assertThat(capture.await(2)).hasSize(2);
            assertThat(capture.texts()).containsExactly("committed", "later");
        }
        transaction.begin();
        CompletableFuture<Void> rolledBack = cable.broadcast("orders", "x").toCompletableFuture();
        transaction.rollback();
        assertThatThrownBy(() -> rolledBack.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(CableException.RolledBack.class);
    }
}

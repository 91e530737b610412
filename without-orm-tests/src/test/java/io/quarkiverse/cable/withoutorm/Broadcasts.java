package io.quarkiverse.cable.withoutorm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.Subscription;

/** What both applications check: a broadcast reaches a subscriber, Hibernate is absent, no datasource WARN. */
final class Broadcasts {

    private Broadcasts() {
    }

    static void deliverOne(Cable cable) throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        try (Subscription subscription = cable.subscribe("chat:1", (CableMessage message) -> received.add(message.text()))) {
            subscription.confirmed().toCompletableFuture().get(30, TimeUnit.SECONDS);
            cable.broadcast("chat:1", "hello").toCompletableFuture().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 1);
        }
        assertThat(received).containsExactly("hello");
    }

    static void hibernateIsAbsent() {
        assertThatThrownBy(() -> Class.forName("org.hibernate.Session", false,
                Thread.currentThread().getContextClassLoader()))
                .as("no Hibernate ORM on the application's class path").isInstanceOf(ClassNotFoundException.class);
    }

    static boolean isWarning(LogRecord record) {
        return record.getLevel().intValue() >= Level.WARNING.intValue();
    }

    /** Warnings that mention a datasource, in any form. */
    static List<String> datasourceWarnings(List<LogRecord> warnings) {
        return warnings.stream().map(record -> record.getLoggerName() + ": " + record.getMessage())
                .filter(text -> text.toLowerCase(java.util.Locale.ROOT).contains("datasource")
                        || text.toLowerCase(java.util.Locale.ROOT).contains("data source"))
                .toList();
    }
}

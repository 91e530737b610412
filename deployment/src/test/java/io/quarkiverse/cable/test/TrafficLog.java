package io.quarkiverse.cable.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/**
 * WebSockets Next's traffic log (`quarkus.websockets-next.server.traffic-logging.enabled`, category at DEBUG): what
 * its own send methods sent, so a test can tell the frames that went through {@code sendText} from those written to
 * the socket. Attach before the frames are sent, close after.
 */
final class TrafficLog extends Handler implements AutoCloseable {

    private static final String CATEGORY = "io.quarkus.websockets.next.traffic";

    private final List<String> messages = new CopyOnWriteArrayList<>();

    static TrafficLog attach() {
        TrafficLog log = new TrafficLog();
        Logger.getLogger(CATEGORY).addHandler(log);
        return log;
    }

    /** The start of each text payload logged as sent (at most 8 characters; the log cuts payloads anyway). */
    List<String> sentTexts() {
        return messages.stream()
                .filter(message -> message.contains("sent text message"))
                .map(message -> message.substring(message.indexOf("Payload:") + "Payload:".length()).strip())
                .map(payload -> payload.length() > 8 ? payload.substring(0, 8) : payload)
                .toList();
    }

    @Override
    public void publish(LogRecord record) {
        messages.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        Logger.getLogger(CATEGORY).removeHandler(this);
    }
}

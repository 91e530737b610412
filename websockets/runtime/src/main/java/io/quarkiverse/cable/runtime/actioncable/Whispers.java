package io.quarkiverse.cable.runtime.actioncable;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.runtime.core.CableEngine;
import io.quarkiverse.cable.runtime.core.ChannelReader;
import io.quarkiverse.cable.runtime.core.IdentityChannels;

/**
 * This node's whispers: every whisper of the cable travels on one channel ({@link IdentityChannels#WHISPERS}) as
 * {@code <sender's session id>\n<length of the stream's name>:<stream><data as JSON>}, which this node reads with one
 * subscription and hands to its Action Cable subscriptions streaming that stream, the sender's connection left out.
 * One subscription per node, not one per stream: a subscription to a stream costs an entry in {@link #listeners},
 * not a subscription of the engine (a client that subscribes to many streams would otherwise double what it holds).
 * Text, not a JSON object around the data: the data goes out as it came, checked (one JSON value) but not parsed.
 */
final class Whispers {

    private static final Logger LOG = Logger.getLogger(Whispers.class);

    private final CableEngine engine;
    /** Per stream, this node's subscriptions streaming it. */
    private final ConcurrentHashMap<String, Set<ActionCableSubscription>> listeners = new ConcurrentHashMap<>();
    private final ChannelReader reader;

    Whispers(CableEngine engine) {
        this.engine = engine;
        this.reader = engine.channelReader(IdentityChannels.WHISPERS, this::dispatch);
    }

    /** What goes to the database for a whisper of {@code dataJson} to {@code stream} from session {@code sessionId}. */
    static byte[] envelope(String sessionId, String stream, String dataJson) {
        return (sessionId + "\n" + stream.length() + ":" + stream + dataJson).getBytes(StandardCharsets.UTF_8);
    }

    /** Sends a whisper; completes when it is committed. */
    CompletableFuture<Void> send(String sessionId, String stream, String dataJson) {
        return engine.broadcastCommand(IdentityChannels.WHISPERS, envelope(sessionId, stream, dataJson))
                .toCompletableFuture();
    }

    /**
     * {@code listener} hears the others' whispers to {@code stream} from now on; completes once this node reads the
     * whisper channel (its starting line), so a whisper committed after that reaches it.
     */
    CompletableFuture<Void> listen(String stream, ActionCableSubscription listener) {
        listeners.computeIfAbsent(stream, ignored -> ConcurrentHashMap.newKeySet()).add(listener);
        return reader.reading();
    }

    void stopListening(String stream, ActionCableSubscription listener) {
        listeners.computeIfPresent(stream, (ignored, set) -> {
            set.remove(listener);
            return set.isEmpty() ? null : set;
        });
    }

    /** Streams with at least one listener on this node (for tests). */
    int streamCount() {
        return listeners.size();
    }

    private void dispatch(String envelope) {
        int newline = envelope.indexOf('\n');
        int colon = newline < 0 ? -1 : envelope.indexOf(':', newline);
        if (colon < 0) {
            return; // nothing the cable wrote
        }
        int length;
        try {
            length = Integer.parseInt(envelope, newline + 1, colon, 10);
        } catch (NumberFormatException e) {
            return;
        }
        int dataStart = colon + 1 + length;
        if (length < 0 || dataStart > envelope.length()) {
            return;
        }
        Set<ActionCableSubscription> receivers = listeners.get(envelope.substring(colon + 1, dataStart));
        if (receivers == null) {
            return; // nobody here streams it
        }
        String sender = envelope.substring(0, newline);
        String data = envelope.substring(dataStart);
        if (!Frames.isJson(data)) {
            // Spliced into the frame as it is, so it must be one JSON value: a row on the whisper channel written by
            // anything but the cable (SQL with the table's rights) could otherwise close the frame's object and add
            // its own keys, a {"type":"disconnect","reconnect":false} that stops the receivers' clients for good.
            LOG.warnf("Quarkus Cable dropped a row of %s whose whisper data is not one JSON value (%d characters):"
                    + " only the cable writes that channel", IdentityChannels.WHISPERS, data.length());
            return;
        }
        for (ActionCableSubscription receiver : receivers) {
            // The sender never hears itself, as in AnyCable (its whole session is left out).
            if (!receiver.sessionId().equals(sender)) {
                receiver.whispered(data);
            }
        }
    }
}

package io.quarkiverse.cable.test;

import java.net.http.WebSocket;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** A JDK WebSocket listener that hands each whole text frame (its fragments joined) to {@code frames}. */
final class TextFrames implements WebSocket.Listener {

    private final Consumer<String> frames;
    private final StringBuilder partial = new StringBuilder();

    TextFrames(Consumer<String> frames) {
        this.frames = frames;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            frames.accept(partial.toString());
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }
}

package io.quarkiverse.cable.runtime.actioncable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.cable.ChannelHandler;
import io.quarkus.arc.Arc;

/** The {@code @CableChannel} beans found and checked at build time, by channel name, with their methods. */
public final class ChannelRegistry {

    /** What a channel that does not implement {@link ChannelHandler} does with whispers: the interface's default. */
    private static final ChannelHandler DEFAULT_HANDLER = new ChannelHandler() {
    };

    /** The channel callbacks a method may serve ({@code @OnSubscribe}, {@code @OnUnsubscribe}). */
    enum Callback {
        SUBSCRIBE,
        UNSUBSCRIBE
    }

    /**
     * A channel: its bean class, the names of its actions and their methods, its callback methods (all bound at static
     * init, before any connection is served).
     */
    public record Channel(String name, Class<?> beanClass, Set<String> actions, Map<String, ChannelMethod> invokers,
            Map<Callback, ChannelMethod> callbacks) {

        /** The method of {@code action} (generated at build time), or null when the channel has no such action. */
        ChannelMethod action(String action) {
            return invokers.get(action);
        }

        /** The channel's {@code @OnSubscribe} or {@code @OnUnsubscribe} method, or null: it has none. */
        ChannelMethod callback(Callback callback) {
            return callbacks.get(callback);
        }

        /** The bean a subscription is made with. */
        Object bean() {
            return Arc.container().instance(beanClass).get();
        }

        /** {@code bean} as a handler: itself when it is one, otherwise the interface's defaults. */
        static ChannelHandler handler(Object bean) {
            return bean instanceof ChannelHandler handler ? handler : DEFAULT_HANDLER;
        }
    }

    private final Map<String, Channel> channels;
    private final boolean turboUsed;

    /**
     * @param classes bean class name by channel name
     * @param actions action names by channel name
     * @param turboUsed whether the application uses {@code TurboStreams}
     */
    ChannelRegistry(Map<String, String> classes, Map<String, Set<String>> actions, boolean turboUsed) {
        this.turboUsed = turboUsed;
        Map<String, Channel> found = new HashMap<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        classes.forEach((name, className) -> {
            try {
                Class<?> beanClass = Class.forName(className, false, loader);
                found.put(name, new Channel(name, beanClass, Set.copyOf(actions.getOrDefault(name, Set.of())),
                        new ConcurrentHashMap<>(), new ConcurrentHashMap<>()));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot load cable channel " + name + " (" + className + ")", e);
            }
        });
        this.channels = Map.copyOf(found);
    }

    /** Binds the method of a declared action ({@link ActionCableRecorder#bind}). */
    void bind(String channel, String action, ChannelMethod method) {
        Channel found = channels.get(channel);
        if (found == null || !found.actions().contains(action)) {
            throw new IllegalStateException("No action '" + action + "' declared on cable channel " + channel);
        }
        found.invokers().put(action, method);
    }

    /** Binds a channel's {@code @OnSubscribe} or {@code @OnUnsubscribe} method. */
    void bind(String channel, Callback callback, ChannelMethod method) {
        Channel found = channels.get(channel);
        if (found == null) {
            throw new IllegalStateException("No cable channel " + channel + " declared");
        }
        found.callbacks().put(callback, method);
    }

    public Channel channel(String name) {
        return channels.get(name);
    }

    /**
     * The channel names, the ones closest to {@code name} first (by edit distance, ignoring case; then
     * alphabetically): what a log line about a mistyped name lists.
     */
    List<String> namesClosestTo(String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>(channels.keySet());
        names.sort(Comparator.<String> comparingInt(known -> distance(wanted, known.toLowerCase(Locale.ROOT)))
                .thenComparing(Comparator.naturalOrder()));
        return names;
    }

    /** Levenshtein distance, two rows. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    public boolean turboUsed() {
        return turboUsed;
    }
}

package io.quarkiverse.cable.runtime.actioncable;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code @CableAction} invokers registered at static init, by channel and action name. A holder of its own
 * because the invokers exist only once ArC has validated the beans, after the channel registry bean was declared.
 */
public final class CableActionInvokers {

    private static final Map<String, CableActionInvoker> INVOKERS = new ConcurrentHashMap<>();

    private CableActionInvokers() {
    }

    static void register(String channel, String action, CableActionInvoker invoker) {
        INVOKERS.put(key(channel, action), invoker);
    }

    /** The invoker of {@code action} on {@code channel}, or null. */
    static CableActionInvoker get(String channel, String action) {
        return INVOKERS.get(key(channel, action));
    }

    private static String key(String channel, String action) {
        return channel + '#' + action;
    }
}

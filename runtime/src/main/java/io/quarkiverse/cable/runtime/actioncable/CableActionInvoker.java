package io.quarkiverse.cable.runtime.actioncable;

import jakarta.enterprise.invoke.Invoker;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.cable.ChannelSubscription;
import io.vertx.core.json.JsonObject;

/**
 * Calls one {@code @CableAction} method through the ArC invoker generated for it at build time (no reflection): a
 * direct call of the method on the subscription's channel bean. The data parameter is the command's
 * {@code JsonObject}, or a record/POJO decoded from it with the application's {@code ObjectMapper}.
 *
 * @param parameterType the method's data parameter type; {@code JsonObject} passes the data as it is
 */
record CableActionInvoker(Invoker<Object, Object> invoker, Class<?> parameterType) {

    /** The data could not be decoded to the action's parameter type: bad input from the client. */
    public static final class UndecodableData extends RuntimeException {
        UndecodableData(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Calls the action on {@code channel}, the bean instance the subscription was made with. */
    public void invoke(Object channel, ChannelSubscription subscription, JsonObject data, ObjectMapper mapper)
            throws Exception {
        invoker.invoke(channel, new Object[] { subscription, argument(data, mapper) });
    }

    private Object argument(JsonObject data, ObjectMapper mapper) {
        if (parameterType == JsonObject.class) {
            return data;
        }
        JsonObject fields = data.copy();
        fields.remove("action");
        try {
            return mapper.convertValue(fields.getMap(), parameterType);
        } catch (IllegalArgumentException e) {
            throw new UndecodableData("data does not decode to " + parameterType.getSimpleName() + ": "
                    + e.getMessage(), e);
        }
    }
}

package io.quarkiverse.cable.it.todo;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

/**
 * {@code {"channel":"TodoChannel"}} streams the to-do list's changes ({@link TodoResource#CHANNEL}); its {@code add}
 * action takes a record decoded from the action's JSON, and saves and broadcasts in one transaction.
 */
@CableChannel("TodoChannel")
public class TodoChannel implements ChannelHandler {

    /** The data of {@code perform("add", {title: ...})}. */
    public record NewTodo(String title) {
    }

    @Inject
    Cable cable;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.streamFrom(TodoResource.CHANNEL);
    }

    @CableAction
    @Transactional
    void add(ChannelSubscription subscription, NewTodo todo) {
        TodoItem item = new TodoItem();
        item.title = todo.title();
        item.persist();
        cable.broadcast(TodoResource.CHANNEL, new TodoEvent("added", item.view()));
    }
}

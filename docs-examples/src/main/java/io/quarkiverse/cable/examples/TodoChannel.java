package io.quarkiverse.cable.examples;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.CableAction;
import io.quarkiverse.cable.CableChannel;
import io.quarkiverse.cable.ChannelHandler;
import io.quarkiverse.cable.ChannelSubscription;

/** The Action Cable page's typed, transactional action: {"channel":"TodoChannel"} streams "todos". */
@CableChannel("TodoChannel")
public class TodoChannel implements ChannelHandler {

    @Inject
    Cable cable;

    @Override
    public void subscribed(ChannelSubscription subscription) {
        subscription.streamFrom("todos");
    }

    // tag::add-todo[]
    @CableAction                                                         // subscription.perform("add", {title: "milk"})
    @Transactional                                                       // the broadcast joins the transaction
    void add(ChannelSubscription subscription, NewTodo todo) {
        TodoItem item = new TodoItem();
        item.title = todo.title();
        item.persist();
        cable.broadcast("todos", item.view());
    }
    // end::add-todo[]
}

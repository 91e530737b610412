package io.quarkiverse.cable.examples;

// tag::todo-resource[]
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.cable.Cable;

@Path("/todos")
public class TodoResource {

    @Inject
    Cable cable;

    @POST
    @Transactional
    public TodoView add(String title) {
        TodoItem item = new TodoItem();
        item.title = title;
        item.persist();
        // Joins the transaction. The stage completes after the commit, so it is not waited for here; an invalid
        // broadcast throws at this call instead, and the transaction rolls back with it.
        cable.broadcast("todos", new TodoEvent("added", item.view()));
        return item.view();
        // Commit: the item and the broadcast are stored together. An exception instead: neither is.
    }
}
// end::todo-resource[]

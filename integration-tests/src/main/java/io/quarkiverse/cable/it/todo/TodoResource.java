package io.quarkiverse.cable.it.todo;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.cable.Cable;

/**
 * The to-do list of the demo page (todos.html): every change is saved and broadcast in one transaction, so every open
 * page hears about exactly the changes that were committed, and a change is never announced and then rolled back.
 */
@Path("/todos")
@Produces(MediaType.APPLICATION_JSON)
public class TodoResource {

    public static final String CHANNEL = "todos";

    @Inject
    Cable cable;

    @GET
    public List<TodoView> list() {
        return TodoItem.<TodoItem> listAll().stream().map(TodoItem::view).sorted((a, b) -> Long.compare(a.id(), b.id()))
                .toList();
    }

    /**
     * Adds an item. {@code failAfterBroadcast} makes the request fail after the broadcast, rolling the transaction
     * back: the item is not saved and no page hears of it.
     */
    @POST
    @Consumes(MediaType.TEXT_PLAIN)
    @Transactional
    public TodoView add(String title, @QueryParam("failAfterBroadcast") boolean failAfterBroadcast) {
        TodoItem item = new TodoItem();
        item.title = title;
        item.persist();
        item.flush();
        cable.broadcast(CHANNEL, new TodoEvent("added", item.view()));
        if (failAfterBroadcast) {
            throw new IllegalStateException("failing after the broadcast, as asked: the transaction rolls back");
        }
        return item.view();
    }

    @POST
    @Path("/{id}/toggle")
    @Transactional
    public TodoView toggle(@PathParam("id") long id) {
        TodoItem item = TodoItem.findById(id);
        if (item == null) {
            throw new NotFoundException();
        }
        item.done = !item.done;
        cable.broadcast(CHANNEL, new TodoEvent("updated", item.view()));
        return item.view();
    }

    @DELETE
    @Path("/{id}")
    @Transactional
    public void remove(@PathParam("id") long id) {
        TodoItem item = TodoItem.findById(id);
        if (item == null) {
            throw new NotFoundException();
        }
        item.delete();
        cable.broadcast(CHANNEL, new TodoEvent("removed", item.view()));
    }
}

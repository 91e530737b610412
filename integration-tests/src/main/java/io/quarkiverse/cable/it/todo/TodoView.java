package io.quarkiverse.cable.it.todo;

/** A to-do item as the page shows it; broadcast as JSON with the application's ObjectMapper. */
public record TodoView(long id, String title, boolean done) {
}

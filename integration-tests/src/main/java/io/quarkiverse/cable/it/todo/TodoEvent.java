package io.quarkiverse.cable.it.todo;

/** What every open page of the to-do list receives: {@code added}, {@code updated} or {@code removed}, and the item. */
public record TodoEvent(String type, TodoView item) {
}

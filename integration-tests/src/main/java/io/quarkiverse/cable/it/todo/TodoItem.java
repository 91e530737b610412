package io.quarkiverse.cable.it.todo;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** The demo's to-do item, persisted with Panache in the "todos" persistence unit (the cable's datasource). */
@Entity
@Table(name = "todo_items")
public class TodoItem extends PanacheEntity {

    public String title;

    public boolean done;

    public TodoView view() {
        return new TodoView(id, title, done);
    }
}

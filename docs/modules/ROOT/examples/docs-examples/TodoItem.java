package io.quarkiverse.cable.examples;

import jakarta.persistence.Entity;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** The to-do entity the API page's transactional example saves; in the application's default persistence unit. */
@Entity
public class TodoItem extends PanacheEntity {

    public String title;

    public TodoView view() {
        return new TodoView(id, title);
    }
}

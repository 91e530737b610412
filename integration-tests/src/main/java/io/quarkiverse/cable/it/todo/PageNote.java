package io.quarkiverse.cable.it.todo;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** A note of a page-cursor test list (CursorPageResource): saved and broadcast in one transaction. */
@Entity
@Table(name = "page_notes")
public class PageNote extends PanacheEntity {

    public String list;

    public String text;
}

package io.quarkiverse.cable.examples;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** A chat message of the Action Cable page's Turbo room page. */
@Entity
@Table(name = "room_message")
public class Message extends PanacheEntity {

    public String room;

    public String text;
}

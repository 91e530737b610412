package io.quarkiverse.cable.examples.standup;

// tag::note[]
import java.time.Instant;
import java.util.List;

import jakarta.persistence.Entity;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** One line of a team's standup board. */
@Entity
public class Note extends PanacheEntity {

    public String team;
    public String author;
    public String text;
    public Instant postedAt;

    public static List<Note> ofTeam(String team) {
        // Not by id: each instance allocates ids in blocks of its own, so ids do not follow the posting order.
        return list("team = ?1 order by postedAt, id", team);
    }

    /** What the board's pages and clients see of a note (also its JSON in a broadcast). */
    public record View(long id, String author, String text) {
    }

    public View view() {
        return new View(id, author, text);
    }
}
// end::note[]

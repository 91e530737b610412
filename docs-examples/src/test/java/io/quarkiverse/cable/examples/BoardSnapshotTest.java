package io.quarkiverse.cable.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamPosition;
import io.quarkiverse.cable.examples.standup.BoardSnapshot;
import io.quarkiverse.cable.examples.standup.Note;
import io.quarkiverse.cable.examples.standup.Standup;
import io.quarkiverse.cable.test.CableTestClient;
import io.quarkiverse.cable.test.CableTestSubscription;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The page cursor's recipe (recovery.adoc, "Why it is exact"): BoardSnapshot reads a board's notes and its cursor from
 * one snapshot, and a client subscribing from the cursor gets exactly what the notes did not have. With a note
 * committed by another transaction between the cursor and the notes: on PostgreSQL the snapshot hides it from the
 * notes and the cursor replays it; on H2 (READ COMMITTED, the cursor read first) it is in the notes and replayed once.
 */
@QuarkusTest
class BoardSnapshotTest {

    @Inject
    BoardSnapshot snapshot;

    @Inject
    Cable cable;

    @Inject
    Sessions sessions;

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void theCursorReplaysExactlyWhatTheNotesDoNotHave() {
        String team = "snapshot-" + UUID.randomUUID();
        post(team, "before");
        BoardSnapshot.Board board = snapshot.read(team);
        assertThat(board.notes()).extracting(Note.View::text).containsExactly("before");
        post(team, "after");
        assertThat(replayedFrom(team, board.cursor())).isEqualTo("after");
    }

    @Test
    void aNoteCommittedBetweenTheCursorAndTheNotes() throws Exception {
        String team = "snapshot-" + UUID.randomUUID();
        post(team, "before");
        AtomicReference<Optional<StreamPosition>> cursor = new AtomicReference<>();
        AtomicReference<List<String>> notes = new AtomicReference<>();
        QuarkusTransaction.requiringNew().run(() -> {
            snapshot.repeatableRead();
            cursor.set(cable.position(Standup.channel(team)));
            // Committed by another transaction while this one is open.
            join(CompletableFuture.runAsync(() -> post(team, "meanwhile")));
            notes.set(Note.ofTeam(team).stream().map(note -> note.text).toList());
        });
        if (dbKind.equals("postgresql")) {
            assertThat(notes.get()).as("the snapshot's notes").containsExactly("before");
        } else {
            assertThat(notes.get()).as("READ COMMITTED's notes").containsExactly("before", "meanwhile");
        }
        assertThat(replayedFrom(team, cursor.get())).as("either way, the cursor replays it").isEqualTo("meanwhile");
    }

    private void post(String team, String text) {
        QuarkusTransaction.requiringNew().run(() -> {
            Note note = new Note();
            note.team = team;
            note.author = "alice";
            note.text = text;
            note.postedAt = Instant.now();
            note.persist();
            cable.broadcast(Standup.channel(team), note.view());
        });
    }

    /** The first note a board subscribed from the cursor receives, as the page's client would. */
    private String replayedFrom(String team, Optional<StreamPosition> cursor) {
        try (CableTestClient bob = CableTestClient.builder().cookie("session", sessions.login("bob")).connect()) {
            CableTestSubscription board = bob.subscribe("StandupChannel",
                    Map.of("team", team, "cursor", StreamPosition.cursor(cursor)));
            return board.awaitTransmission(message -> message.containsKey("author")).getString("text");
        }
    }

    private static void join(CompletableFuture<Void> commit) {
        try {
            commit.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.quarkiverse.cable.examples.standup;

// tag::snapshot[]
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.Cable;
import io.quarkiverse.cable.StreamPosition;

/** A board's notes and its page cursor read from one database snapshot. */
@ApplicationScoped
public class BoardSnapshot {

    @Inject
    Cable cable;

    @Inject
    AgroalDataSource dataSource;          // the cable's datasource: the default one, as Note's

    public record Board(List<Note.View> notes, Optional<StreamPosition> cursor) {
    }

    @Transactional                        // read only: a broadcast of this transaction would land after the cursor
    public Board read(String team) {
        repeatableRead();                                                        // before any query
        Optional<StreamPosition> cursor = cable.position(Standup.channel(team));  // the snapshot starts here
        List<Note.View> notes = Note.ofTeam(team).stream().map(Note::view).toList();
        return new Board(notes, cursor);
    }

    /**
     * Makes the current transaction REPEATABLE READ on PostgreSQL; it must be the transaction's first statement. The
     * connection is the transaction's own: inside a JTA transaction Agroal hands the same one to Hibernate and to the
     * cable, and closing it here gives it back to the transaction, not to the pool. MariaDB and MySQL need nothing
     * (InnoDB's default is REPEATABLE READ); on H2 the cursor is read first, so a note committed between the two reads
     * is rendered and replayed once, never lost.
     */
    public void repeatableRead() {
        try (Connection connection = dataSource.getConnection()) {
            if (connection.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not start the snapshot", e);
        }
    }
}
// end::snapshot[]

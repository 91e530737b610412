package io.quarkiverse.cable.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.cable.spi.ChannelHash;
import io.quarkus.arc.profile.IfBuildProfile;

/**
 * Tests only: deletes a channel's stored history the documented way (its messages together with its
 * {@code cable_channels} row), so its next broadcast starts a new epoch and recovering clients are told the history
 * is lost; or deletes a channel's oldest messages, keeping its row and epoch, as trimming does.
 */
@IfBuildProfile("test")
@Path("/history-admin")
public class HistoryAdminResource {

    @Inject
    AgroalDataSource dataSource;

    @DELETE
    @Path("/{channel}")
    public String reset(@PathParam("channel") String channel) throws SQLException {
        long hash = ChannelHash.of(channel);
        try (Connection connection = dataSource.getConnection()) {
            int messages;
            try (PreparedStatement delete = connection
                    .prepareStatement("DELETE FROM cable_messages WHERE channel_hash = ?")) {
                delete.setLong(1, hash);
                messages = delete.executeUpdate();
            }
            try (PreparedStatement delete = connection
                    .prepareStatement("DELETE FROM cable_channels WHERE channel_hash = ?")) {
                delete.setLong(1, hash);
                delete.executeUpdate();
            }
            return Integer.toString(messages);
        }
    }

    /** Deletes the channel's messages up to stream position {@code through}, as if they had been trimmed. */
    @DELETE
    @Path("/{channel}/messages")
    public String trim(@PathParam("channel") String channel, @QueryParam("through") long through) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM cable_messages WHERE channel_hash = ? AND stream_position <= ?")) {
            delete.setLong(1, ChannelHash.of(channel));
            delete.setLong(2, through);
            return Integer.toString(delete.executeUpdate());
        }
    }
}

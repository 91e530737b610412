package io.quarkiverse.cable.entity;

import java.time.LocalDateTime;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A stored broadcast, for queries and administration (the data path itself uses plain JDBC). Rows are written by
 * the cable; treat them as read-only except for deleting.
 */
@Entity
@Table(name = "cable_messages")
public class CableMessageEntity extends PanacheEntityBase {

    /** Global id, assigned in commit order. */
    @Id
    public long id;

    /** First 8 bytes of the SHA-256 of the channel name, big-endian. */
    @Column(name = "channel_hash", nullable = false)
    public long channelHash;

    @Column(name = "channel", nullable = false, length = 1024)
    public String channel;

    /** The raw payload (UTF-8 text unless {@link #binaryPayload}); a varbinary/bytea/longblob column per database. */
    @Column(name = "payload", nullable = false)
    @JdbcTypeCode(SqlTypes.VARBINARY)
    public byte[] payload;

    @Column(name = "binary_payload", nullable = false)
    public boolean binaryPayload;

    /** Gapless position within the channel, starting at 1. */
    @Column(name = "stream_position", nullable = false)
    public long streamPosition;

    /** When the message was written, in UTC. */
    @Column(name = "created_at", nullable = false)
    public LocalDateTime createdAt;

    /** The newest messages of a channel, newest first. */
    public static List<CableMessageEntity> latest(String channel, int count) {
        return find("channel = ?1 order by id desc", channel).page(0, count).list();
    }
}

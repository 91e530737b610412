package io.quarkiverse.cable.entity;

import java.time.LocalDateTime;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Subselect;
import org.hibernate.annotations.Synchronize;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A stored broadcast, for queries and administration (the data path itself uses plain JDBC). Rows are written by
 * the cable; the entity is read-only, and {@link #deleteOlderThan} is the one change it offers.
 * <p>
 * Mapped as a {@link Subselect} of the cable's table rather than the table itself: Hibernate ORM's schema tooling
 * (create, drop, update, validate, truncate) only handles physical tables, so whatever
 * {@code quarkus.hibernate-orm.schema-management.strategy} the application uses, it never creates, alters or drops
 * {@code cable_messages} or its indexes: the cable's own schema management owns them. {@link Synchronize} makes
 * queries flush pending changes to the table first; {@link Immutable} makes the read-only contract explicit.
 */
@Entity
@Subselect("SELECT id, channel_hash, channel, payload, binary_payload, stream_position, created_at FROM cable_messages")
@Synchronize("cable_messages")
@Immutable
public class CableMessageEntity extends PanacheEntityBase {

    /** Global id, assigned in commit order. */
    @Id
    public long id;

    /** First 8 bytes of the SHA-256 of the channel name, big-endian. */
    @Column(name = "channel_hash", nullable = false)
    public long channelHash;

    @Column(name = "channel", nullable = false, length = 1024)
    public String channel;

    /**
     * The raw payload (UTF-8 text unless {@link #binaryPayload}); a varbinary/bytea/longblob column per database. A
     * broadcast "to others" ({@code Cable.excluding}) is stored with the excluded session in front: byte
     * {@code 0xFF} (never the first byte of UTF-8 text), the session id's length in bytes, the id, then the payload.
     */
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

    /**
     * Deletes the messages written before {@code cutoff} (UTC, like {@link #createdAt}), in the current transaction;
     * returns how many. For applications that trim themselves ({@code quarkus.cable.trim.enabled=false}). Panache's
     * {@code delete(...)} cannot be used: the entity maps a subselect, which SQL cannot delete from.
     */
    public static long deleteOlderThan(LocalDateTime cutoff) {
        return getEntityManager().createNativeQuery("DELETE FROM cable_messages WHERE created_at < ?1")
                .setParameter(1, cutoff)
                .executeUpdate();
    }
}

package io.quarkiverse.cable.entity;

import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.Subselect;
import org.hibernate.annotations.Synchronize;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * Per-channel state, for queries and administration: the position of the channel's newest message and the epoch
 * positions are counted in. A row appears with a channel's first broadcast. Read-only.
 * <p>
 * Mapped as a {@link Subselect} of {@code cable_channels}, so Hibernate ORM's schema management never touches the
 * table (see {@link CableMessageEntity}).
 */
@Entity
@Subselect("SELECT channel_hash, channel, epoch, last_position, last_message_id, created_at, updated_at FROM cable_channels")
@Synchronize("cable_channels")
@Immutable
public class CableChannelEntity extends PanacheEntityBase {

    @Id
    @Column(name = "channel_hash")
    public long channelHash;

    @Column(name = "channel", nullable = false, length = 1024)
    public String channel;

    @Column(name = "epoch", nullable = false, length = 32)
    public String epoch;

    @Column(name = "last_position", nullable = false)
    public long lastPosition;

    @Column(name = "last_message_id", nullable = false)
    public long lastMessageId;

    @Column(name = "created_at", nullable = false)
    public LocalDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public LocalDateTime updatedAt;

    public static CableChannelEntity findByName(String channel) {
        return find("channel", channel).firstResult();
    }
}

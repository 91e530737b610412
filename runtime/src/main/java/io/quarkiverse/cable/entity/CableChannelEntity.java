package io.quarkiverse.cable.entity;

import java.time.LocalDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * Per-channel state, for queries and administration: the position of the channel's newest message and the epoch
 * positions are counted in. A row appears with a channel's first broadcast.
 */
@Entity
@Table(name = "cable_channels")
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

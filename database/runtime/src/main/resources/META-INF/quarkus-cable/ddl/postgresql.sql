-- Quarkus Cable schema for PostgreSQL. Idempotent: safe to run at every startup.

-- Every broadcast. Ids are assigned by the writer under the cable_shards row lock, so they become visible in
-- commit order and a poller reading "id > cursor" can never skip a row that commits late.
CREATE TABLE IF NOT EXISTS cable_messages (
    id BIGINT NOT NULL PRIMARY KEY,
    channel_hash BIGINT NOT NULL,
    channel TEXT NOT NULL,
    payload BYTEA NOT NULL,
    binary_payload BOOLEAN NOT NULL,
    stream_position BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS cable_messages_channel ON cable_messages (channel_hash, stream_position);
CREATE INDEX IF NOT EXISTS cable_messages_created_at ON cable_messages (created_at);

-- Per-channel state: the gapless position of the channel's newest message and the epoch positions belong to.
CREATE TABLE IF NOT EXISTS cable_channels (
    channel_hash BIGINT NOT NULL PRIMARY KEY,
    channel TEXT NOT NULL,
    epoch VARCHAR(32) NOT NULL,
    last_position BIGINT NOT NULL,
    last_message_id BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- The id allocator. Writers lock this row until they commit, which serialises id assignment with commits.
-- db_identity: the database the cable last wrote to (PostgreSQL: system identifier and timeline; MariaDB: Galera
-- cluster state UUID or server id). When a writer finds another one (a failover to a standby that had not received
-- every commit), it gives every channel a new epoch before writing, and records in identity_since the last id the new
-- database had, where pollers re-anchor their cursors.
CREATE TABLE IF NOT EXISTS cable_shards (
    shard INTEGER NOT NULL PRIMARY KEY,
    last_id BIGINT NOT NULL,
    db_identity VARCHAR(255) NULL,
    identity_since BIGINT DEFAULT 0 NOT NULL
);
INSERT INTO cable_shards (shard, last_id) VALUES (0, 0) ON CONFLICT (shard) DO NOTHING;

-- One row per running writer: the number of its last committed batch. A writer whose commit acknowledgement was lost
-- checks it before retrying, so a batch is never stored twice.
CREATE TABLE IF NOT EXISTS cable_writers (
    writer_id VARCHAR(36) NOT NULL PRIMARY KEY,
    last_batch BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- Presence: the presence ids in each channel's presence set (one row per id, with the info its latest join gave).
-- Joins and leaves lock the id's row, so "first session of an id" and "last session gone" are decided once across
-- nodes, and the join or leave event is written in the same transaction.
CREATE TABLE IF NOT EXISTS cable_presence (
    channel_hash BIGINT NOT NULL,
    presence_id VARCHAR(255) NOT NULL,
    channel TEXT NOT NULL,
    info TEXT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (channel_hash, presence_id)
);

-- The sessions behind each presence id. expires_at is NULL while the session is connected (its node's lease in
-- cable_presence_nodes keeps it), and set to the end of the TTL when it disconnects.
CREATE TABLE IF NOT EXISTS cable_presence_sessions (
    channel_hash BIGINT NOT NULL,
    presence_id VARCHAR(255) NOT NULL,
    session_id VARCHAR(64) NOT NULL,
    node_id VARCHAR(36) NOT NULL,
    expires_at TIMESTAMP NULL,
    PRIMARY KEY (channel_hash, presence_id, session_id)
);
CREATE INDEX IF NOT EXISTS cable_presence_sessions_session ON cable_presence_sessions (session_id);
CREATE INDEX IF NOT EXISTS cable_presence_sessions_node ON cable_presence_sessions (node_id);
CREATE INDEX IF NOT EXISTS cable_presence_sessions_expires ON cable_presence_sessions (expires_at);

-- One lease per node with presence sessions, renewed every TTL/2: one write per node, none per connection. The
-- sessions of a node whose lease ran out (it crashed) expire, and their leaves are written by a surviving node.
CREATE TABLE IF NOT EXISTS cable_presence_nodes (
    node_id VARCHAR(36) NOT NULL PRIMARY KEY,
    lease_until TIMESTAMP NOT NULL
);

-- Quarkus Cable schema for H2. Idempotent: safe to run at every startup.

-- Every broadcast. Ids are assigned by the writer under the cable_shards row lock, so they become visible in
-- commit order and a poller reading "id > cursor" can never skip a row that commits late.
CREATE TABLE IF NOT EXISTS cable_messages (
    id BIGINT NOT NULL PRIMARY KEY,
    channel_hash BIGINT NOT NULL,
    channel CHARACTER VARYING NOT NULL,
    payload BINARY VARYING NOT NULL,
    binary_payload BOOLEAN NOT NULL,
    stream_position BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS cable_messages_channel ON cable_messages (channel_hash, stream_position);
CREATE INDEX IF NOT EXISTS cable_messages_created_at ON cable_messages (created_at);

-- Per-channel state: the gapless position of the channel's newest message and the epoch positions belong to.
CREATE TABLE IF NOT EXISTS cable_channels (
    channel_hash BIGINT NOT NULL PRIMARY KEY,
    channel CHARACTER VARYING NOT NULL,
    epoch CHARACTER VARYING(32) NOT NULL,
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
INSERT INTO cable_shards (shard, last_id) SELECT 0, 0 WHERE NOT EXISTS (SELECT 1 FROM cable_shards WHERE shard = 0);

-- One row per running writer: the number of its last committed batch. A writer whose commit acknowledgement was lost
-- checks it before retrying, so a batch is never stored twice.
CREATE TABLE IF NOT EXISTS cable_writers (
    writer_id CHARACTER VARYING(36) NOT NULL PRIMARY KEY,
    last_batch BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

-- The SQL broadcast on PostgreSQL, installed with the cable's schema (SqlBroadcastRoutines). A template: @SCHEMA@,
-- @MARKER@, @MAX_CHANNEL@, @MAX_PAYLOAD@, @DOORBELL@, @RING@ and @IDENTITY@ are filled in at installation
-- (PostgreSqlDialect). These header lines are not sent.
CREATE OR REPLACE FUNCTION cable_broadcast(channel TEXT, payload TEXT) RETURNS BIGINT
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = @SCHEMA@, pg_temp AS $cable$
-- @MARKER@
DECLARE
    written TIMESTAMPTZ := clock_timestamp();
    message_id BIGINT;
    stream_pos BIGINT;
    channel_key BIGINT;
    bytes BYTEA;
    seconds BIGINT;
    new_epoch TEXT := '';
    digits CONSTANT TEXT := '0123456789abcdefghijklmnopqrstuvwxyz';
    stored_identity TEXT;
    current_identity TEXT;
BEGIN
    IF channel IS NULL OR channel = '' THEN
        RAISE EXCEPTION 'cable_broadcast: the channel name must not be null or empty'
            USING ERRCODE = '22004';
    END IF;
    IF length(channel) > @MAX_CHANNEL@ THEN
        RAISE EXCEPTION 'cable_broadcast: the channel name is % characters, over quarkus.cable.max-channel-length (@MAX_CHANNEL@)',
            length(channel) USING ERRCODE = '22001';
    END IF;
    -- IdentityChannels.isCableOwned: the channels only the cable writes (disconnect commands,
    -- whispers, presence events), whose rows it turns into frames and closes connections on; the
    -- Java API refuses them, so EXECUTE must not grant more. Compared as bytes (COLLATE "C"), as
    -- Java compares: another case or a trailing space is another channel.
    IF channel COLLATE "C" = 'cable:control:disconnect' OR left(channel, 13) COLLATE "C" = 'cable:whisper'
            OR left(channel, 14) COLLATE "C" = 'cable:presence' THEN
        RAISE EXCEPTION 'cable_broadcast: the channel ''%'' is reserved for the cable (disconnects, whispers, presence)',
            channel USING ERRCODE = '42501';
    END IF;
    IF payload IS NULL THEN
        RAISE EXCEPTION 'cable_broadcast: the payload must not be null' USING ERRCODE = '22004';
    END IF;
    bytes := convert_to(payload, 'UTF8');
    IF octet_length(bytes) > @MAX_PAYLOAD@ THEN
        RAISE EXCEPTION 'cable_broadcast: the payload is % bytes, over quarkus.cable.max-payload-size (@MAX_PAYLOAD@ bytes)',
            octet_length(bytes) USING ERRCODE = '54000';
    END IF;
    -- ChannelHash: the first 8 bytes of the SHA-256 of the UTF-8 name, a big-endian signed long.
    channel_key := ('x' || encode(substr(sha256(convert_to(channel, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint;
    -- The writers' lock and the id: the same row and statement as the cable's writer.
    UPDATE cable_shards SET last_id = last_id + 1 WHERE shard = 0 RETURNING last_id INTO message_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'cable_broadcast: cable_shards has no row for shard 0: the cable schema is incomplete';
    END IF;
    -- Epochs.newEpoch: the second in base 36 and 6 random characters (kept when the channel exists).
    seconds := floor(extract(epoch FROM written));
    WHILE seconds > 0 LOOP
        new_epoch := substr(digits, (seconds % 36)::int + 1, 1) || new_epoch;
        seconds := seconds / 36;
    END LOOP;
    FOR i IN 1..6 LOOP
        new_epoch := new_epoch || substr(digits, floor(random() * 36)::int + 1, 1);
    END LOOP;
    -- DatabaseIdentityCheck: on a database that is not the one the cable last wrote to (a
    -- promoted standby), every channel gets a new epoch before anything is written.
    SELECT db_identity, @IDENTITY@ INTO stored_identity, current_identity FROM cable_shards
        WHERE shard = 0;
    IF stored_identity IS DISTINCT FROM current_identity THEN
        IF stored_identity IS NOT NULL THEN
            UPDATE cable_channels SET epoch = new_epoch;
            UPDATE cable_shards SET db_identity = current_identity, identity_since = message_id - 1
                WHERE shard = 0;
        ELSE
            UPDATE cable_shards SET db_identity = current_identity WHERE shard = 0;
        END IF;
    END IF;
    INSERT INTO cable_channels AS c (channel_hash, channel, epoch, last_position, last_message_id,
            created_at, updated_at)
        VALUES (channel_key, cable_broadcast.channel, new_epoch, 1, message_id,
            written AT TIME ZONE 'UTC', written AT TIME ZONE 'UTC')
        ON CONFLICT (channel_hash) DO UPDATE SET last_position = c.last_position + 1,
            last_message_id = EXCLUDED.last_message_id, updated_at = EXCLUDED.updated_at
        RETURNING c.last_position INTO stream_pos;
    INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,
            created_at)
        VALUES (message_id, channel_key, cable_broadcast.channel, bytes, FALSE, stream_pos,
            written AT TIME ZONE 'UTC');
    -- The doorbell, sent by PostgreSQL with the commit, only if it commits.
    PERFORM pg_notify('@DOORBELL@', '@RING@');
    RETURN message_id;
END
$cable$

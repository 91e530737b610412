-- The SQL broadcast on MariaDB and MySQL, the function that writes; installed by the cable (SqlBroadcastRoutines).
-- A template: @MARKER@, @MAX_CHANNEL@, @MAX_PAYLOAD@ and @IDENTITY@ are filled in at installation (MariaDbDialect).
-- These header lines are not sent.
CREATE FUNCTION cable_broadcast(channel TEXT CHARACTER SET utf8mb4,
    payload LONGTEXT CHARACTER SET utf8mb4) RETURNS BIGINT
NOT DETERMINISTIC MODIFIES SQL DATA SQL SECURITY DEFINER
COMMENT '@MARKER@'
BEGIN
    DECLARE message_id BIGINT;
    DECLARE stream_pos BIGINT;
    DECLARE channel_key BIGINT;
    DECLARE digest DECIMAL(20, 0);
    DECLARE written DATETIME(6) DEFAULT UTC_TIMESTAMP(6);
    DECLARE new_epoch VARCHAR(32);
    DECLARE digits CHAR(36) DEFAULT '0123456789abcdefghijklmnopqrstuvwxyz';
    DECLARE problem VARCHAR(255);
    DECLARE stored_identity VARCHAR(255);
    DECLARE current_identity VARCHAR(255);
    IF channel IS NULL OR CHAR_LENGTH(channel) = 0 THEN
        SIGNAL SQLSTATE '22004'
            SET MESSAGE_TEXT = 'cable_broadcast: the channel name must not be null or empty';
    END IF;
    IF CHAR_LENGTH(channel) > @MAX_CHANNEL@ THEN
        SET problem = CONCAT('cable_broadcast: the channel name is ', CHAR_LENGTH(channel),
            ' characters, over quarkus.cable.max-channel-length (@MAX_CHANNEL@)');
        SIGNAL SQLSTATE '22001' SET MESSAGE_TEXT = problem;
    END IF;
    -- IdentityChannels.isCableOwned: the channels only the cable writes (disconnect commands,
    -- whispers, presence events), whose rows it turns into frames and closes connections on; the
    -- Java API refuses them, so EXECUTE must not grant more. Compared as bytes: the parameter's
    -- collation ignores case and trailing spaces, and Java takes those for other channels.
    IF CAST(channel AS BINARY) = CAST('cable:control:disconnect' AS BINARY)
            OR LEFT(CAST(channel AS BINARY), 13) = CAST('cable:whisper' AS BINARY)
            OR LEFT(CAST(channel AS BINARY), 14) = CAST('cable:presence' AS BINARY) THEN
        -- The name clipped: MySQL's MESSAGE_TEXT holds 128 characters.
        SET problem = CONCAT('cable_broadcast: the channel ''', LEFT(channel, 30), ''' is reserved',
            ' for the cable (disconnects, whispers, presence)');
        SIGNAL SQLSTATE '42501' SET MESSAGE_TEXT = problem;
    END IF;
    IF payload IS NULL THEN
        SIGNAL SQLSTATE '22004' SET MESSAGE_TEXT = 'cable_broadcast: the payload must not be null';
    END IF;
    IF LENGTH(payload) > @MAX_PAYLOAD@ THEN
        SET problem = CONCAT('cable_broadcast: the payload is ', LENGTH(payload),
            ' bytes, over quarkus.cable.max-payload-size (@MAX_PAYLOAD@ bytes)');
        SIGNAL SQLSTATE '54000' SET MESSAGE_TEXT = problem;
    END IF;
    -- ChannelHash: the first 8 bytes of the SHA-256 of the UTF-8 name, a big-endian signed long.
    SET digest = CAST(CONV(LEFT(SHA2(channel, 256), 16), 16, 10) AS DECIMAL(20, 0));
    SET channel_key = IF(digest >= 9223372036854775808, digest - 18446744073709551616, digest);
    -- The writers' lock and the id: the same row the cable's writer locks.
    SELECT last_id + 1 INTO message_id FROM cable_shards WHERE shard = 0 FOR UPDATE;
    IF message_id IS NULL THEN
        SIGNAL SQLSTATE '55000' SET MESSAGE_TEXT
            = 'cable_broadcast: cable_shards has no row for shard 0: the cable schema is incomplete';
    END IF;
    UPDATE cable_shards SET last_id = message_id WHERE shard = 0;
    -- Epochs.newEpoch: the second in base 36 and 6 random characters (kept when the channel exists).
    SET new_epoch = CONCAT(LOWER(CONV(UNIX_TIMESTAMP(), 10, 36)),
        SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1),
        SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1),
        SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1), SUBSTRING(digits, FLOOR(1 + RAND() * 36), 1));
    -- DatabaseIdentityCheck: on a database that is not the one the cable last wrote to (a
    -- promoted replica, another Galera cluster), every channel gets a new epoch before anything
    -- is written. The shard row is already locked by this transaction.
    SELECT db_identity, @IDENTITY@ INTO stored_identity, current_identity FROM cable_shards
        WHERE shard = 0;
    IF current_identity IS NOT NULL AND NOT (stored_identity <=> current_identity) THEN
        IF stored_identity IS NOT NULL THEN
            UPDATE cable_channels SET epoch = new_epoch;
            UPDATE cable_shards SET db_identity = current_identity, identity_since = message_id - 1
                WHERE shard = 0;
        ELSE
            UPDATE cable_shards SET db_identity = current_identity WHERE shard = 0;
        END IF;
    END IF;
    INSERT INTO cable_channels (channel_hash, channel, epoch, last_position, last_message_id,
            created_at, updated_at)
        VALUES (channel_key, channel, new_epoch, 1, message_id, written, written)
        ON DUPLICATE KEY UPDATE last_position = last_position + 1,
            last_message_id = VALUES(last_message_id), updated_at = VALUES(updated_at);
    SELECT last_position INTO stream_pos FROM cable_channels WHERE channel_hash = channel_key
        FOR UPDATE;
    INSERT INTO cable_messages (id, channel_hash, channel, payload, binary_payload, stream_position,
            created_at)
        VALUES (message_id, channel_key, channel, payload, FALSE, stream_pos, written);
    RETURN message_id;
END

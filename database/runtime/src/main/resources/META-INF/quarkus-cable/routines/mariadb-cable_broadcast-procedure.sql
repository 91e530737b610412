-- The SQL broadcast on MariaDB and MySQL, the procedure for CALL (it calls the function in one statement).
-- A template: @MARKER@ is filled in at installation (MariaDbDialect). These header lines are not sent.
CREATE PROCEDURE cable_broadcast(IN channel TEXT CHARACTER SET utf8mb4,
    IN payload LONGTEXT CHARACTER SET utf8mb4)
MODIFIES SQL DATA SQL SECURITY DEFINER
COMMENT '@MARKER@'
BEGIN
    DECLARE message_id BIGINT;
    -- One statement, so its writes commit together even in autocommit mode (not DO, which turns
    -- the function's errors into warnings).
    SELECT cable_broadcast(channel, payload) INTO message_id;
END

-- Broadcasts every committed change of the orders table on the channel 'orders', as JSON:
-- {"op": "INSERT" | "UPDATE" | "DELETE", "id": ..., "row": the new row (null for a DELETE)}.
-- One trigger per event (MariaDB and MySQL have no multi-event triggers).
CREATE TRIGGER orders_inserted AFTER INSERT ON orders FOR EACH ROW
    CALL cable_broadcast('orders', JSON_OBJECT('op', 'INSERT', 'id', NEW.id,
        'row', JSON_OBJECT('id', NEW.id, 'item', NEW.item, 'status', NEW.status)));
CREATE TRIGGER orders_updated AFTER UPDATE ON orders FOR EACH ROW
    CALL cable_broadcast('orders', JSON_OBJECT('op', 'UPDATE', 'id', NEW.id,
        'row', JSON_OBJECT('id', NEW.id, 'item', NEW.item, 'status', NEW.status)));
CREATE TRIGGER orders_deleted AFTER DELETE ON orders FOR EACH ROW
    CALL cable_broadcast('orders', JSON_OBJECT('op', 'DELETE', 'id', OLD.id, 'row', NULL));

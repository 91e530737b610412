-- Broadcasts every committed change of the orders table on the channel 'orders', as JSON:
-- {"op": "INSERT" | "UPDATE" | "DELETE", "id": ..., "row": the new row (null for a DELETE)}.
CREATE OR REPLACE FUNCTION orders_broadcast() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM cable_broadcast('orders', json_build_object(
        'op', TG_OP,
        'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END,
        'row', CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END)::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER orders_broadcast AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION orders_broadcast();

package io.quarkiverse.cable.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.vertx.core.Vertx;

/**
 * WebSocket clients of the multi-process tests: {@code rooms} fresh rooms (unique names, so earlier runs on the same
 * database cannot interfere), each with one client on every node, connected to {@code /rooms/<room>} and ready.
 */
public final class RoomClients implements AutoCloseable {

    /** Room name to its clients, in room order. */
    public final Map<String, List<WsClient>> byRoom = new LinkedHashMap<>();
    private final List<WsClient> all = new ArrayList<>();

    public static RoomClients connect(Vertx vertx, String prefix, int rooms, List<CableNode> nodes) throws Exception {
        RoomClients clients = new RoomClients();
        String unique = prefix + "-" + UUID.randomUUID();
        try {
            for (int r = 0; r < rooms; r++) {
                String room = unique + "-" + r;
                List<WsClient> roomClients = new ArrayList<>();
                clients.byRoom.put(room, roomClients);
                for (CableNode node : nodes) {
                    WsClient client = WsClient.connect(vertx, node.base(), "/rooms/" + room).awaitFrame("ready");
                    clients.all.add(client);
                    roomClients.add(client);
                }
            }
        } catch (Exception e) {
            clients.close();
            throw e;
        }
        return clients;
    }

    public List<String> rooms() {
        return List.copyOf(byRoom.keySet());
    }

    public int size() {
        return all.size();
    }

    /** Closes every client; one whose node is gone already is skipped. */
    @Override
    public void close() {
        for (WsClient client : all) {
            try {
                client.close();
            } catch (Exception ignored) {
                // the node may be gone already
            }
        }
    }
}

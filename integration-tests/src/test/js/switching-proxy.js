// A TCP proxy whose upstream can change, and a ws WebSocket that records every frame, for tests that move a real
// client between nodes or cut its network (ext-nodes.test.js, presence-in-stream.test.js).
import net from "node:net";
import WebSocket from "ws";

/**
 * Keeps a proxied {client, upstream} pair in {@code connections} until either side closes or fails, and then ends both.
 */
export function track(connections, connection) {
  connections.add(connection);
  const end = () => {
    connections.delete(connection);
    connection.client.destroy();
    connection.upstream.destroy();
  };
  for (const socket of [connection.client, connection.upstream]) {
    socket.on("close", end);
    socket.on("error", end);
  }
}

/**
 * A TCP proxy whose upstream can change, like a load balancer: new connections go to the current target (labelled,
 * e.g. "A" or "B"); refuse() drops every connection and refuses new ones until the next target().
 */
export async function switchingProxy(port, label) {
  const connections = new Set();
  const labels = new Map(); // client-side port of each accepted connection -> the label of its upstream
  let target = { port, label };
  const server = net.createServer((client) => {
    if (!target) {
      client.destroy();
      return;
    }
    labels.set(client.remotePort, target.label);
    const upstream = net.connect(target.port, "127.0.0.1");
    const connection = { client, upstream };
    client.pipe(upstream);
    upstream.pipe(client);
    track(connections, connection);
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  return {
    port: server.address().port,
    labelOf: (clientPort) => labels.get(clientPort),
    target(port, label) { target = { port, label }; },
    refuse() {
      target = null;
      for (const connection of connections) { connection.client.destroy(); connection.upstream.destroy(); }
    },
    close() {
      this.refuse();
      server.close();
    },
  };
}

/** A ws WebSocket that records every frame with its connection number and the proxy's label for that connection. */
export function recordingWebSocket(frames, connectionsSeen, proxy) {
  return class RecordingWebSocket extends WebSocket {
    constructor(url, protocols, options) {
      super(url, protocols, options);
      const connection = { number: connectionsSeen.length + 1, label: undefined };
      connectionsSeen.push(connection);
      this.on("open", () => { connection.label = proxy.labelOf(this._socket.localPort); });
      this.on("message", (data) => frames.push({ connection: connection.number, frame: JSON.parse(data.toString()) }));
    }
  };
}

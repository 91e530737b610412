package io.quarkiverse.cable.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to the application that can stop forwarding without closing anything: what a client that vanished looks
 * like to the server (a laptop lid, a mobile network switch, a middlebox that dropped the flow). No FIN, no RST: the
 * server's writes land in this process's socket buffers and are never read, and nothing comes back.
 */
public final class FreezingProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    private FreezingProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("freezing-proxy").start(this::accept);
    }

    public static FreezingProxy to(int port) throws IOException {
        return new FreezingProxy(port);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** From now on nothing is forwarded either way; every connection stays open. */
    public void freeze() {
        frozen = true;
    }

    private void accept() {
        try {
            while (!server.isClosed()) {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, client));
            }
        } catch (IOException closed) {
            // the proxy was closed
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int read;
            // Frozen, the pump stops reading and returns without closing anything: the bytes stay in the kernel's
            // buffers, unread and unanswered, and both connections stay open.
            while (!frozen && (read = in.read(buffer)) >= 0) {
                if (frozen) {
                    return;
                }
                out.write(buffer, 0, read);
                out.flush();
            }
            if (frozen) {
                return;
            }
        } catch (IOException ended) {
            // one side went away: so does the other, below
        }
        try {
            from.close();
            to.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}

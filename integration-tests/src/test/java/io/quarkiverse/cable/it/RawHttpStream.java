package io.quarkiverse.cable.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * A client on a bare socket, so that it costs the test's JVM almost nothing and reads exactly when the test says: an
 * SSE request ({@link #sse}) or an Action Cable WebSocket ({@link #actionCable}). Used by the abuse cases, whose
 * attackers read nothing at all.
 */
public final class RawHttpStream implements AutoCloseable {

    public final Socket socket;
    public final InputStream in;
    public final OutputStream out;

    private RawHttpStream(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    private static RawHttpStream open(URI base, int receiveBuffer) throws IOException {
        return open(base, receiveBuffer, null);
    }

    /** {@code from}: the local address to connect from (any of 127/8 on Linux), or null for the system's choice. */
    private static RawHttpStream open(URI base, int receiveBuffer, InetAddress from) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            // Before connect, so the window the server may fill is small: the client stalls early.
            socket.setReceiveBufferSize(receiveBuffer);
        }
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
            // The server's loopback address of the same family as the source ("localhost" may resolve to ::1).
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), base.getPort()), 30_000);
        } else {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 30_000);
        }
        return new RawHttpStream(socket);
    }

    /** GET {@code path} as an EventSource would, with {@code lastEventId} when not null; reads nothing back. */
    public static RawHttpStream sse(URI base, String path, String lastEventId, int receiveBuffer) throws IOException {
        return sse(base, path, lastEventId, receiveBuffer, null, "");
    }

    /**
     * {@link #sse(URI, String, String, int)} from the local address {@code from} (null: the system's choice), with
     * {@code headers} (each line ending with CRLF) added to the request: a distinct client to the server.
     */
    public static RawHttpStream sse(URI base, String path, String lastEventId, int receiveBuffer, InetAddress from,
            String headers) throws IOException {
        RawHttpStream stream = open(base, receiveBuffer, from);
        String request = "GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nAccept: text/event-stream\r\n" + (lastEventId == null ? ""
                        : "Last-Event-ID: " + lastEventId
                                + "\r\n")
                + headers + "\r\n";
        stream.out.write(request.getBytes(StandardCharsets.US_ASCII));
        stream.out.flush();
        return stream;
    }

    /** The loopback address {@code 127.<b>.<c>.<d>} for client number {@code n} (n from 0; 127.0.0.1 is never one). */
    public static InetAddress loopback(int n) {
        int index = n + 2;
        try {
            return InetAddress.getByAddress(new byte[] { 127, (byte) (index >> 16), (byte) (index >> 8),
                    (byte) index });
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** An Action Cable connection that subscribes to {@code identifier}, reading only the handshake's answer. */
    public static RawHttpStream actionCable(URI base, String identifier) throws IOException {
        RawHttpStream stream = open(base, 0);
        byte[] nonce = new byte[16];
        new SecureRandom().nextBytes(nonce);
        String request = "GET /cable HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(nonce) + "\r\nSec-WebSocket-Protocol: actioncable-v1-json\r\n\r\n";
        stream.out.write(request.getBytes(StandardCharsets.US_ASCII));
        stream.out.flush();
        String head = stream.readHead();
        if (!head.startsWith("HTTP/1.1 101")) {
            throw new IOException("No WebSocket upgrade: " + head);
        }
        stream.sendText("{\"command\":\"subscribe\",\"identifier\":" + quote(identifier) + "}");
        return stream;
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A masked client text frame (payloads under 64 KiB). */
    public void sendText(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x81);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length & 0xff);
        }
        byte[] mask = new byte[4];
        new SecureRandom().nextBytes(mask);
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** The response's status line and headers. */
    public String readHead() throws IOException {
        StringBuilder head = new StringBuilder();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("Closed before the headers ended: " + head);
            }
            head.append((char) b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString();
    }

    /**
     * Reads until {@code marker} was seen {@code times} times (across reads), and returns what was read; fails after
     * {@code within}.
     */
    public String readUntil(String marker, int times, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        StringBuilder read = new StringBuilder();
        byte[] buffer = new byte[8192];
        while (count(read, marker) < times) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new IOException(times + " markers not read within " + within + ": " + read);
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            int n;
            try {
                n = in.read(buffer);
            } catch (SocketTimeoutException e) {
                continue;
            }
            if (n < 0) {
                throw new IOException("Closed before " + times + " x marker: " + read);
            }
            read.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
        return read.toString();
    }

    private static int count(StringBuilder text, String marker) {
        int found = 0;
        for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
            found++;
        }
        return found;
    }

    /**
     * Reads and drops everything until the server closes (end of stream or reset): true when it did within
     * {@code millis}.
     */
    public boolean drainUntilClosed(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        byte[] buffer = new byte[64 * 1024];
        try {
            while (System.currentTimeMillis() < deadline) {
                socket.setSoTimeout((int) Math.max(1, deadline - System.currentTimeMillis()));
                if (in.read(buffer) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            // Reset by the server.
            return true;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }
}

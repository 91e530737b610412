package io.quarkiverse.cable.it.abuse;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An attacker's WebSocket client on a bare socket, as a script on the internet would write one: the RFC 6455 handshake
 * by hand, masked frames of any size, and a small receive buffer it may never read, so the server's writes to it back
 * up at once instead of filling a client library's buffers. Loopback only; blocking; one thread.
 */
public final class RawWsClient implements AutoCloseable {

    /** How the server ended the connection: the close frame's code and reason, or 1006 without one. */
    record Closed(int code, String reason, List<String> texts) {
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    private RawWsClient(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Connects and completes the handshake; {@code receiveBuffer} is the socket's receive buffer in bytes. */
    static RawWsClient connect(URI base, String path, String subProtocol, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(new InetSocketAddress("127.0.0.1", base.getPort()), 30_000);
        socket.setSoTimeout(60_000);
        RawWsClient client = new RawWsClient(socket);
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + base.getPort() + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
                + "Sec-WebSocket-Version: 13\r\n"
                + (subProtocol == null ? "" : "Sec-WebSocket-Protocol: " + subProtocol + "\r\n") + "\r\n";
        client.out.write(request.getBytes(StandardCharsets.US_ASCII));
        client.out.flush();
        String status = client.readHeaders();
        if (!status.startsWith("HTTP/1.1 101")) {
            socket.close();
            throw new IOException("handshake refused: " + status);
        }
        return client;
    }

    private String readHeaders() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed during the handshake");
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1
                    : b == '\r' ? 1 : 0;
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        return text.substring(0, text.indexOf("\r\n"));
    }

    /** One masked text frame, whatever its size (a single frame: no fragmentation). */
    void sendText(String text) throws IOException {
        sendFrame(0x81, text.getBytes(StandardCharsets.UTF_8));
    }

    /** One text message in fragments of at most {@code fragment} bytes (a text frame, then continuation frames). */
    void sendFragmentedText(String text, int fragment) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int start = 0; start < bytes.length; start += fragment) {
            int end = Math.min(bytes.length, start + fragment);
            int opcode = start == 0 ? 0x01 : 0x00;
            int fin = end == bytes.length ? 0x80 : 0;
            sendFrame(fin | opcode, java.util.Arrays.copyOfRange(bytes, start, end));
        }
    }

    /** One masked binary frame (a single frame: no fragmentation). */
    void sendBinary(byte[] payload) throws IOException {
        sendFrame(0x82, payload);
    }

    /**
     * {@code count} masked ping frames with empty payloads in one write, as a flood script sends them: the server
     * reads them as fast as it can.
     */
    void sendPings(int count) throws IOException {
        sendEmptyControlFrames(0x89, count); // FIN, ping
    }

    /**
     * {@code count} masked pong frames with empty payloads in one write: unsolicited (RFC 6455 allows them as a
     * one-way heartbeat), as a flood script sends them.
     */
    void sendPongs(int count) throws IOException {
        sendEmptyControlFrames(0x8A, count); // FIN, pong
    }

    private void sendEmptyControlFrames(int head, int count) throws IOException {
        byte[] frames = new byte[count * 6];
        for (int i = 0; i < count; i++) {
            frames[i * 6] = (byte) head;
            frames[i * 6 + 1] = (byte) 0x80; // masked, empty: the 4 mask bytes follow (zeros)
        }
        out.write(frames);
        out.flush();
    }

    /**
     * One masked frame as given: {@code finAndOpcode} is the first header byte (FIN, the reserved bits, the opcode),
     * so a test can send what a correct client never does (a reserved bit set, text that is not UTF-8).
     */
    void sendFrame(int finAndOpcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write(finAndOpcode);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length <= 0xFFFF) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        out.write(frame.toByteArray());
        out.flush();
    }

    /** One frame from the server: its first header byte and its payload. */
    private record Frame(int head, byte[] payload) {
        int opcode() {
            return head & 0x0F;
        }
    }

    private Frame readFrame() throws IOException {
        int head = in.readUnsignedByte();
        long length = in.readUnsignedByte() & 0x7F;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return new Frame(head, payload);
    }

    /** Action Cable's pings are text frames too; they are not what a test waits for. */
    private static boolean isPing(String text) {
        return text.startsWith("{\"type\":\"ping\"");
    }

    /** Reads the next {@code count} text messages (pings left out), for at most {@code timeout}. */
    List<String> readTexts(int count, Duration timeout) throws IOException {
        List<String> texts = new ArrayList<>();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (texts.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + count + " texts within " + timeout + ", got " + texts.size());
            }
            Frame frame = readFrame();
            if (frame.opcode() == 0x8) {
                throw new AssertionError("closed after " + texts.size() + " of " + count + " texts: " + texts);
            }
            if (frame.opcode() == 0x1 || frame.opcode() == 0x0) {
                message.write(frame.payload());
                if ((frame.head() & 0x80) != 0) {
                    String text = message.toString(StandardCharsets.UTF_8);
                    message.reset();
                    if (!isPing(text)) {
                        texts.add(text);
                    }
                }
            }
        }
        return texts;
    }

    /**
     * Reads until the server's close frame (answering nothing) or the end of the stream, for at most {@code timeout}:
     * the text frames seen on the way (pings left out), and the close code (1006 when the connection ended without a
     * close frame).
     */
    Closed readUntilClosed(Duration timeout) throws IOException {
        List<String> texts = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        try {
            while (System.nanoTime() < deadline) {
                Frame frame = readFrame();
                byte[] payload = frame.payload();
                if (frame.opcode() == 0x8) {
                    int code = payload.length >= 2 ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005;
                    String reason = payload.length > 2
                            ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8)
                            : "";
                    return new Closed(code, reason, texts);
                }
                if (frame.opcode() == 0x1 || frame.opcode() == 0x0) {
                    message.write(payload);
                    if ((frame.head() & 0x80) != 0) {
                        String text = message.toString(StandardCharsets.UTF_8);
                        message.reset();
                        if (!isPing(text)) {
                            texts.add(text);
                        }
                    }
                }
            }
            throw new AssertionError("not closed within " + timeout + "; frames: " + texts.size());
        } catch (EOFException | java.net.SocketException ended) {
            return new Closed(1006, String.valueOf(ended), texts);
        } catch (SocketTimeoutException silent) {
            throw new AssertionError("not closed within " + timeout + " (silent); frames: " + texts.size());
        }
    }

    InputStream input() {
        return in;
    }

    /** Reads and drops everything the server sends, on a virtual thread, until the socket closes: a reading client. */
    void readAllInBackground() {
        Thread.ofVirtual().start(() -> {
            byte[] buffer = new byte[64 * 1024];
            try {
                while (in.read(buffer) >= 0) {
                    // dropped
                }
            } catch (IOException e) {
                // closed
            }
        });
    }

    boolean isClosed() {
        return socket.isClosed();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

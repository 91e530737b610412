package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The outbox bounds a connection's waiting frames in bytes, and paces a long source by the same bound. */
class ConnectionOutboxTest {

    /** A wire whose writes complete only when the test says so, as a socket whose client does not read. */
    private static class HeldWire implements ConnectionOutbox.Wire {
        final List<Object> written = new ArrayList<>();
        final List<Runnable> completions = new ArrayList<>();
        int closeCode;
        String closeReason;
        /** How many frames had been written when the wire was closed (-1: not closed). */
        int writtenBeforeClose = -1;

        @Override
        public synchronized void write(Object frame, Runnable done) {
            written.add(frame);
            completions.add(done);
        }

        @Override
        public synchronized void close(int code, String reason) {
            closeCode = code;
            closeReason = reason;
            writtenBeforeClose = written.size();
        }

        @Override
        public long size(Object frame) {
            return ConnectionOutbox.plainSize(frame);
        }

        @Override
        public boolean isClosed() {
            return closeReason != null;
        }

        void completeAll() {
            List<Runnable> pending;
            synchronized (this) {
                pending = new ArrayList<>(completions);
                completions.clear();
            }
            pending.forEach(Runnable::run);
        }
    }

    private final List<CableStats.Refusal> refusals = new ArrayList<>();

    private ConnectionOutbox outbox(HeldWire wire, long maxBytes) {
        return new ConnectionOutbox(wire,
                new ConnectionOutbox.OutboxLimits(10_000, maxBytes, TimeUnit.SECONDS.toNanos(60)),
                (reason, why) -> refusals.add(reason));
    }

    private static String frame(int bytes) {
        return "f".repeat(bytes - ConnectionOutbox.FRAME_OVERHEAD);
    }

    @Test
    void aFrameOverTheBytesBoundClosesTheConnectionAndNothingMoreIsBuffered() {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = outbox(wire, 10_000);
        for (int i = 0; i < 10; i++) {
            outbox.send(frame(1000)); // ten fit exactly
        }
        assertThat(wire.written).hasSize(10);
        assertThat(outbox.pendingBytes()).isEqualTo(10_000);
        assertThat(wire.closeCode).isZero();
        outbox.send(frame(1000));
        assertThat(wire.closeCode).isEqualTo(1008);
        assertThat(wire.closeReason).isEqualTo("cable: client too slow");
        assertThat(refusals).containsExactly(CableStats.Refusal.PENDING_BYTES);
        outbox.send(frame(1000));
        assertThat(wire.written).hasSize(10);
    }

    @Test
    void writtenFramesMakeRoomAndOneLargeFrameAloneAlwaysGoes() {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = outbox(wire, 10_000);
        outbox.send(frame(50_000)); // larger than the bound, but nothing waits
        assertThat(wire.written).hasSize(1);
        wire.completeAll();
        assertThat(outbox.pendingBytes()).isZero();
        for (int round = 0; round < 100; round++) {
            outbox.send(frame(5000));
            outbox.send(frame(5000));
            wire.completeAll();
        }
        assertThat(wire.written).hasSize(201);
        assertThat(wire.closeCode).isZero();
    }

    @Test
    void framesCountTheirEncodedSizeOnTheWirePlusTheOverhead() {
        ConnectionOutbox outbox = outbox(new HeldWire(), 10_000);
        assertThat(outbox.sizeOf("é€😀")).isEqualTo(2 + 3 + 4 + ConnectionOutbox.FRAME_OVERHEAD);
        assertThat(outbox.sizeOf(new byte[7])).isEqualTo(7 + ConnectionOutbox.FRAME_OVERHEAD);
    }

    @Test
    void aPacedSourceKeepsHalfTheBoundInFlightAndLiveFramesFollowInOrder() {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = outbox(wire, 10_000);
        List<String> replay = IntStream.range(0, 1000).mapToObj(i -> i + ":" + frame(1000).substring(4)).toList();
        outbox.sendPaced(replay.iterator());
        outbox.send("live-1");
        outbox.send("live-2");
        int rounds = 0;
        while (wire.written.size() < 1002 && rounds++ < 10_000) {
            assertThat(outbox.pendingBytes()).isLessThanOrEqualTo(10_000);
            assertThat(wire.completions.size()).isLessThanOrEqualTo(6);
            wire.completeAll();
        }
        assertThat(wire.closeCode).isZero();
        List<Object> expected = new ArrayList<>(replay);
        expected.add("live-1");
        expected.add("live-2");
        assertThat(wire.written).containsExactlyElementsOf(expected);
    }

    @Test
    void liveFramesBehindAStalledPacedSourceCountAgainstTheBound() {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = outbox(wire, 10_000);
        outbox.sendPaced(IntStream.range(0, 1000).mapToObj(i -> frame(1000)).iterator());
        int inFlight = wire.written.size();
        assertThat(inFlight).isEqualTo(5);
        for (int i = 0; i < 4; i++) {
            outbox.send(frame(1000)); // queued behind the replay: 9,000 bytes waiting
        }
        assertThat(wire.closeCode).isZero();
        outbox.send(frame(1000));
        outbox.send(frame(1000));
        assertThat(wire.closeCode).isEqualTo(1008);
        assertThat(refusals).containsExactly(CableStats.Refusal.PENDING_BYTES);
        wire.completeAll();
        assertThat(wire.written).hasSize(inFlight); // nothing more is made or written once closed
    }

    @Test
    void aStalledPacedSourceIsClosedByTheStallCheck() throws Exception {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = new ConnectionOutbox(wire,
                new ConnectionOutbox.OutboxLimits(10_000, 10_000, TimeUnit.MILLISECONDS.toNanos(1)),
                (reason, why) -> refusals.add(reason));
        outbox.sendPaced(IntStream.range(0, 1000).mapToObj(i -> frame(1000)).iterator());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (wire.closeCode == 0 && System.nanoTime() < deadline) {
            outbox.checkStalled();
            Thread.onSpinWait();
        }
        assertThat(wire.closeCode).isEqualTo(1008);
        assertThat(refusals).containsExactly(CableStats.Refusal.STALLED);
    }

    @Test
    void theLastFrameIsWrittenThenTheWireClosesAndNothingFollows() {
        HeldWire wire = new HeldWire();
        ConnectionOutbox outbox = outbox(wire, 10_000);
        outbox.send("message-1");
        outbox.sendLastAndClose("disconnect", 1000, "remote");
        outbox.send("message-2");
        outbox.sendLastAndClose("disconnect again", 1000, "remote");
        wire.completeAll();
        assertThat(wire.written).containsExactly("message-1", "disconnect");
        assertThat(wire.writtenBeforeClose).isEqualTo(2);
        assertThat(wire.closeCode).isEqualTo(1000);
        assertThat(wire.closeReason).isEqualTo("remote");
        assertThat(outbox.isClosing()).isTrue();
    }

    /**
     * A delivery thread is handing a broadcast to the wire while the connection is told to disconnect: the broadcast
     * goes first, the disconnect frame right after it, then the close; a broadcast sent after the disconnect is never
     * written. (Written after the disconnect frame, a client drops it and asks for it again on its next connection:
     * the duplicate ext-nodes.test.js saw across a node's shutdown.)
     */
    @Test
    void aBroadcastBeingWrittenWhenTheDisconnectComesGoesBeforeItAndNothingAfter() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        HeldWire wire = new HeldWire() {
            @Override
            public void write(Object frame, Runnable done) {
                if ("message-1".equals(frame)) {
                    writing.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.write(frame, done);
            }
        };
        ConnectionOutbox outbox = outbox(wire, 10_000);
        Thread delivery = new Thread(() -> outbox.send("message-1"), "delivery");
        delivery.start();
        assertThat(writing.await(60, TimeUnit.SECONDS)).isTrue();
        outbox.send("message-2"); // queued behind message-1: the draining thread holds the wire
        outbox.sendLastAndClose("disconnect", 1000, "server_restart");
        outbox.send("message-3");
        assertThat(wire.closeReason).isNull(); // not before the frame in flight and the disconnect frame are written
        release.countDown();
        delivery.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(delivery.isAlive()).isFalse();
        assertThat(wire.written).containsExactly("message-1", "disconnect");
        assertThat(wire.writtenBeforeClose).isEqualTo(2);
        assertThat(wire.closeReason).isEqualTo("server_restart");
    }
}

package io.quarkiverse.cable.runtime.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.quarkiverse.cable.CableException;
import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.spi.Replay;

/**
 * Recovers the streams of one protocol subscription together, with one answer for all of them: either every stream's
 * history is there, and the replays go out (in id order) followed by the confirmation, or one is not, and only the
 * refusal goes out. Live messages of every stream are held until then (each stream's {@link HeldDelivery}, released
 * stream by stream once the answer went out), so the wire order is always confirmation of the subscription, replay,
 * history answer, live; each stream's messages stay in its order, across streams only the replay is sorted. Used by
 * the Action Cable front end, whose subscriptions stream several channels; a front end with one stream per
 * subscription takes it live itself ({@link LocalSubscription#goLive}).
 * <p>
 * Each stream is live as soon as it starts (its {@link LocalSubscription} confirms at once); the group finishes once
 * every stream's history step reported and the protocol said the subscription was confirmed ({@link #ready()}).
 */
public final class GroupRecovery {

    /** Where the group's answer goes; called once, under the group's lock, before any held live message. */
    public interface Answer {
        /**
         * The whole history of every stream (in id order), then the confirmation; {@code lease} is the streams'
         * share of the node's replay budget, to report each message handed to the socket and to close once written.
         */
        void replayed(List<CableMessage> replay, ReplayLease lease);

        /** At least one stream's history is not all there (or could not be read): nothing is replayed. */
        void refused(String reason);
    }

    private final Answer answer;
    private final List<Member> members = new ArrayList<>();
    private boolean ready;
    private boolean finished;

    public GroupRecovery(Answer answer) {
        this.answer = answer;
    }

    /** The outcome factory of one more stream of the group; call before {@link #ready()}. */
    public synchronized RecoveryOutcome.Factory member() {
        Member member = new Member();
        members.add(member);
        return member;
    }

    /** The protocol confirmed the subscription: no stream will join; the answer goes out once all have reported. */
    public synchronized void ready() {
        ready = true;
        finishIfComplete();
    }

    private synchronized void report() {
        finishIfComplete();
    }

    private void finishIfComplete() {
        if (finished || !ready) {
            return;
        }
        for (Member member : members) {
            if (!member.reported) {
                return;
            }
        }
        finished = true;
        String refusal = null;
        List<CableMessage> replay = new ArrayList<>();
        List<ReplayLease> leases = new ArrayList<>();
        for (Member member : members) {
            if (member.refusal != null) {
                refusal = refusal == null ? member.refusal : refusal;
            } else {
                replay.addAll(member.replay);
                leases.add(member.lease);
            }
        }
        if (refusal != null) {
            // Nothing is replayed: what the other streams took of the node's budget goes back now.
            leases.forEach(ReplayLease::close);
            answer.refused(refusal);
        } else {
            replay.sort(Comparator.comparingLong(CableMessage::id));
            answer.replayed(replay, ReplayLease.all(leases));
        }
        for (Member member : members) {
            // Answered: the group lives as long as the subscription, and must not keep every stream's replay with it
            // (1,037 answered replays of 0.5 MB on 40 connections held 552 MiB after GC in AbuseTest).
            member.replay = List.of();
            member.lease = ReplayLease.NONE;
            if (member.subscription != null) {
                // One that fell too far behind meanwhile is ended as a slow consumer by goLive itself.
                member.subscription.goLive(List.of(), () -> {
                });
            }
        }
    }

    private final class Member implements RecoveryOutcome.Factory, RecoveryOutcome {
        LocalSubscription subscription;
        boolean reported;
        List<CableMessage> replay = List.of();
        ReplayLease lease = ReplayLease.NONE;
        String refusal;

        @Override
        public RecoveryOutcome create(LocalSubscription started) {
            synchronized (GroupRecovery.this) {
                subscription = started;
            }
            // Live at once: the protocol confirms the subscription without waiting for the history.
            started.confirm();
            return this;
        }

        @Override
        public void replayed(Replay result) {
            replayed(result, ReplayLease.NONE);
        }

        @Override
        public void replayed(Replay result, ReplayLease taken) {
            synchronized (GroupRecovery.this) {
                replay = result.messages();
                lease = taken;
                reported = true;
            }
            report();
        }

        @Override
        public void unavailable(CableException.HistoryUnavailable reason) {
            synchronized (GroupRecovery.this) {
                refusal = reason.reason().name().toLowerCase(java.util.Locale.ROOT);
                reported = true;
            }
            report();
        }

        @Override
        public void failed(Exception failure) {
            synchronized (GroupRecovery.this) {
                refusal = "error";
                reported = true;
            }
            report();
        }
    }
}

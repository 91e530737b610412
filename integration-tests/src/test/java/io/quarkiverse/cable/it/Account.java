package io.quarkiverse.cable.it;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what one client received on one channel against what was committed there: every committed message exactly
 * once, nothing that was not committed, and each producer's messages in the order it broadcast them. Broadcasts whose
 * commit outcome is unknown (CommitUnknown) may be delivered or not, but at most once and in order. Payloads are
 * {@code <producer>|<seq>}; frames that are not payloads (such as "ready" or end markers) are ignored.
 */
public final class Account {

    public long delivered;
    public long lost;
    public long duplicated;
    public long outOfOrder;
    public long unexpected;
    public long inDoubtDelivered;
    public final List<String> problems = new ArrayList<>();

    /** Adds the account of one client: {@code committed} is the set of payloads stored on its channel. */
    public void check(String client, Collection<String> received, Set<String> committed) {
        check(client, received, committed, Set.of());
    }

    /** As above; {@code inDoubt} holds the payloads whose commit outcome the broadcaster never learned. */
    public void check(String client, Collection<String> received, Set<String> committed, Set<String> inDoubt) {
        Set<String> seen = new HashSet<>();
        Map<String, Integer> lastSeqByProducer = new HashMap<>();
        for (String frame : received) {
            int bar = frame.lastIndexOf('|');
            if (bar < 0) {
                continue;
            }
            delivered++;
            if (!seen.add(frame)) {
                duplicated++;
                problem(client + " received " + frame + " twice");
                continue;
            }
            if (inDoubt.contains(frame)) {
                inDoubtDelivered++;
            } else if (!committed.contains(frame)) {
                unexpected++;
                problem(client + " received " + frame + ", which was not committed");
            }
            String producer = frame.substring(0, bar);
            int seq = Integer.parseInt(frame.substring(bar + 1));
            Integer previous = lastSeqByProducer.put(producer, seq);
            if (previous != null && seq < previous) {
                outOfOrder++;
                problem(client + " received " + frame + " after " + producer + "|" + previous);
            }
        }
        for (String expected : committed) {
            if (!seen.contains(expected)) {
                lost++;
                problem(client + " never received " + expected);
            }
        }
    }

    private void problem(String text) {
        if (problems.size() < 20) {
            problems.add(text);
        }
    }

    public boolean clean() {
        return lost == 0 && duplicated == 0 && outOfOrder == 0 && unexpected == 0;
    }

    @Override
    public String toString() {
        return "delivered " + delivered + ", lost " + lost + ", duplicated " + duplicated + ", out of order "
                + outOfOrder + ", not committed but delivered " + unexpected + ", commit unknown and delivered "
                + inDoubtDelivered
                + (problems.isEmpty() ? "" : "; first problems: " + problems);
    }
}

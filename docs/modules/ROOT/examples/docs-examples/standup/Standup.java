package io.quarkiverse.cable.examples.standup;

/** Names shared by the board's channel, page and tests. */
public final class Standup {

    private Standup() {
    }

    /** The cable channel a team's notes are broadcast on. */
    public static String channel(String team) {
        return "standup:" + team;
    }
}

package io.quarkiverse.cable.it.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's stand-in for a language model: a long answer generated from the answer id, always the same tokens for
 * the same id, so the page and the tests can compare what arrived with what was sent.
 */
final class LlmAnswer {

    private static final String[] OPENINGS = { "In short,", "To put it plainly,", "Consider this:", "Notably,",
            "As a rule,", "In practice,", "Put differently,", "Above all," };
    private static final String[] SUBJECTS = { "every message", "the client", "the stream position", "the epoch",
            "the replay", "a reconnecting browser", "the database", "the cable", "the subscriber", "each offset" };
    private static final String[] VERBS = { "keeps", "follows", "proves", "records", "restores", "orders", "delivers",
            "confirms", "tracks", "resumes" };
    private static final String[] OBJECTS = { "the order of commits", "what was missed", "exactly one copy",
            "the last position consumed", "the history since then", "a gapless sequence", "the live messages",
            "the seam between replay and live", "every token of the answer", "its place in the channel" };
    private static final String[] CLOSINGS = { "without gaps", "after every reconnect", "on every node",
            "in commit order", "even under load", "while the network is down", "and nothing twice",
            "as the server decides" };

    private LlmAnswer() {
    }

    /** The answer's tokens: words with their leading space, whole sentences, at least {@code count} in all. */
    static List<String> tokens(String id, int count) {
        SplittableRandom random = new SplittableRandom(id.hashCode());
        List<String> tokens = new ArrayList<>(count + 8);
        while (tokens.size() < count) {
            String sentence = pick(random, OPENINGS) + " " + pick(random, SUBJECTS) + " " + pick(random, VERBS) + " "
                    + pick(random, OBJECTS) + " " + pick(random, CLOSINGS) + ".";
            for (String word : sentence.split(" ")) {
                tokens.add(tokens.isEmpty() ? word : " " + word);
            }
        }
        return tokens;
    }

    static String text(String id, int count) {
        return String.join("", tokens(id, count));
    }

    private static String pick(SplittableRandom random, String[] words) {
        return words[random.nextInt(words.length)];
    }
}

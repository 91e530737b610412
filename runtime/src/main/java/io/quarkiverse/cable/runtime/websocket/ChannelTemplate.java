package io.quarkiverse.cable.runtime.websocket;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code @StreamFrom} template such as {@code room:{room}}: literal text with {@code {name}} placeholders filled from
 * the connection's path parameters. The same parsing serves the build-time check and the run-time resolution.
 */
public final class ChannelTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}/]+)}");

    private ChannelTemplate() {
    }

    /** The placeholder names of a template, or of a WebSockets Next path such as {@code /rooms/{room}}. */
    public static List<String> parameters(String template) {
        List<String> names = new ArrayList<>();
        Matcher matcher = PLACEHOLDER.matcher(template);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** Fills the placeholders; a missing parameter resolves to the empty string. */
    public static String resolve(String template, UnaryOperator<String> parameter) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder channel = new StringBuilder();
        while (matcher.find()) {
            String value = parameter.apply(matcher.group(1));
            matcher.appendReplacement(channel, Matcher.quoteReplacement(value == null ? "" : value));
        }
        matcher.appendTail(channel);
        return channel.toString();
    }
}

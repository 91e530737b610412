package io.quarkiverse.cable.runtime.websocket;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code @StreamFrom} template such as {@code room:{room}}: literal text with {@code {name}} placeholders filled from
 * the connection's path parameters. The same parsing serves the build-time check and the run-time resolution.
 * <p>
 * A path parameter must not change the channel's structure: {@code /rooms/42%3Aadmin} must not stream
 * {@code room:42:admin}. So a value is accepted only when it is not empty, holds nothing but URI unreserved characters
 * ({@code A-Z a-z 0-9 - . _ ~}), and none of the template's own separators (the characters of its literal text that are
 * not letters or digits: for {@code room.{id}} a dot is refused too).
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

    /**
     * Why a value of {@code template}'s path parameters would change the channel's structure, or null when every
     * value is safe. The reason names the parameter, never its value (the client chose it).
     */
    public static String unsafeParameter(String template, UnaryOperator<String> parameter) {
        // The template's separators: its literal characters that are not letters or digits (":" in room:{room}).
        String separators = PLACEHOLDER.matcher(template).replaceAll("").replaceAll("[A-Za-z0-9]", "");
        for (String name : parameters(template)) {
            String value = parameter.apply(name);
            if (value == null || value.isEmpty()) {
                return "path parameter {" + name + "} is empty";
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (!unreserved(c) || separators.indexOf(c) >= 0) {
                    return "path parameter {" + name + "} holds a character outside [A-Za-z0-9._~-] or one of the"
                            + " template's separators";
                }
            }
        }
        return null;
    }

    private static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                || c == '_' || c == '~';
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

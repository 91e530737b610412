package io.quarkiverse.cable.bench;

/** The payloads of the fastlane benchmark: sizes from the seed, contents generated. */
final class Payloads {

    private Payloads() {
    }

    static String of(String name) {
        return switch (name) {
            case "json-19B" -> "{\"text\":\"hi there\"}";
            case "json-80.5KB" -> largeJson(80_500);
            case "turbo-2.95KB" -> turboStream(2_950);
            default -> throw new IllegalArgumentException("unknown payload " + name);
        };
    }

    /** A JSON array of small records, padded to exactly {@code size} bytes. */
    private static String largeJson(int size) {
        StringBuilder json = new StringBuilder("{\"items\":[");
        int i = 0;
        while (json.length() < size - 200) {
            if (i > 0) {
                json.append(',');
            }
            json.append("{\"id\":").append(i).append(",\"name\":\"item ").append(i)
                    .append("\",\"price\":").append(i * 7 % 1000).append(".99,\"tags\":[\"a\",\"b\"]}");
            i++;
        }
        json.append("],\"pad\":\"");
        while (json.length() < size - 2) {
            json.append('x');
        }
        return json.append("\"}").toString();
    }

    /** A Turbo Stream append fragment, padded to exactly {@code size} bytes, as a JSON string payload. */
    private static String turboStream(int size) {
        StringBuilder html = new StringBuilder(
                "<turbo-stream action=\\\"append\\\" target=\\\"messages\\\"><template><div id=\\\"message_1\\\""
                        + " class=\\\"message\\\"><p>");
        String close = "</p></div></template></turbo-stream>";
        while (html.length() < size - close.length() - 2) {
            html.append("Lorem ipsum dolor sit amet. ");
        }
        html.setLength(size - close.length() - 2);
        return "\"" + html + close + "\"";
    }
}

package io.quarkiverse.cable.bench.loadgen;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --name value} pairs after the command. Every option takes a value; each getter removes what it reads, so
 * {@link #requireAllUsed()} can reject misspelt options instead of silently running with a default.
 */
final class Arguments {

    private final Map<String, String> values = new LinkedHashMap<>();

    Arguments(String[] args, int from) throws UsageException {
        for (int i = from; i < args.length; i += 2) {
            String name = args[i];
            if (!name.startsWith("--") || name.length() == 2) {
                throw new UsageException("expected an option such as --users, got '" + name + "'");
            }
            if (i + 1 >= args.length) {
                throw new UsageException(name + " needs a value");
            }
            if (values.put(name.substring(2), args[i + 1]) != null) {
                throw new UsageException(name + " is given twice");
            }
        }
    }

    String required(String name) throws UsageException {
        String value = values.remove(name);
        if (value == null) {
            throw new UsageException("--" + name + " is required");
        }
        return value;
    }

    String text(String name, String defaultValue) {
        String value = values.remove(name);
        return value == null ? defaultValue : value;
    }

    int requiredInteger(String name, int min) throws UsageException {
        return parseInteger(name, required(name), min);
    }

    int integer(String name, int defaultValue, int min) throws UsageException {
        String value = values.remove(name);
        return value == null ? defaultValue : parseInteger(name, value, min);
    }

    private static int parseInteger(String name, String value, int min) throws UsageException {
        int parsed;
        try {
            parsed = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be an integer, got '" + value + "'");
        }
        if (parsed < min) {
            throw new UsageException("--" + name + " must be at least " + min + ", got " + parsed);
        }
        return parsed;
    }

    void requireAllUsed() throws UsageException {
        if (!values.isEmpty()) {
            throw new UsageException("unknown option(s): --" + String.join(", --", values.keySet()));
        }
    }
}

package io.quarkiverse.cable.runtime.database;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database's DDL script (the file the documentation shows), read as statements and as the tables, columns and
 * indexes they define, so the schema manager can compare them with a live database. The script is the only source
 * of the schema: a later version adds a column by adding it to the CREATE TABLE (with a default, so existing rows
 * can take it) and an index by adding its statement or inline clause.
 */
final class SchemaScript {

    private static final Pattern CREATE_TABLE = Pattern.compile("(?is)CREATE TABLE IF NOT EXISTS (\\w+)\\s*\\(");
    private static final Pattern CREATE_INDEX = Pattern
            .compile("(?is)CREATE INDEX IF NOT EXISTS (\\w+) ON (\\w+)\\s*(\\(.*\\))");
    private static final Pattern INLINE_INDEX = Pattern.compile("(?is)(?:INDEX|KEY) (\\w+)\\s*(\\(.*\\))");
    private static final Pattern CONSTRAINT = Pattern.compile("(?is)(?:PRIMARY KEY|UNIQUE|CONSTRAINT|FOREIGN KEY)\\b.*");

    /** One table: its CREATE statement and standalone index statements, its columns and all its indexes. */
    public record Table(String name, List<String> statements, Map<String, String> columns,
            Map<String, String> indexes) {
    }

    private final Map<String, Table> tables = new LinkedHashMap<>();
    private final List<String> rows = new ArrayList<>();

    private SchemaScript(List<String> statements) {
        for (String statement : statements) {
            Matcher table = CREATE_TABLE.matcher(statement);
            Matcher index = CREATE_INDEX.matcher(statement);
            if (table.lookingAt()) {
                addTable(table.group(1), statement, table.end());
            } else if (index.matches()) {
                Table owner = table(index.group(2));
                owner.statements().add(statement);
                owner.indexes().put(key(index.group(1)), index.group(3));
            } else if (statement.regionMatches(true, 0, "INSERT", 0, 6)) {
                rows.add(statement);
            } else {
                throw new IllegalStateException("Unexpected statement in the cable's DDL script: " + statement);
            }
        }
    }

    /** The script of a classpath resource. */
    public static SchemaScript load(String resource) {
        try (InputStream in = SchemaScript.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing cable DDL resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read cable DDL resource " + resource, e);
        }
    }

    public static SchemaScript parse(String script) {
        return new SchemaScript(statements(script));
    }

    /** The script's statements: separated by semicolons at line ends, with comment lines and blank lines dropped. */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line.stripTrailing()).append('\n');
            if (trimmed.endsWith(";")) {
                statements.add(current.substring(0, current.lastIndexOf(";")).strip());
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("The cable's DDL script ends without a semicolon: " + current.toString().strip());
        }
        return statements;
    }

    public Collection<Table> tables() {
        return tables.values();
    }

    /** Statements that insert the rows the cable needs (the id allocator's row); idempotent. */
    public List<String> rows() {
        return rows;
    }

    Table table(String name) {
        Table table = tables.get(key(name));
        if (table == null) {
            throw new IllegalStateException("The cable's DDL script indexes table " + name + " before creating it");
        }
        return table;
    }

    private void addTable(String name, String statement, int bodyStart) {
        Table table = new Table(key(name), new ArrayList<>(List.of(statement)), new LinkedHashMap<>(),
                new LinkedHashMap<>());
        for (String element : elements(statement, bodyStart)) {
            Matcher index = INLINE_INDEX.matcher(element);
            if (index.matches()) {
                table.indexes().put(key(index.group(1)), index.group(2));
            } else if (!CONSTRAINT.matcher(element).matches()) {
                String[] nameAndDefinition = element.split("\\s+", 2);
                table.columns().put(key(nameAndDefinition[0]), element);
            }
        }
        tables.put(table.name(), table);
    }

    /** The comma-separated elements between the parenthesis at {@code bodyStart - 1} and its closing one. */
    private static List<String> elements(String statement, int bodyStart) {
        List<String> elements = new ArrayList<>();
        int depth = 0;
        int from = bodyStart;
        for (int i = bodyStart; i < statement.length(); i++) {
            char c = statement.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0 || c == ')') {
                elements.add(statement.substring(from, i).strip());
                from = i + 1;
                if (c == ')') {
                    return elements;
                }
            }
        }
        throw new IllegalStateException("Unbalanced parentheses in the cable's DDL statement: " + statement);
    }

    static String key(String identifier) {
        return identifier.toLowerCase(Locale.ROOT);
    }
}

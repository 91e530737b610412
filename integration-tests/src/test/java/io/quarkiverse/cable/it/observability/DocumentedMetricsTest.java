package io.quarkiverse.cable.it.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.CableException;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Every metric of the Observability page's table is in /q/metrics with exactly its documented tags, on the database
 * of the run (the wake-up sections apply to their database only). Prometheus' registry silently drops a series whose
 * tag keys differ from the first one registered under its name, so a documented series can be missing with no error
 * anywhere: this reads the table from the page itself, so a row added there is checked too.
 */
@QuarkusTest
public class DocumentedMetricsTest {

    private static final Path PAGE = Path.of("../docs/modules/ROOT/pages/observability.adoc");
    /** A row's first cell: {@code |`cable.x` (`cable_x_total`), tag `kind`} or {@code ..., tags `a`, `b`}. */
    private static final Pattern ROW = Pattern.compile("^\\|`cable\\.[a-z.]+` \\(`(cable_[a-z_]+)`\\)(.*)$");
    private static final Pattern TAG = Pattern.compile("`([a-z_]+)`");
    private static final Pattern SECTION = Pattern.compile("^3\\+\\|\\*(.+)\\*.*$");
    private static final Pattern SERIES = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? \\S+$");
    /** Suffixes Prometheus gives timers' and distribution summaries' series. */
    private static final List<String> SUFFIXES = List.of("", "_bucket", "_count", "_sum", "_max");

    @ConfigProperty(name = "quarkus.datasource.db-kind")
    String dbKind;

    @Test
    void everyDocumentedMetricIsScrapedWithItsDocumentedTags() throws IOException {
        Map<String, Set<String>> documented = documented();
        assertThat(documented).as("rows read from the page").containsKeys("cable_broadcasts_total",
                "cable_history_replays_total", "cable_poll_lag_seconds");
        Map<String, List<Map<String, String>>> scraped = scrape();

        List<String> problems = new ArrayList<>();
        documented.forEach((name, tags) -> {
            List<Map<String, String>> series = new ArrayList<>();
            for (String suffix : SUFFIXES) {
                series.addAll(scraped.getOrDefault(name + suffix, List.of()));
            }
            if (series.isEmpty()) {
                problems.add(name + " is not in /q/metrics");
            }
            for (Map<String, String> labels : series) {
                Set<String> keys = new TreeSet<>(labels.keySet());
                keys.remove("le"); // histogram buckets
                if (!keys.equals(tags)) {
                    problems.add(name + labels + " has tags " + keys + ", documented " + tags);
                }
            }
        });
        assertThat(problems).isEmpty();

        // The series that went missing: one refusal series per reason, next to served and failed.
        List<Map<String, String>> replays = scraped.get("cable_history_replays_total");
        assertThat(replays).extracting(labels -> labels.get("result") + "/" + labels.get("reason"))
                .contains("served/none", "failed/none")
                .containsAll(reasons());
    }

    private static List<String> reasons() {
        List<String> reasons = new ArrayList<>();
        for (CableException.HistoryUnavailable.Reason reason : CableException.HistoryUnavailable.Reason.values()) {
            reasons.add("rejected/" + reason.name().toLowerCase(java.util.Locale.ROOT));
        }
        return reasons;
    }

    /** Prometheus name to its documented tag keys, for the sections that apply to this run's database. */
    private Map<String, Set<String>> documented() throws IOException {
        Map<String, Set<String>> metrics = new LinkedHashMap<>();
        boolean applies = true;
        for (String line : Files.readAllLines(PAGE)) {
            Matcher section = SECTION.matcher(line);
            if (section.matches()) {
                applies = applies(section.group(1));
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (applies && row.matches()) {
                Set<String> tags = new TreeSet<>();
                Matcher tag = TAG.matcher(row.group(2));
                while (tag.find()) {
                    tags.add(tag.group(1));
                }
                metrics.put(row.group(1), tags);
            }
        }
        return metrics;
    }

    private boolean applies(String section) {
        if (section.contains("PostgreSQL doorbell")) {
            return dbKind.equals("postgresql");
        }
        if (section.contains("newest-id probe")) {
            return dbKind.equals("mariadb") || dbKind.equals("mysql");
        }
        return true; // every adapter, database adapter: this application runs the database adapter
    }

    /** Series name to the label sets of its series. */
    private static Map<String, List<Map<String, String>>> scrape() {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Map<String, List<Map<String, String>>> series = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher matcher = SERIES.matcher(line);
            if (line.startsWith("#") || !matcher.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (matcher.group(2) != null && !matcher.group(2).isEmpty()) {
                for (String pair : matcher.group(2).split(",")) {
                    int equals = pair.indexOf('=');
                    labels.put(pair.substring(0, equals), pair.substring(equals + 1).replace("\"", ""));
                }
            }
            series.computeIfAbsent(matcher.group(1), key -> new ArrayList<>()).add(labels);
        }
        return series;
    }
}

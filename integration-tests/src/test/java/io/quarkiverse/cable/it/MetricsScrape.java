package io.quarkiverse.cable.it;

import static io.restassured.RestAssured.given;

import java.util.HashMap;
import java.util.Map;

/** One read of /q/metrics (Prometheus text format): series name with labels to value. */
public final class MetricsScrape {

    private final Map<String, Double> series = new HashMap<>();

    private MetricsScrape(String text) {
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            series.put(line.substring(0, space).trim(), Double.parseDouble(line.substring(space + 1).trim()));
        }
    }

    public static MetricsScrape now() {
        return new MetricsScrape(given().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    public boolean has(String name) {
        return series.containsKey(name);
    }

    /** The value of a series, for example {@code cable_errors_total{kind="invalid"}}; fails when it is missing. */
    public double value(String name) {
        Double value = series.get(name);
        if (value == null) {
            throw new AssertionError("no series " + name + " in /q/metrics; cable series: "
                    + series.keySet().stream().filter(key -> key.startsWith("cable_")).sorted().toList());
        }
        return value;
    }

    public long count(String name) {
        return (long) value(name);
    }
}

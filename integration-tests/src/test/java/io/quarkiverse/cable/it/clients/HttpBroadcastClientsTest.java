package io.quarkiverse.cable.it.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.GemBroadcaster;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What the {@code anycable} gem's http broadcaster posts ({@link GemBroadcaster}) reaches real clients: a
 * {@code @rails/actioncable} consumer and an {@code @anycable/web} cable (src/test/js/http-broadcast-clients.js),
 * each receiving every broadcast of one single and one batch request exactly once, in order.
 */
@QuarkusTest
@DatabaseIndependent
public class HttpBroadcastClientsTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void gemRequestsReachRailsAndAnyCableClients() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/@anycable/web")).as("npm ci ran in src/test/js").isDirectory();
        String room = "http-clients-" + System.nanoTime();
        int count = 201;
        ProcessBuilder builder = new ProcessBuilder("node", "http-broadcast-clients.js").directory(directory)
                .redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", "http://" + base.getHost() + ":" + base.getPort());
        builder.environment().put("ROOM", room);
        builder.environment().put("COUNT", Integer.toString(count));
        Process node = builder.start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null && !line.equals("READY")) {
                output.append(line).append('\n');
            }
            assertThat(line).as("the clients subscribed; node said:%n%s", output).isEqualTo("READY");
            GemBroadcaster gem = new GemBroadcaster(base, GemBroadcaster.SECRET);
            String stream = "chat:" + room;
            assertThat(gem.broadcast(stream, "{\"n\":1}").statusCode()).isEqualTo(201);
            List<String> rest = IntStream.rangeClosed(2, count).mapToObj(i -> "{\"n\":" + i + "}").toList();
            assertThat(gem.batch(stream, rest).statusCode()).isEqualTo(201);
            assertThat(gem.broadcast(stream, "{\"end\":true}").statusCode()).isEqualTo(201);
            while ((line = lines.readLine()) != null) {
                output.append(line).append('\n');
            }
        }
        assertThat(node.waitFor(3, TimeUnit.MINUTES)).as("node finished").isTrue();
        System.out.println(output);
        assertThat(node.exitValue()).as("node's exit code; its output:%n%s", output).isZero();
    }
}

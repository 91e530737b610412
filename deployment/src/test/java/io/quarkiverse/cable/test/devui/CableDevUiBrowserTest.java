package io.quarkiverse.cable.test.devui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusDevModeTest;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * The Dev UI page in headless Chromium (src/test/js/devui-browser.test.js, playwright-core driving Debian's
 * /usr/bin/chromium): with one Action Cable client connected, subscribed and in a presence set, the page lists the
 * connection and the presence member, and a broadcast sent from its form shows in its recent messages and reaches
 * the client. Node and /usr/bin/chromium are required: without them this test fails rather than skips.
 */
class CableDevUiBrowserTest {

    @RegisterExtension
    static final QuarkusDevModeTest app = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevUiRoomChannel.class)
                    // The client tab's page: same origin as the cable, and light to load.
                    .addAsResource(new StringAsset("<!doctype html><title>Cable client</title>"),
                            "META-INF/resources/client.html")
                    .addAsResource(new StringAsset("""
                            quarkus.datasource.db-kind=h2
                            quarkus.datasource.jdbc.url=jdbc:h2:mem:cable-devui-browser;DB_CLOSE_DELAY=-1
                            quarkus.devservices.enabled=false
                            quarkus.hibernate-orm.schema-management.strategy=validate
                            """), "application.properties"));

    @TestHTTPResource("/")
    URL base;

    @Test
    void pageShowsConnectionPresenceAndBroadcast() throws Exception {
        File directory = new File("src/test/js");
        assertThat(new File(directory, "node_modules/playwright-core")).as("npm ci ran in src/test/js").isDirectory();
        ProcessBuilder builder = new ProcessBuilder("node", "--test", "devui-browser.test.js")
                .directory(directory).redirectErrorStream(true);
        builder.environment().put("CABLE_BASE", "http://" + base.getHost() + ":" + base.getPort());
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(10, TimeUnit.MINUTES)).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node --test exit code; its output:%n%s", output).isZero();
        assertThat(output).as("node's report").contains("# pass 1").contains("# fail 0");
    }
}

package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The recoverable-streams demo page (llm.html, src/test/js/llm-demo.test.js) in headless Chromium: a generated answer
 * streams token by token, the page's "drop" button closes its connection for three seconds, and the answer ends
 * complete and in order (compared with the server's text), with the missed tokens replayed. The page's JavaScript
 * comes from the application only. Node and {@code /usr/bin/chromium} are required.
 */
@QuarkusTest
@DatabaseIndependent
public class LlmDemoPageTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void answerIsCompleteAfterADrop() throws Exception {
        NodeTests.assertPasses(base, "llm-demo.test.js", 1);
    }
}

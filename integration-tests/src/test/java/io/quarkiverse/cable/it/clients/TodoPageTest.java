package io.quarkiverse.cable.it.clients;

import java.net.URI;

import org.junit.jupiter.api.Test;

import io.quarkiverse.cable.it.DatabaseIndependent;
import io.quarkiverse.cable.it.NodeTests;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The demo's to-do page (todos.html) in two headless Chromium tabs, driven by src/test/js/todos.test.js: each change
 * is saved and broadcast in one transaction and shows in every tab; a rolled-back one in none. Node and
 * {@code /usr/bin/chromium} are required: without them this test fails rather than skips.
 */
@DatabaseIndependent
@QuarkusTest
public class TodoPageTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyTabShowsTheCommittedChanges() throws Exception {
        NodeTests.assertPasses(base, "todos.test.js", 1);
    }
}

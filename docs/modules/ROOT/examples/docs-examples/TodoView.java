package io.quarkiverse.cable.examples;

public record TodoView(Long id, String title) {
}

package io.quarkiverse.cable.examples;

public record TodoEvent(String type, TodoView item) {
}

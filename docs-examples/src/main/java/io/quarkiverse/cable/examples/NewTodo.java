package io.quarkiverse.cable.examples;

// tag::new-todo[]
public record NewTodo(String title) {
}
// end::new-todo[]

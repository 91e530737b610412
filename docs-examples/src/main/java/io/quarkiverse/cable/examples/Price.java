package io.quarkiverse.cable.examples;

// tag::price-record[]
public record Price(String symbol, long cents) {
}
// end::price-record[]

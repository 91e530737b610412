package io.quarkiverse.cable.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.ws.rs.NameBinding;

/**
 * Marks a resource the tests need in the packaged application too (arbitrary broadcasts, queue floods, a JVM halt):
 * it answers 404 unless {@code cable-it.test-endpoints=true}, which only the test profile and the tests' own
 * launches of the jar set ({@link TestEndpointGate}). The demo run as the README says exposes none of them.
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
public @interface TestEndpoint {
}

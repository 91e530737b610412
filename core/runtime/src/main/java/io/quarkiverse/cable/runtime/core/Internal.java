package io.quarkiverse.cable.runtime.core;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.inject.Qualifier;

/**
 * Qualifies the {@link CableEngine} bean that the extension's own classes inject. Applications inject
 * {@link io.quarkiverse.cable.Cable}; an unqualified {@code CableEngine} injection point finds no bean, so the engine
 * stays out of the application's reach.
 */
@Qualifier
@Retention(RUNTIME)
@Target({ TYPE, FIELD, METHOD, PARAMETER })
public @interface Internal {
}

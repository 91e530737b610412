package io.quarkiverse.cable.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A suite whose subject is not the database (abuse cases, protocol conformance): CI runs the integration tests once
 * per database, and such a suite would only repeat itself, so it runs in the embedded H2 stage alone. The property is
 * set by the module's surefire configuration from the active database profile.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfSystemProperty(named = "cable.it.db-kind", matches = "h2", disabledReason = "database-independent suite: runs in the H2 stage")
public @interface DatabaseIndependent {
}

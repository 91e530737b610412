package io.quarkiverse.cable.it.schema;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@code quarkus.hibernate-orm.schema-management.strategy=none}: see {@link HibernateSchemaStrategyTests}. */
@QuarkusTest
@TestProfile(HibernateSchemaNoneTest.Profile.class)
public class HibernateSchemaNoneTest extends HibernateSchemaStrategyTests {

    @Override
    String database() {
        return "cable_orm_none";
    }

    public static class Profile extends Strategy {
        public Profile() {
            super("none");
        }
    }
}

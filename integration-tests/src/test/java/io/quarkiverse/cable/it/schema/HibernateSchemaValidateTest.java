package io.quarkiverse.cable.it.schema;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@code quarkus.hibernate-orm.schema-management.strategy=validate}: see {@link HibernateSchemaStrategyTests}. */
@QuarkusTest
@TestProfile(HibernateSchemaValidateTest.Profile.class)
public class HibernateSchemaValidateTest extends HibernateSchemaStrategyTests {

    @Override
    String database() {
        return "cable_orm_validate";
    }

    public static class Profile extends Strategy {
        public Profile() {
            super("validate");
        }
    }
}

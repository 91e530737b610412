package io.quarkiverse.cable.it.schema;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@code quarkus.hibernate-orm.schema-management.strategy=update}: see {@link HibernateSchemaStrategyTests}. */
@QuarkusTest
@TestProfile(HibernateSchemaUpdateTest.Profile.class)
public class HibernateSchemaUpdateTest extends HibernateSchemaStrategyTests {

    @Override
    String database() {
        return "cable_orm_update";
    }

    public static class Profile extends Strategy {
        public Profile() {
            super("update");
        }
    }
}

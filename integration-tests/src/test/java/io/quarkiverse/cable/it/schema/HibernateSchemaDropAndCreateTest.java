package io.quarkiverse.cable.it.schema;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** {@code quarkus.hibernate-orm.schema-management.strategy=drop-and-create}: see {@link HibernateSchemaStrategyTests}. */
@QuarkusTest
@TestProfile(HibernateSchemaDropAndCreateTest.Profile.class)
public class HibernateSchemaDropAndCreateTest extends HibernateSchemaStrategyTests {

    @Override
    String database() {
        return "cable_orm_drop_and_create";
    }

    public static class Profile extends Strategy {
        public Profile() {
            super("drop-and-create");
        }
    }
}

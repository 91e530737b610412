package io.quarkiverse.cable.runtime.database;

import java.security.Principal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import javax.sql.DataSource;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.AgroalConnectionFactoryConfiguration;
import io.agroal.api.security.AgroalDefaultSecurityProvider;
import io.agroal.api.security.AgroalSecurityProvider;

/**
 * Opens PostgreSQL connections with the datasource's JDBC URL, properties and credentials, but outside its pool: the
 * doorbell's listener holds its connection for the life of the application, so a pooled one would count against
 * {@code max-size} for good and trip the pool's leak detection.
 */
final class UnpooledConnections {

    /** How the listener shows in {@code pg_stat_activity}; tests and operators find it by this name. */
    static final String APPLICATION_NAME = "quarkus-cable-doorbell";

    private final String jdbcUrl;
    private final Properties properties;
    private final org.postgresql.Driver driver = new org.postgresql.Driver();

    private UnpooledConnections(String jdbcUrl, Properties properties) {
        this.jdbcUrl = jdbcUrl;
        this.properties = properties;
    }

    /**
     * The datasource's route, or {@code direct}'s URL when set (a pooler in front of the datasource drops
     * notifications): the direct connection keeps the datasource's JDBC properties and takes its user and password
     * unless {@code direct} names its own. Fails when the datasource is not an Agroal pool, whose configuration holds
     * the URL and credentials.
     */
    static UnpooledConnections of(DataSource dataSource, Optional<WakeupSettings.DirectConnection> direct)
            throws SQLException {
        UnpooledConnections viaDataSource = of(dataSource);
        if (direct.isEmpty()) {
            return viaDataSource;
        }
        Properties properties = new Properties();
        properties.putAll(viaDataSource.properties);
        direct.get().username().ifPresent(user -> properties.setProperty("user", user));
        direct.get().password().ifPresent(password -> properties.setProperty("password", password));
        return new UnpooledConnections(direct.get().jdbcUrl(), properties);
    }

    /** Where the listener connects, for its log lines (the URL holds no password unless the user put one there). */
    String jdbcUrl() {
        return jdbcUrl;
    }

    private static UnpooledConnections of(DataSource dataSource) throws SQLException {
        AgroalDataSource agroal;
        if (dataSource instanceof AgroalDataSource direct) {
            agroal = direct;
        } else if (dataSource.isWrapperFor(AgroalDataSource.class)) {
            agroal = dataSource.unwrap(AgroalDataSource.class);
        } else {
            throw new SQLException("the datasource is not an Agroal pool (" + dataSource.getClass().getName() + ")");
        }
        AgroalConnectionFactoryConfiguration factory = agroal.getConfiguration().connectionPoolConfiguration()
                .connectionFactoryConfiguration();
        Properties properties = new Properties();
        properties.putAll(factory.jdbcProperties());
        List<Object> secrets = new ArrayList<>();
        Principal principal = factory.principal();
        if (principal != null) {
            secrets.add(principal);
        }
        secrets.addAll(factory.credentials());
        List<AgroalSecurityProvider> providers = new ArrayList<>(factory.securityProviders());
        providers.add(new AgroalDefaultSecurityProvider());
        for (Object secret : secrets) {
            for (AgroalSecurityProvider provider : providers) {
                Properties resolved = provider.getSecurityProperties(secret);
                if (resolved != null) {
                    properties.putAll(resolved);
                    break;
                }
            }
        }
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        // Lets the operating system notice a dead peer even if the periodic validity check were late.
        properties.setProperty("tcpKeepAlive", "true");
        return new UnpooledConnections(factory.jdbcUrl(), properties);
    }

    Connection open() throws SQLException {
        Connection connection = driver.connect(jdbcUrl, properties);
        if (connection == null) {
            throw new SQLException("the PostgreSQL driver does not accept the URL " + jdbcUrl);
        }
        connection.setAutoCommit(true);
        return connection;
    }
}

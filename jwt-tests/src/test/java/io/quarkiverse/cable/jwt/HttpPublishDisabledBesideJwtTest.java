package io.quarkiverse.cable.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.smallrye.jwt.build.Jwt;

/**
 * While the HTTP publish endpoint is disabled, its path is like any other: the application's security applies to it
 * (the route that runs before Quarkus Security's authentication passes the request on), so a request without a valid
 * token is refused by Quarkus and one with a token gets the application's answer (here 404, nothing serves it).
 */
class HttpPublishDisabledBesideJwtTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource("publicKey.pem").addAsResource("privateKey.pem"))
            .overrideConfigKey("quarkus.cable.adapter", "memory")
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("mp.jwt.verify.publickey.location", "publicKey.pem")
            .overrideConfigKey("mp.jwt.verify.issuer", HttpPublishBesideJwt.ISSUER)
            .overrideConfigKey("smallrye.jwt.sign.key.location", "privateKey.pem")
            .overrideConfigKey("quarkus.http.auth.permission.everything.paths", "/*")
            .overrideConfigKey("quarkus.http.auth.permission.everything.policy", "authenticated")
            .overrideRuntimeConfigKey("quarkus.cable.http-broadcast.secret", HttpPublishBesideJwt.SECRET);

    @TestHTTPResource("/_broadcast")
    URI publish;

    @Test
    void theApplicationsSecurityAppliesToThePath() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String token = Jwt.issuer(HttpPublishBesideJwt.ISSUER).upn("ann").issuedAt(Instant.now().minusSeconds(120))
                .expiresAt(Instant.now().plusSeconds(600)).sign();
        assertThat(post(client, HttpPublishBesideJwt.SECRET).statusCode()).isEqualTo(401);
        assertThat(post(client, token).statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> post(HttpClient client, String bearer) throws Exception {
        return client.send(HttpRequest.newBuilder(publish).header("Authorization", "Bearer " + bearer)
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

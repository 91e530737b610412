package io.quarkiverse.cable.it.authz;

import java.time.Instant;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.cable.it.TestEndpoint;

/**
 * Tests only: the page a Rails application renders for {@code @anycable/web}'s {@code fetchTokenFromHTML()}, with a
 * fresh token of {@link TestTokenAuthentication} ({@code <user>.<now + 1 hour>}) in its {@code cable-token} and
 * {@code cable-token-param} meta tags. {@code ?user=} stands in for the session a real page would be rendered for. It
 * answers 400 unless asked as that refresher asks ({@code X-ANYCABLE-OPERATION: token-refresh}), so a test that
 * passes went through it.
 */
@TestEndpoint
@Path("/token-page")
public class TokenPageResource {

    @GET
    @Produces(MediaType.TEXT_HTML)
    public Response page(@QueryParam("user") String user, @HeaderParam("X-ANYCABLE-OPERATION") String operation) {
        if (user == null || !user.matches("[A-Za-z0-9_-]+") || !"token-refresh".equals(operation)) {
            return Response.status(Response.Status.BAD_REQUEST).build();
        }
        String token = user + "." + (Instant.now().getEpochSecond() + 3600);
        return Response.ok("<!doctype html><html><head><meta charset=\"utf-8\">"
                + "<meta name=\"cable-token\" content=\"" + token + "\">"
                + "<meta name=\"cable-token-param\" content=\"token\">"
                + "<title>token</title></head><body></body></html>")
                .header("Cache-Control", "no-store").build();
    }
}

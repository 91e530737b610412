package io.quarkiverse.cable.runtime.frontend;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which pages may open a cable WebSocket, decided from the handshake's {@code Origin} header like Rails'
 * {@code allowed_request_origins}. Browsers do not apply CORS to WebSocket handshakes and send the site's cookies with
 * them, so without this check any page a signed-in user visits could open a cable as that user (cross-site WebSocket
 * hijacking). Browsers always send {@code Origin}; a handshake without one comes from a server, a script or a test.
 * Pure logic, built once from the configuration.
 */
final class OriginPolicy {

    private final boolean check;
    private final boolean allowSameOrigin;
    private final boolean allowMissing;
    private final List<Allowed> allowed;

    private record Allowed(String scheme, String host, int port, boolean subdomains) {
        boolean matches(Origin origin) {
            if (!scheme.equals(origin.scheme) || port != origin.port) {
                return false;
            }
            return subdomains ? origin.host.endsWith("." + host) : host.equals(origin.host);
        }
    }

    private record Origin(String scheme, String host, int port) {
    }

    /**
     * @param check false turns the check off (Rails' {@code disable_request_forgery_protection})
     * @param allowSameOrigin whether a page of the request's own scheme, host and port may connect
     * @param allowed further origins such as {@code https://app.example.com}; {@code https://*.example.com} allows
     *        every subdomain of example.com
     * @param allowMissing whether a handshake without {@code Origin} is accepted
     * @throws IllegalArgumentException when an allowed origin is not {@code scheme://host[:port]}
     */
    public OriginPolicy(boolean check, boolean allowSameOrigin, List<String> allowed, boolean allowMissing) {
        this.check = check;
        this.allowSameOrigin = allowSameOrigin;
        this.allowMissing = allowMissing;
        List<Allowed> parsed = new ArrayList<>();
        for (String entry : allowed) {
            boolean subdomains = entry.contains("://*.");
            Origin origin = parse(subdomains ? entry.replace("://*.", "://") : entry);
            if (origin == null) {
                throw new IllegalArgumentException("Not an origin (scheme://host[:port], optionally with *. before the"
                        + " host): " + entry);
            }
            parsed.add(new Allowed(origin.scheme, origin.host, origin.port, subdomains));
        }
        this.allowed = List.copyOf(parsed);
    }

    /**
     * Null when the handshake may proceed, else why it is refused.
     *
     * @param origin the {@code Origin} header, or null when absent
     * @param scheme the request's scheme ({@code http} or {@code https})
     * @param host the request's {@code Host} header
     */
    public String refusal(String origin, String scheme, String host) {
        if (!check) {
            return null;
        }
        if (origin == null || origin.isEmpty()) {
            return allowMissing ? null
                    : "a handshake without an Origin header (quarkus.cable.origin.allow-missing is false)";
        }
        Origin parsed = parse(origin);
        if (parsed == null) {
            return "origin '" + clip(origin) + "' is not allowed (it names no host)";
        }
        if (allowSameOrigin && host != null && scheme != null) {
            Origin own = parse(scheme + "://" + host);
            if (parsed.equals(own)) {
                return null;
            }
        }
        for (Allowed entry : allowed) {
            if (entry.matches(parsed)) {
                return null;
            }
        }
        return "origin '" + clip(origin) + "' is not allowed (not the request's own host " + clip(String.valueOf(host))
                + " nor in quarkus.cable.origin.allowed)";
    }

    /** {@code scheme://host[:port]} with the default port made explicit and case folded; null when it is not one. */
    private static Origin parse(String text) {
        try {
            URI uri = new URI(text.trim());
            String scheme = uri.getScheme();
            String host = uri.getHost();
            if (scheme == null || host == null || uri.getRawUserInfo() != null
                    || (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) || uri.getRawQuery() != null
                    || uri.getRawFragment() != null) {
                return null;
            }
            scheme = scheme.toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            if (port < 0) {
                port = switch (scheme) {
                    case "http", "ws" -> 80;
                    case "https", "wss" -> 443;
                    default -> -1;
                };
            }
            return new Origin(scheme, host.toLowerCase(Locale.ROOT), port);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static String clip(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}

package io.quarkiverse.cable.runtime.frontend;

import java.util.HexFormat;

import io.netty.util.NetUtil;
import io.vertx.core.net.SocketAddress;

/**
 * Who a request comes from, as far as its address tells: the key of the per-address bounds (wrong publish secrets,
 * SSE streams per anonymous client).
 */
public final class ClientAddress {

    private ClientAddress() {
    }

    /**
     * The key of a remote address: an IPv4 address as is, an IPv6 one as its /64 network (what one host is usually
     * given, so a single host cannot pass as many clients). With {@code quarkus.http.proxy.proxy-address-forwarding},
     * Quarkus has already replaced the address with the forwarded one, which need not be an address at all (RFC 7239
     * allows {@code unknown} and obfuscated names): such a text is its own key, and is never resolved.
     */
    public static String key(SocketAddress remote) {
        // A forwarded name that is no address has no hostAddress, only its host text.
        String host = remote == null ? null : remote.hostAddress() != null ? remote.hostAddress() : remote.host();
        if (host == null) {
            return "unknown";
        }
        byte[] bytes = host.indexOf(':') < 0 ? null : NetUtil.createByteArrayFromIpAddressString(host);
        if (bytes == null || bytes.length != 16) {
            return host;
        }
        return HexFormat.of().formatHex(bytes, 0, 8) + "::/64";
    }
}

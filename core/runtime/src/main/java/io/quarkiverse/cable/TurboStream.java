package io.quarkiverse.cable;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One {@code <turbo-stream>} element, the payload of a Turbo Streams broadcast, with every attribute turbo-rails'
 * broadcasts produce: {@code action}; {@code target} (a DOM id) or {@code targets} (a CSS selector); Turbo 8's
 * {@code method="morph"}; {@code request-id} on {@code refresh}; and any further attribute. Build one with
 * {@link #action(String)} or {@link #refresh(String)}, then render it with {@link #toHtml()}:
 *
 * <pre>
 * TurboStream.action("replace").target("message_1").method("morph").template(html).toHtml()
 * </pre>
 *
 * Attribute values are escaped; the template is inserted as it is (it is markup). {@code remove} and {@code refresh}
 * carry no template. Every action but {@code refresh} needs exactly one of {@code target} and {@code targets}: rendering
 * one without (or with both) throws {@link IllegalArgumentException}, as turbo-rails raises.
 */
public final class TurboStream {

    /** Turbo 8's {@code refresh} action: the page reloads itself (morphing when it asks for it); no target. */
    public static final String REFRESH = "refresh";

    private static final Set<String> WITHOUT_TEMPLATE = Set.of("remove", REFRESH);
    private static final Set<String> RESERVED = Set.of("action", "target", "targets");
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z_:][-A-Za-z0-9_:.]*");

    private final String action;
    private String target;
    private String targets;
    private String template;
    private final Map<String, String> attributes = new LinkedHashMap<>();

    private TurboStream(String action) {
        if (action == null || action.isBlank()) {
            throw new IllegalArgumentException("A Turbo stream needs an action (append, prepend, replace, update, remove,"
                    + " before, after, morph, refresh or a custom one)");
        }
        this.action = action;
    }

    /** A stream element performing {@code action}; give it a {@link #target} or {@link #targets}. */
    public static TurboStream action(String action) {
        return new TurboStream(action);
    }

    /**
     * A Turbo 8 {@code refresh}: {@code <turbo-stream action="refresh" request-id="...">}. {@code requestId} is the
     * {@code X-Turbo-Request-Id} of the request that caused the change (the page that made it ignores the refresh, as
     * it already shows the change); null or empty leaves the attribute out, so every page refreshes.
     */
    public static TurboStream refresh(String requestId) {
        TurboStream refresh = new TurboStream(REFRESH);
        if (requestId != null && !requestId.isEmpty()) {
            refresh.attributes.put("request-id", requestId);
        }
        return refresh;
    }

    /** The DOM id of the element the action applies to. */
    public TurboStream target(String domId) {
        this.target = domId;
        return this;
    }

    /** A CSS selector: the action applies to every element it matches. */
    public TurboStream targets(String cssSelector) {
        this.targets = cssSelector;
        return this;
    }

    /** Turbo 8's {@code method} attribute: {@code "morph"} makes {@code replace}, {@code update} and {@code refresh} morph. */
    public TurboStream method(String method) {
        return attribute("method", method);
    }

    /** The markup inside {@code <template>}; inserted as it is. */
    public TurboStream template(String html) {
        this.template = html;
        return this;
    }

    /**
     * Any further attribute (for example {@code scroll="preserve"} on a refresh, or a custom action's own). A null
     * value removes it. {@code action}, {@code target} and {@code targets} have their own methods.
     */
    public TurboStream attribute(String name, String value) {
        if (name == null || !ATTRIBUTE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Not an HTML attribute name: " + name);
        }
        if (RESERVED.contains(name)) {
            throw new IllegalArgumentException("Set " + name + " with its own method, not attribute()");
        }
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
        return this;
    }

    /** The {@code <turbo-stream>} element. */
    public String toHtml() {
        if (target != null && targets != null) {
            throw new IllegalArgumentException("Turbo stream action '" + action
                    + "' has both target and targets; give one (a DOM id or a CSS selector)");
        }
        if (target == null && targets == null && !REFRESH.equals(action)) {
            throw new IllegalArgumentException("Turbo stream action '" + action
                    + "' needs a target (a DOM id) or targets (a CSS selector); only refresh has none");
        }
        StringBuilder html = new StringBuilder("<turbo-stream action=\"").append(TurboStreams.escape(action)).append('"');
        if (target != null) {
            html.append(" target=\"").append(TurboStreams.escape(target)).append('"');
        }
        if (targets != null) {
            html.append(" targets=\"").append(TurboStreams.escape(targets)).append('"');
        }
        attributes.forEach((name, value) -> html.append(' ').append(name).append("=\"")
                .append(TurboStreams.escape(value)).append('"'));
        html.append('>');
        if (!WITHOUT_TEMPLATE.contains(action)) {
            html.append("<template>").append(template == null ? "" : template).append("</template>");
        }
        return html.append("</turbo-stream>").toString();
    }

    @Override
    public String toString() {
        return toHtml();
    }
}

package io.quarkiverse.cable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Rendering of {@code <turbo-stream>} elements: every Turbo 8 action and attribute turbo-rails' broadcasts produce. */
class TurboStreamTest {

    @Test
    void elementActionsCarryATargetAndATemplate() {
        for (String action : new String[] { "append", "prepend", "replace", "update", "before", "after", "morph" }) {
            assertThat(TurboStream.action(action).target("messages").template("<p>hi</p>").toHtml())
                    .isEqualTo("<turbo-stream action=\"" + action
                            + "\" target=\"messages\"><template><p>hi</p></template></turbo-stream>");
        }
    }

    @Test
    void removeHasNoTemplate() {
        assertThat(TurboStream.action("remove").target("message_1").toHtml())
                .isEqualTo("<turbo-stream action=\"remove\" target=\"message_1\"></turbo-stream>");
        assertThat(TurboStreams.streamTag("remove", "message_1", null))
                .isEqualTo("<turbo-stream action=\"remove\" target=\"message_1\"></turbo-stream>");
    }

    @Test
    void targetsTakesACssSelector() {
        assertThat(TurboStream.action("append").targets(".list > ul[data-x=\"1\"]").template("<li>x</li>").toHtml())
                .isEqualTo("<turbo-stream action=\"append\" targets=\".list &gt; ul[data-x=&quot;1&quot;]\">"
                        + "<template><li>x</li></template></turbo-stream>");
    }

    @Test
    void morphMethod() {
        assertThat(TurboStream.action("replace").target("card").method("morph").template("<div id=\"card\">2</div>")
                .toHtml())
                .isEqualTo("<turbo-stream action=\"replace\" target=\"card\" method=\"morph\">"
                        + "<template><div id=\"card\">2</div></template></turbo-stream>");
    }

    @Test
    void refreshHasNoTargetNoTemplateAndAnOptionalRequestId() {
        assertThat(TurboStream.refresh(null).toHtml()).isEqualTo("<turbo-stream action=\"refresh\"></turbo-stream>");
        assertThat(TurboStream.refresh("").toHtml()).isEqualTo("<turbo-stream action=\"refresh\"></turbo-stream>");
        assertThat(TurboStream.refresh("4f1c-\"x\"").toHtml())
                .isEqualTo("<turbo-stream action=\"refresh\" request-id=\"4f1c-&quot;x&quot;\"></turbo-stream>");
        assertThat(TurboStream.refresh("r1").method("morph").attribute("scroll", "preserve").toHtml())
                .isEqualTo("<turbo-stream action=\"refresh\" request-id=\"r1\" method=\"morph\" scroll=\"preserve\">"
                        + "</turbo-stream>");
        assertThat(TurboStreams.streamTag("refresh", null, null)).isEqualTo("<turbo-stream action=\"refresh\"></turbo-stream>");
    }

    @Test
    void attributesAreEscapedTheTemplateIsNot() {
        assertThat(TurboStream.action("update").target("a\"><script>").template("<b>&amp;</b>").toHtml())
                .isEqualTo("<turbo-stream action=\"update\" target=\"a&quot;&gt;&lt;script&gt;\">"
                        + "<template><b>&amp;</b></template></turbo-stream>");
        assertThat(TurboStreams.escape("<a href='x'>&\"</a>")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
    }

    @Test
    void aMissingTargetIsAClearErrorNotANullPointer() {
        assertThatThrownBy(() -> TurboStreams.streamTag("append", null, "<p>x</p>"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a target");
        assertThatThrownBy(() -> TurboStream.action("replace").template("x").toHtml())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target (a DOM id) or targets");
        assertThatThrownBy(() -> TurboStream.action("replace").target("a").targets(".b").toHtml())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("both target and targets");
        assertThatThrownBy(() -> TurboStream.action(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TurboStream.action(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void attributeNamesAreChecked() {
        assertThatThrownBy(() -> TurboStream.refresh(null).attribute("on click", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Not an HTML attribute name");
        assertThatThrownBy(() -> TurboStream.refresh(null).attribute("target", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("its own method");
        assertThat(TurboStream.refresh(null).attribute("data-x", "1").attribute("data-x", null).toHtml())
                .isEqualTo("<turbo-stream action=\"refresh\"></turbo-stream>");
    }

    @Test
    void streamNamesJoinStreamablesAndRefuseNulls() {
        assertThat(TurboStreams.streamName("rooms", "1", "messages")).isEqualTo("rooms:1:messages");
        assertThatThrownBy(TurboStreams::streamName).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TurboStreams.streamName("rooms", null)).isInstanceOf(IllegalArgumentException.class);
    }
}

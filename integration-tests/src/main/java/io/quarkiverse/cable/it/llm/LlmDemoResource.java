package io.quarkiverse.cable.it.llm;

import java.util.List;
import java.util.regex.Pattern;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.jboss.logging.Logger;

import io.quarkiverse.cable.Cable;
import io.vertx.core.json.JsonObject;

/**
 * The recoverable-streams demo (llm.html): {@code POST /llm-demo/answers/<id>} streams a generated answer token by
 * token to {@code llm:<id>}, one broadcast per token ({@code {"i":n,"t":"token"}}, then {@code {"i":n,"done":true}}),
 * each committed before the next, {@code delay} milliseconds apart; {@code GET /llm-demo/answers/<id>} is the whole
 * text, to compare with what the page shows.
 */
@Path("/llm-demo/answers")
public class LlmDemoResource {

    private static final Logger LOG = Logger.getLogger(LlmDemoResource.class);
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9-]{1,64}");
    static final int DEFAULT_TOKENS = 600;
    private static final int MAX_TOKENS = 5_000;

    @Inject
    Cable cable;

    static boolean validId(String id) {
        return ID.matcher(id).matches();
    }

    static String channel(String id) {
        return "llm:" + id;
    }

    @POST
    @Path("/{id}")
    @Produces(MediaType.TEXT_PLAIN)
    public String start(@PathParam("id") String id, @QueryParam("tokens") Integer tokens,
            @QueryParam("delay") Integer delay) {
        int count = tokens == null ? DEFAULT_TOKENS : tokens;
        int pause = delay == null ? 20 : delay;
        if (!validId(id) || count < 1 || count > MAX_TOKENS || pause < 0 || pause > 1_000) {
            throw new BadRequestException("id [A-Za-z0-9-]{1,64}, tokens 1.." + MAX_TOKENS + ", delay 0..1000 ms");
        }
        List<String> answer = LlmAnswer.tokens(id, count);
        // A model produces tokens at its own pace, whoever is listening: the generation runs on its own thread.
        Thread.ofVirtual().name("llm-demo-" + id).start(() -> generate(id, answer, pause));
        return Integer.toString(answer.size());
    }

    @GET
    @Path("/{id}")
    @Produces(MediaType.TEXT_PLAIN)
    public String text(@PathParam("id") String id, @QueryParam("tokens") Integer tokens) {
        if (!validId(id)) {
            throw new BadRequestException("id [A-Za-z0-9-]{1,64}");
        }
        return LlmAnswer.text(id, tokens == null ? DEFAULT_TOKENS : Math.min(Math.max(tokens, 1), MAX_TOKENS));
    }

    private void generate(String id, List<String> answer, int pause) {
        try {
            for (int i = 0; i < answer.size(); i++) {
                send(id, new JsonObject().put("i", i).put("t", answer.get(i)));
                Thread.sleep(pause);
            }
            send(id, new JsonObject().put("i", answer.size()).put("done", true));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warnf(e, "The demo answer %s stopped", id);
        }
    }

    private void send(String id, JsonObject token) {
        // Waiting for each commit keeps the tokens in the order they were generated.
        cable.broadcast(channel(id), token.encode()).toCompletableFuture().join();
    }
}

package io.quarkiverse.cable.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP publish endpoint's throughput: {@code threads} publishers, each POSTing {@code requests} bodies of
 * {@code batch} broadcasts (one object when 1, a JSON array otherwise, as the anycable gem sends them) to
 * {@code /_broadcast} over one keep-alive HTTP/1.1 client, each waiting for its {@code 201} (the broadcasts are then
 * committed) before the next. Prints one JSON line: broadcasts per second, requests per second, failures.
 * <p>
 * Arguments: url secret threads requests batch [warmupRequests]
 */
public final class HttpBroadcastMain {

    private HttpBroadcastMain() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        String secret = args[1];
        int threads = Integer.parseInt(args[2]);
        int requests = Integer.parseInt(args[3]);
        int batch = Integer.parseInt(args[4]);
        int warmup = args.length > 5 ? Integer.parseInt(args[5]) : requests / 10;
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        run(client, url, secret, threads, warmup, batch, new AtomicLong());
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        run(client, url, secret, threads, requests, batch, failed);
        double seconds = (System.nanoTime() - start) / 1e9;
        long broadcasts = (long) threads * requests * batch;
        System.out.printf(java.util.Locale.ROOT,
                "{\"threads\":%d,\"batch\":%d,\"requests\":%d,\"broadcasts\":%d,\"seconds\":%.3f,"
                        + "\"perSecond\":%.1f,\"requestsPerSecond\":%.1f,\"failed\":%d}%n",
                threads, batch, threads * requests, broadcasts, seconds, broadcasts / seconds,
                threads * requests / seconds, failed.get());
    }

    private static void run(HttpClient client, URI url, String secret, int threads, int requests, int batch,
            AtomicLong failed) throws InterruptedException {
        List<Thread> publishers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int publisher = t;
            publishers.add(Thread.ofPlatform().start(() -> {
                for (int r = 0; r < requests; r++) {
                    String body = body("bench:http:" + publisher, r, batch);
                    try {
                        HttpResponse<Void> response = client.send(HttpRequest.newBuilder(url)
                                .timeout(Duration.ofSeconds(60))
                                .header("Content-Type", "application/json")
                                .header("Authorization", "Bearer " + secret)
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.discarding());
                        if (response.statusCode() != 201) {
                            failed.addAndGet(batch);
                        }
                    } catch (Exception e) {
                        failed.addAndGet(batch);
                    }
                }
            }));
        }
        for (Thread publisher : publishers) {
            publisher.join();
        }
    }

    /** What the gem posts: data is the message as JSON text; a batch is an array of the same objects. */
    private static String body(String stream, int request, int batch) {
        StringBuilder body = new StringBuilder(batch * 64);
        if (batch > 1) {
            body.append('[');
        }
        for (int i = 0; i < batch; i++) {
            if (i > 0) {
                body.append(',');
            }
            body.append("{\"stream\":\"").append(stream).append("\",\"data\":\"{\\\"seq\\\":")
                    .append((long) request * batch + i).append(",\\\"text\\\":\\\"hello from http\\\"}\"}");
        }
        if (batch > 1) {
            body.append(']');
        }
        return body.toString();
    }
}

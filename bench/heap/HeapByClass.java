import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a held Action Cable connection keeps on the server's heap, by class: a live-object class histogram of the
 * server ({@code jmap -histo:live}, which collects first) before and while this program holds {@code count}
 * connections, each subscribed to one FanoutChannel stream of the bench server, and the difference per connection;
 * and the difference of two such measurements (before and after a change), class by class. Beside it, the kernel's
 * TCP memory ({@code /proc/net/sockstat}) before and while holding: both ends of every connection are on this
 * machine, so it counts the client's sockets too. Past {@link #PER_SOURCE} connections the program opens them from
 * further loopback addresses (127.0.0.2, 127.0.0.3, ...): one source address has about 28,000 ephemeral ports
 * towards one server port. The heap figure of the
 * connections case says how much; this says what. Run by {@code bench/run-heap-by-class.sh}.
 *
 * <pre>
 * java bench/heap/HeapByClass.java hold &lt;server pid&gt; ws://127.0.0.1:&lt;port&gt;/cable &lt;count&gt; &lt;rows&gt; &lt;out.tsv&gt;
 * java bench/heap/HeapByClass.java compare &lt;before.tsv&gt; &lt;after.tsv&gt; &lt;rows&gt;
 * </pre>
 */
public class HeapByClass {

    private static final Pattern ROW = Pattern.compile("\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*");
    private static final String IDENTIFIER = "{\"channel\":\"FanoutChannel\",\"stream\":\"held\"}";
    /** Connections opened from one loopback source address (its ephemeral port range holds 28,232). */
    static final int PER_SOURCE = 25_000;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("compare")) {
            Map<String, double[]> before = read(Path.of(args[1]));
            Map<String, double[]> after = read(Path.of(args[2]));
            Map<String, double[]> change = new HashMap<>();
            for (String type : union(before.keySet(), after.keySet())) {
                double[] was = before.getOrDefault(type, new double[2]);
                double[] is = after.getOrDefault(type, new double[2]);
                change.put(type, new double[] { is[0] - was[0], is[1] - was[1] });
            }
            print("after - before, per held connection", change, Integer.parseInt(args[3]));
            return;
        }
        long pid = Long.parseLong(args[1]);
        URI cable = URI.create(args[2]);
        int count = Integer.parseInt(args[3]);
        Map<String, long[]> idle = histogram(pid);
        long tcpPagesIdle = tcpMemoryPages();
        List<WebSocket> held = hold(cable, count);
        Map<String, long[]> holding = histogram(pid);
        long tcpPagesHolding = tcpMemoryPages();
        Map<String, double[]> growth = new HashMap<>();
        for (String type : union(idle.keySet(), holding.keySet())) {
            long[] before = idle.getOrDefault(type, new long[2]);
            long[] after = holding.getOrDefault(type, new long[2]);
            growth.put(type, new double[] { (after[0] - before[0]) / (double) count,
                    (after[1] - before[1]) / (double) count });
        }
        print("held " + count + " connections, per connection", growth, Integer.parseInt(args[4]));
        if (tcpPagesIdle >= 0 && tcpPagesHolding >= 0) {
            System.out.printf(Locale.ROOT, "%nkernel TCP memory (both ends): %d -> %d pages, %.0f bytes per connection%n",
                    tcpPagesIdle, tcpPagesHolding, (tcpPagesHolding - tcpPagesIdle) * 4096.0 / count);
        }
        write(Path.of(args[5]), growth);
        for (WebSocket socket : held) {
            socket.abort();
        }
    }

    /** Opens {@code count} connections, at most 200 still subscribing at a time, and waits for every confirmation. */
    private static List<WebSocket> hold(URI cable, int count) throws Exception {
        String subscribe = "{\"command\":\"subscribe\",\"identifier\":" + quoted(IDENTIFIER) + "}";
        CountDownLatch confirmed = new CountDownLatch(count);
        Semaphore subscribing = new Semaphore(200);
        List<HttpClient> clients = new ArrayList<>();
        for (int source = 0; source * PER_SOURCE < count; source++) {
            clients.add(HttpClient.newBuilder().localAddress(InetAddress.getByName("127.0.0." + (source + 1))).build());
        }
        List<WebSocket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            HttpClient client = clients.get(i / PER_SOURCE);
            subscribing.acquire();
            WebSocket.Listener listener = new WebSocket.Listener() {
                private boolean done;

                @Override
                public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                    String text = data.toString();
                    if (text.contains("\"welcome\"")) {
                        socket.sendText(subscribe, true);
                    } else if (text.contains("confirm_subscription") && !done) {
                        done = true;
                        confirmed.countDown();
                        subscribing.release();
                    }
                    socket.request(1);
                    return null;
                }
            };
            sockets.add(client.newWebSocketBuilder().subprotocols("actioncable-v1-json").buildAsync(cable, listener)
                    .get(60, TimeUnit.SECONDS));
        }
        if (!confirmed.await(300, TimeUnit.SECONDS)) {
            throw new IllegalStateException(confirmed.getCount() + " of " + count + " subscriptions not confirmed");
        }
        return sockets;
    }

    /** The kernel's TCP memory in pages ({@code mem} of /proc/net/sockstat's TCP line), or -1 where there is none. */
    private static long tcpMemoryPages() throws IOException {
        Path sockstat = Path.of("/proc/net/sockstat");
        if (!Files.exists(sockstat)) {
            return -1;
        }
        for (String line : Files.readAllLines(sockstat)) {
            if (line.startsWith("TCP:")) {
                String[] fields = line.trim().split("\\s+");
                for (int i = 1; i + 1 < fields.length; i++) {
                    if (fields[i].equals("mem")) {
                        return Long.parseLong(fields[i + 1]);
                    }
                }
            }
        }
        return -1;
    }

    /** Class name to {instances, bytes} of the live objects, after the full collection jmap asks for. */
    private static Map<String, long[]> histogram(long pid) throws IOException, InterruptedException {
        Process jmap = new ProcessBuilder(System.getProperty("java.home") + "/bin/jmap", "-histo:live",
                Long.toString(pid)).redirectErrorStream(true).start();
        String output = new String(jmap.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (jmap.waitFor() != 0) {
            throw new IllegalStateException("jmap failed: " + output);
        }
        Map<String, long[]> classes = new HashMap<>();
        for (String line : output.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                long[] counts = classes.computeIfAbsent(ofLambdas(row.group(3)), type -> new long[2]);
                counts[0] += Long.parseLong(row.group(1));
                counts[1] += Long.parseLong(row.group(2));
            }
        }
        return classes;
    }

    /** The total and the {@code rows} classes that changed most, as a Markdown table. */
    private static void print(String title, Map<String, double[]> perClass, int rows) {
        List<Map.Entry<String, double[]>> sorted = new ArrayList<>(perClass.entrySet());
        sorted.sort((a, b) -> Double.compare(Math.abs(b.getValue()[1]), Math.abs(a.getValue()[1])));
        double total = perClass.values().stream().mapToDouble(v -> v[1]).sum();
        System.out.printf("%s: %.0f bytes of live heap%n%n", title, total);
        System.out.println("| bytes | instances | class |");
        System.out.println("|---:|---:|---|");
        for (Map.Entry<String, double[]> row : sorted.subList(0, Math.min(rows, sorted.size()))) {
            System.out.printf(Locale.ROOT, "| %.0f | %.2f | `%s` |%n", row.getValue()[1], row.getValue()[0], row.getKey());
        }
    }

    private static void write(Path file, Map<String, double[]> perClass) throws IOException {
        StringBuilder tsv = new StringBuilder();
        perClass.forEach((type, v) -> tsv.append(type).append('\t').append(v[0]).append('\t').append(v[1]).append('\n'));
        Files.writeString(file, tsv);
    }

    private static Map<String, double[]> read(Path file) throws IOException {
        Map<String, double[]> perClass = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] cells = line.split("\t");
            double[] counts = perClass.computeIfAbsent(ofLambdas(cells[0]), type -> new double[2]);
            counts[0] += Double.parseDouble(cells[1]);
            counts[1] += Double.parseDouble(cells[2]);
        }
        return perClass;
    }

    /**
     * A lambda's class name without the address of its hidden class ({@code Outer$$Lambda/0x...}), which differs from
     * one JVM to the next: the lambdas of a class count together, so two runs compare.
     */
    private static String ofLambdas(String type) {
        int address = type.indexOf("$$Lambda/");
        return address < 0 ? type : type.substring(0, address + "$$Lambda".length());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.addAll(b);
        return both;
    }

    private static String quoted(String json) {
        return "\"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}

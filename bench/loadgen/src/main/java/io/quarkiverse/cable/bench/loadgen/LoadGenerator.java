package io.quarkiverse.cable.bench.loadgen;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Entry point: {@code run} drives one scenario against one server and writes its run file; {@code report} turns a
 * directory of run files into tables and charts; {@code recovery-storm} runs the reconnect storm of recoverable
 * streams ({@link RecoveryStorm}). Exit codes: 0 done (failures counted in the run file are for the
 * report to judge), 2 usage error, 3 server unreachable before the run, 4 {@code report --check} found a run with
 * failures, 5 {@code recovery-storm} found a client that did not recover exactly, 1 I/O error.
 */
public final class LoadGenerator {

    private static final String USAGE = """
            usage:
              run --url ws://127.0.0.1:8090/cable --backend <label> --scenario steady|storm|churn|fanout --users N
                  --out <file.json> [--time 90] [--num 5] [--payload-bytes 64] [--receive-timeout-ms 60000]
                  [--handshake-timeout-s 60] [--min-sleep-ms 500] [--max-sleep-ms 1000] [--churn-users users/5]
                  [--churn-time time] [--storm-rounds 5] [--storm-sleep-ms 100]
                  [--storm-max-duration-s max(15, time/3, handshake+5)] [--fanout-rate 10] [--fanout-time time]
                  [--fanout-warmup 15] [--fanout-drain 10] [--graceful-stop-s 30] [--test-id backend]
                  [--fanout-stream <test-id>-fanout]
                  [--publish-url ws://...]   (two nodes: subscribers on --url, steady pings and the fan-out
                                              publisher on this one)
                  [--paired true]   (steady on one node: ping through a second connection, as across nodes)
                  [--heap-url http://.../bench/heap]   (fanout: the server's heap per held connection)
              report --in <dir of run files> --out <dir> [--title "..."] [--machine "..."] [--baseline redis]
                  [--check true]   (exit 4 when any run counted a failure, gap, duplicate or reordering)
            """ + RecoveryStorm.USAGE + PresenceStorm.USAGE + """
                  (exit 5 when a client failed or saw a gap, duplicate, reordering or wrong history answer)
            """;

    private LoadGenerator() {
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String[] args) {
        try {
            if (args.length == 0) {
                throw new UsageException("a command is required");
            }
            Arguments arguments = new Arguments(args, 1);
            switch (args[0]) {
                case "run" -> run(RunOptions.parse(arguments));
                case "report" -> {
                    if (!Report.parse(arguments).write()) {
                        return 4;
                    }
                }
                case "presence-storm" -> {
                    if (!PresenceStorm.parse(arguments).execute()) {
                        return 5;
                    }
                }
                case "recovery-storm" -> {
                    if (!RecoveryStorm.parse(arguments).execute()) {
                        return 5;
                    }
                }
                default -> throw new UsageException("unknown command '" + args[0] + "'");
            }
            return 0;
        } catch (UsageException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            return 2;
        } catch (LoadRun.ServerUnreachable e) {
            System.err.println("error: the server did not answer the first connection: " + e.getMessage());
            return 3;
        } catch (IOException e) {
            System.err.println("error: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static void run(RunOptions options) throws LoadRun.ServerUnreachable, InterruptedException, IOException {
        RunResult result = new LoadRun(options).execute();
        Path out = options.out();
        result.write(out);
        System.out.println(result.describe());
        System.out.println("run file: " + out.toAbsolutePath());
    }
}

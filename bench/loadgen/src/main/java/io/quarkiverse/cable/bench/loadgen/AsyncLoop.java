package io.quarkiverse.cable.bench.loadgen;

import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

/**
 * Sequential asynchronous loops, the non-blocking form of the k6 script's {@code for} and {@code while}. Each step
 * starts from a fresh event-loop task rather than from the previous step's callback, so neither the stack nor a chain
 * of nested futures grows with the number of steps (a fan-out subscriber takes thousands).
 */
final class AsyncLoop {

    private AsyncLoop() {
    }

    /** Runs {@code step} until it yields true; the first failed step fails the loop. */
    static Future<Void> until(Context context, Supplier<Future<Boolean>> step) {
        Promise<Void> done = Promise.promise();
        next(context, step, done);
        return done.future();
    }

    /** Runs {@code step(0) .. step(count-1)} one after another. */
    static Future<Void> times(Context context, int count, IntFunction<Future<Void>> step) {
        int[] index = { 0 };
        return until(context, () -> index[0] == count ? Future.succeededFuture(true)
                : step.apply(index[0]++).map(false));
    }

    private static void next(Context context, Supplier<Future<Boolean>> step, Promise<Void> done) {
        Future<Boolean> result;
        try {
            result = step.get();
        } catch (RuntimeException e) {
            done.fail(e);
            return;
        }
        result.onComplete(outcome -> {
            if (outcome.failed()) {
                done.fail(outcome.cause());
            } else if (outcome.result()) {
                done.complete();
            } else {
                context.runOnContext(ignored -> next(context, step, done));
            }
        });
    }
}

package io.quarkiverse.cable.runtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class SerialExecutorTest {

    private static final long WAIT_SECONDS = 60;

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable failure) throws T {
        throw (T) failure;
    }

    @Test
    void aCheckedExceptionThrownSneakilyDoesNotStopTheTasksAfterIt() throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        SerialExecutor executor = new SerialExecutor("test-serial", failures::add);
        CountDownLatch next = new CountDownLatch(1);
        executor.execute(() -> sneakyThrow(new java.io.IOException("sneaky")));
        executor.execute(next::countDown);
        assertThat(next.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the task after the failing one ran").isTrue();
        assertThat(failures).singleElement().isInstanceOf(java.io.IOException.class);
    }

    @Test
    void aFailureReportThatThrowsDoesNotStopTheTasksAfterIt() throws Exception {
        SerialExecutor executor = new SerialExecutor("test-serial", failure -> {
            throw new IllegalStateException("the report failed");
        });
        CountDownLatch next = new CountDownLatch(1);
        executor.execute(() -> {
            throw new AssertionError("task failed");
        });
        executor.execute(next::countDown);
        assertThat(next.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the task after the failing one ran").isTrue();
    }

    @Test
    void tasksRunInOrderOneAtATimeOnAVirtualThread() throws Exception {
        SerialExecutor executor = new SerialExecutor("test-serial", failure -> {
        });
        List<Integer> seen = new CopyOnWriteArrayList<>();
        List<Boolean> virtual = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        int[] running = new int[1];
        List<Integer> overlaps = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            int n = i;
            executor.execute(() -> {
                if (++running[0] != 1) {
                    overlaps.add(n);
                }
                seen.add(n);
                virtual.add(Thread.currentThread().isVirtual());
                running[0]--;
            });
        }
        executor.execute(done::countDown);
        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(overlaps).isEmpty();
        assertThat(seen).hasSize(10_000).isSorted();
        assertThat(virtual).containsOnly(true);
    }
}

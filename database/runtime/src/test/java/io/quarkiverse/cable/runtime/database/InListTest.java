package io.quarkiverse.cable.runtime.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** IN-list sizing: a handful of statement shapes serve every list length up to the limit. */
class InListTest {

    @Test
    void aListIsRoundedUpToThePowerOfTwoThatHoldsIt() {
        assertThat(InList.bucket(1)).isEqualTo(1);
        assertThat(InList.bucket(2)).isEqualTo(2);
        assertThat(InList.bucket(3)).isEqualTo(4);
        assertThat(InList.bucket(5)).isEqualTo(8);
        assertThat(InList.bucket(128)).isEqualTo(128);
        assertThat(InList.bucket(129)).isEqualTo(256);
        assertThat(InList.bucket(InList.MAX)).isEqualTo(InList.MAX);
    }

    @Test
    void everyLengthUpToTheLimitFitsOneOfNineShapes() {
        Set<Integer> shapes = new HashSet<>();
        for (int count = 1; count <= InList.MAX; count++) {
            int bucket = InList.bucket(count);
            assertThat(bucket).as("bucket of %d", count).isGreaterThanOrEqualTo(count).isLessThan(2 * count);
            assertThat(Integer.bitCount(bucket)).as("bucket of %d is a power of two", count).isEqualTo(1);
            shapes.add(bucket);
        }
        assertThat(shapes).containsExactlyInAnyOrder(1, 2, 4, 8, 16, 32, 64, 128, 256);
    }

    @Test
    void emptyAndOversizedListsAreRefused() {
        assertThatThrownBy(() -> InList.bucket(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InList.bucket(InList.MAX + 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("IN list of 257 values");
    }

    @Test
    void placeholdersMatchTheBucket() {
        assertThat(InList.placeholders(1)).isEqualTo("?");
        assertThat(InList.placeholders(4)).isEqualTo("?, ?, ?, ?");
        assertThat(new PostgreSqlDialect().pollChannels(InList.bucket(3))).contains("channel_hash IN (?, ?, ?, ?)");
    }
}

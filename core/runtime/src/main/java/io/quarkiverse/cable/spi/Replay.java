package io.quarkiverse.cable.spi;

import java.util.List;

import io.quarkiverse.cable.CableMessage;
import io.quarkiverse.cable.StreamPosition;

/**
 * A complete history step: the messages to replay, in position order, and the channel's position at the
 * subscription's starting line (where live delivery continues), or null when the channel has no stored history yet.
 */
public record Replay(List<CableMessage> messages, StreamPosition position) {
}

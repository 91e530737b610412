package io.quarkiverse.cable.runtime.store;

import io.quarkiverse.cable.CableMessage;

/** A message read by the poller, with the hash its subscribers are looked up by. */
public record PolledMessage(long channelHash, CableMessage message) {
}

/**
 * The transport SPI: what the cable's core and a storage adapter agree on (the database and memory adapters implement
 * it). It names no storage technology: an adapter wraps its own failures in {@link io.quarkiverse.cable.spi.StoreException}.
 * Experimental: it may change in any release until a second real adapter, outside this project, stands on it.
 */
@Experimental("the transport SPI may change until a second real adapter stands on it")
package io.quarkiverse.cable.spi;

import io.smallrye.common.annotation.Experimental;

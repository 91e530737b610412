package io.quarkiverse.cable.runtime.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Intervals, sizes and limits: the only place their defaults are written. Validated once, by {@link CableConfigCheck},
 * when the cable is built; each component reads what it needs into fields when it is created, never on a hot path.
 */
@ConfigMapping(prefix = "quarkus.cable")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface CableRuntimeConfig {

    /**
     * The largest payload a broadcast may carry. Larger broadcasts fail with `CableException.InvalidMessage`.
     * The tables hold payloads of at least 16 MiB; MariaDB and MySQL also need a `max_allowed_packet` above it.
     * The SQL broadcast `cable_broadcast` enforces it too: the value is written into the routine when the schema is
     * installed, and a changed value makes `update` reinstall it (`validate` lists the statements).
     */
    @WithDefault("1M")
    MemorySize maxPayloadSize();

    /**
     * The longest channel name, in characters. Longer names fail the broadcast or the subscription.
     * The SQL broadcast `cable_broadcast` enforces it too, written into the routine when the schema is installed.
     */
    @WithDefault("1024")
    int maxChannelLength();

    /**
     * How many delivered messages an in-JVM subscription may have waiting for its listener. A listener that falls
     * further behind is unsubscribed with `CableException.SlowConsumer`, so one slow listener cannot grow the heap.
     */
    @WithDefault("10000")
    int subscriberBuffer();

    /**
     * Writer settings.
     */
    Writer writer();

    /**
     * How long messages are kept before trimming may delete them.
     */
    @WithDefault("1d")
    Duration messageRetention();

    /**
     * Recovery settings: how a subscriber that reconnects gets what it missed (see the Recoverable streams page).
     */
    History history();

    interface History {
        /**
         * How long messages stay available for recovery, for every channel. Trimming never deletes a message
         * younger than this: when it is longer than `message-retention`, trimming keeps messages this long instead.
         * The memory adapter drops messages older than this from its history. Unset means `message-retention`.
         */
        @ConfigDocDefault("message-retention")
        Optional<Duration> window();

        /**
         * The most messages one recovery replays. A subscriber that missed more gets the whole history refused
         * (`reject_history`, or `CableException.HistoryUnavailable` with reason `TOO_LARGE`) and nothing partial.
         */
        @WithDefault("1000")
        int maxReplay();

        /**
         * How many of each channel's newest messages the memory adapter keeps for recovery. The database adapter
         * keeps every message for the window instead.
         */
        @WithDefault("100")
        int memorySize();

        /**
         * How many history reads this node runs against the database at once: each holds one pooled connection
         * while it reads, so this is the replays' share of the datasource's pool, and the writer, the poller, the
         * trimmer and the doorbell always find theirs. Keep it at most the pool's `max-size` minus 4 (a larger
         * value is lowered to that at startup, with a warning). Identical concurrent reads (same channel, same
         * position, same starting line: a reconnect storm of one channel) are served by one read and need no
         * further share.
         */
        @WithDefault("4")
        int maxConcurrentReplays();

        /**
         * How many history reads may wait for a share of the pool. A recovery that finds this many waiting is
         * refused at once with reason `busy` (`reject_history`; an SSE `cable-history-lost` event with data `busy`;
         * `CableException.HistoryUnavailable` with reason `BUSY`), and its subscription stays live.
         */
        @WithDefault("1000")
        int maxQueuedReplays();

        /**
         * How long a history read waits for a share of the pool before it is refused with reason `busy`.
         */
        @WithDefault("5s")
        Duration queueTimeout();

        /**
         * How many history steps one Action Cable connection may have in flight (reading or waiting). More are
         * refused with `reject_history` (reason `connection_limit`), so one connection cannot occupy the queue.
         */
        @WithDefault("32")
        int maxReplaysPerConnection();

        /**
         * The most bytes of replayed messages (payload plus 64 bytes each) this node holds for its clients at once,
         * across every front end (SSE, Action Cable, the extended protocol): taken when a client's replay has been
         * read, given back as its messages are handed to the client's socket, or when its stream ends. A client's
         * replay that finds the budget full is refused with reason `busy`, before its read when the budget is full
         * already (`reject_history` on the extended protocol, a `cable-history-lost` event with data `busy` on SSE;
         * the subscription stays live) and counted in `cable.history.replays.over.budget`. A single replay larger than the
         * budget is served when it is the only
         * one holding bytes. The Java API's recovering subscriptions do not draw on it.
         */
        @WithDefault("64M")
        MemorySize maxReplayBytesInFlight();

        /**
         * The most client replays in flight on this node at once (from the start of their read to the end of their
         * writing), however small, across every front end; more are refused with reason `busy` as for
         * `max-replay-bytes-in-flight`. Above `max-queued-replays` by default, so a reconnect storm of a thousand
         * clients each missing a few messages is served whole.
         */
        @WithDefault("2048")
        int maxReplaysInFlight();

        /**
         * How many messages one history query reads: a replay of `max-replay` messages is read in pages of this size
         * (keyset on the stream position), so no single query holds a large result.
         */
        @WithDefault("200")
        int pageSize();
    }

    /**
     * WebSocket streaming settings.
     */
    WebSocket websocket();

    interface WebSocket {
        /**
         * The most frames a WebSocket connection may have waiting to be written to the network. A connection that
         * exceeds it is closed with code 1008 and the reason `cable: client too slow`. A count of frames does not
         * bound memory (a frame may be large): `max-pending-bytes` does. Keep it well above `poll-batch-size`, since a
         * healthy client can receive a burst.
         */
        @WithDefault("10000")
        int maxPendingFrames();

        /**
         * The most bytes a WebSocket connection (Action Cable or `@StreamFrom` / `CableStreams`) may have waiting to be
         * written to the network: every frame handed to the socket and not yet written, at its encoded size (a
         * broadcast frame shared with other connections counts whole for each) plus 100 bytes of bookkeeping. A
         * frame that would take a connection over it closes the connection with code 1008 and the reason
         * `cable: client too slow`, counted as `cable.limits.refusals{reason="pending_bytes"}`; nothing is buffered
         * beyond it. One frame alone always goes, so the bound is this or one frame (at most `max-payload-size` plus
         * its envelope), whichever is larger. History replays are paced by it: a replay takes at most half of it
         * at a time. Like AnyCable's `ws_max_pending_size` (1 MiB there): 4 MiB by default here, so that a healthy
         * reader taking a burst (100 broadcasts of 16 KiB committed at once) is not mistaken for a slow one.
         */
        @WithDefault("4M")
        MemorySize maxPendingBytes();

        /**
         * How long a WebSocket connection with frames waiting may go without a single frame written before it is
         * closed as too slow (code 1008). A client that reads, even slowly, keeps completing writes; one that stopped
         * reading does not.
         */
        @WithDefault("10s")
        Duration stallTimeout();

        /**
         * How often the cable sends an RFC 6455 ping frame to each of its WebSocket connections (the Action Cable
         * endpoint's, `@StreamFrom` endpoints', and any connection that joined presence through `CableStreams`).
         * Browsers and every conforming client answer with a pong without any code of their own; see `pong-timeout`.
         */
        @WithDefault("5s")
        Duration pingInterval();

        /**
         * How long a WebSocket connection of the cable may stay silent (no pong, no frame at all) before it is closed
         * with code 1001 and the reason `cable: no pong`, counted as `cable.connections.unresponsive`: a client that
         * vanished without closing (a laptop lid, a network switch, a proxy that stopped forwarding) is noticed within
         * this plus one `ping-interval`, and its presence then leaves when `quarkus.cable.presence.ttl` ends. Must be
         * longer than `ping-interval`.
         */
        @WithDefault("15s")
        Duration pongTimeout();

        /**
         * The most RFC 6455 ping frames a client may send on one WebSocket connection of the cable (the Action Cable
         * endpoint's, `@StreamFrom` and `CableStreams` endpoints') in one second, and the most it may send while the
         * connection's writes are backed up (the socket's write queue full: the client is not reading). Vert.x answers
         * every ping with a pong on its own, outside `max-pending-bytes`, so a client that pings as fast as it can and
         * never reads would otherwise make the server queue pongs without bound. Past it the connection is closed with
         * 1008 and the reason `cable: too many pings`, its TCP connection at once (the close frame waits behind the
         * pongs it never reads), counted as `cable.limits.refusals{reason="ping_rate"}`. Browsers never send pings;
         * clients that do send one every few seconds. An endpoint with an `@OnPingMessage` of its own is left alone.
         */
        @WithDefault("10")
        int maxPingsPerSecond();

        /**
         * The most RFC 6455 pong frames a client may send on one WebSocket connection of the cable (the same endpoints
         * as `max-pings-per-second`) in one second. A pong makes the server write nothing, but each one is decoded and
         * handed to Vert.x and WebSockets Next on the connection's event loop, which other clients share: a client
         * sending pongs as fast as it can costs the node CPU for nothing. Counted apart from pings, so a client that
         * pings at its bound while answering the cable's pings (one pong per `ping-interval`) is never near either.
         * Past it the connection is closed with 1008 and the reason `cable: too many pongs`, its TCP connection at
         * once, counted as `cable.limits.refusals{reason="pong_rate"}`. Browsers send a pong only in answer to a ping.
         */
        @WithDefault("10")
        int maxPongsPerSecond();

        /**
         * How long a TCP connection to the HTTP server may stay silent before its first request's headers are read (a
         * WebSocket upgrade, or any request of the application), including a connection that sends nothing at all.
         * Without it, a client that opens connections and sends part of a request holds each for
         * `quarkus.http.idle-timeout` (30 minutes by default). It bounds the header phase only: once a request's
         * headers are read, the connection has the server's idle timeout again, so an idle WebSocket and a slow
         * request body are left alone. Silence, not the whole phase: a client trickling its headers within this stays
         * bound by the server's header size limit. Applies to the main HTTP and HTTPS servers (not the management
         * interface); over TLS the handshake has Vert.x's own bound first (10 s). `0` turns it off, as does a
         * `quarkus.http.idle-timeout` as short.
         */
        @WithDefault("10s")
        Duration upgradeTimeout();

        /**
         * Whether `@StreamFrom` streams write each broadcast as one shared UTF-8 buffer, encoded once for all the
         * connections that receive it, instead of WebSockets Next's `sendText`, which converts and copies the text
         * once per connection. The shared frames go to the socket under WebSockets Next, past its traffic logger and
         * its sent-message metrics: turn this off to see stream frames there. Frames over 64 KiB always go through
         * `sendText`. The Action Cable endpoint always shares its frames.
         */
        @WithDefault("true")
        boolean sharedFrames();
    }

    /**
     * Presence: the sets of who is in a channel, kept in the application's database (see the Identities page).
     */
    Presence presence();

    interface Presence {
        /**
         * How long a presence id stays in a channel's set after its session disconnected without leaving (a closed
         * tab, a lost network, a crashed node): a reconnect within it is invisible to the others, as in AnyCable
         * (`presence_ttl`). The ids of a node that died go after at most this long too: each node renews one lease
         * every half of it.
         */
        @WithDefault("15s")
        Duration ttl();

        /**
         * The most records a presence reply (`@anycable/web`'s `presence.info()`, `CablePresence.snapshot`) lists;
         * its `total` still counts every id. Bounds what one request makes the server read and send.
         */
        @WithDefault("1000")
        int maxRecords();

        /**
         * The largest presence info (as JSON) a client may join with. A larger join is refused with a presence
         * `error` frame; the subscription stays.
         */
        @WithDefault("1K")
        MemorySize maxInfoSize();

        /**
         * The presence answers (`presence.info()`: up to `max-records` records) one Action Cable connection may make
         * the server build and send, in bytes per second: a 100-byte command can ask for a megabyte, a hundred times a
         * second. An answer is admitted while the connection's budget is not overdrawn and then charged its size, so
         * a room larger than a second's budget still gets its answer and the next ones wait for the debt to be
         * repaid. The excess gets the presence `error` frame, counted as
         * `cable.limits.refusals{reason="presence_info_bytes"}`; the subscription stays.
         */
        @WithDefault("256K")
        MemorySize infoBytesPerSecond();

        /**
         * Whether identities are tracked across the cluster for `CableIdentityEvent.Online` and `.Offline` (each
         * fired once per cluster). Each identified Action Cable connection then joins a reserved presence set as its
         * identity when it is welcomed: one database transaction per connection opened, and one update when it
         * closes; nothing while it stays.
         */
        @WithDefault("false")
        boolean identityEvents();

        /**
         * Whether every join and leave is also a message of its channel's stream, `{"$presence":{"type":"join",
         * "id":"42","info":{...}}}` or `{"$presence":{"type":"leave","id":"42"}}`, written in the transaction that
         * changed the presence set: it gets a position between the channel's broadcasts, so a client that recovers
         * its history (extended protocol, SSE `Last-Event-ID`, `Cable.subscribe` from a position) gets the joins and
         * leaves it missed, in order with the messages, exactly once. Off by default: every subscriber of the stream
         * receives these messages, including those that do not track presence. The live presence frames are sent
         * either way.
         */
        @WithDefault("false")
        boolean inStream();

        /**
         * The presence changes (joins and leaves) a client may ask for on one Action Cable subscription (one connection
         * in one channel's presence set), per second on average, with bursts of five seconds' worth. Each change is a
         * database transaction, a presence frame to every member and, with `in-stream`, a message of the channel's
         * stream that takes a place in its replay window (`history.max-replay`): without a bound one connection's
         * join/leave churn pushes a room's real messages out of it in seconds. The excess gets the presence `error`
         * frame and changes nothing, counted as `cable.limits.refusals{reason="presence_rate"}`; the subscription
         * stays. A client joins once per subscription and leaves once: far below it. Per subscription, so that a page
         * joining many rooms at once is bounded by the command rate only. Joins through `CableStreams.joinPresence`
         * are bounded the same way per connection and channel (the excess fails with `CableException.QueueFull`, same
         * counter); their leaves are not, as a leave follows a join.
         */
        @WithDefault("2")
        int changesPerSecond();

        /**
         * The most presence changes (joins, leaves, info updates) of one presence id that may wait for the database
         * on a node. Beyond it a join or leave is refused at once (`QueueFull`; a presence `error` frame on Action
         * Cable), counted as `cable.limits.refusals{reason="presence_queue"}`: one identity opening and closing
         * connections in a loop (with `identity-events`, every connection joins) keeps no other user waiting. A
         * refused join stored nothing; a session's end is never refused.
         */
        @WithDefault("16")
        int maxPendingPerId();

        /**
         * The most presence operations (changes, `info` reads, session ends) that may wait for the database on a
         * node, every id together; beyond it changes and reads are refused as over `max-pending-per-id`. Each one
         * waiting holds a virtual thread and a few hundred bytes.
         */
        @WithDefault("10000")
        int maxPending();
    }

    /**
     * Turbo Streams settings.
     */
    Turbo turbo();

    /**
     * What one client may make the server hold or do, beyond the outbound bound (`websocket.max-pending-bytes`) and the
     * command size (`action-cable.max-command-size`). Every refusal is counted as `cable.limits.refusals` by `reason`
     * and logged at most once per second per reason; the Security page lists them with their answers.
     */
    Limits limits();

    interface Limits {
        /**
         * The longest subscription identifier an Action Cable client may use, in UTF-8 bytes. Every frame of a
         * subscription repeats its identifier, and the server keeps one frame encoder per identifier. A longer one is
         * answered `reject_subscription` (reason `identifier_size`). Turbo's signed stream names of channels of up
         * to `max-channel-length` characters fit the default.
         */
        @WithDefault("4K")
        MemorySize maxIdentifierSize();

        /**
         * The most subscriptions one Action Cable connection may hold (Centrifugo's default channel limit per client).
         * A subscribe beyond it is answered `reject_subscription` (reason `subscriptions`); the others go on.
         */
        @WithDefault("128")
        int maxSubscriptions();

        /**
         * The most commands of one Action Cable connection waiting to be handled, also while the connection is being
         * identified (commands sent before the welcome wait for it). Over it, the connection is told `disconnect`
         * with reason `too_many_pending_commands` (reconnect allowed) and closed with code 1013 (try again later),
         * reason `command_queue`.
         */
        @WithDefault("256")
        int maxQueuedCommands();

        /**
         * The most bytes of one Action Cable connection's commands waiting to be handled (see `max-queued-commands`,
         * same answer).
         */
        @WithDefault("1M")
        MemorySize maxQueuedCommandBytes();

        /**
         * How many commands per second one Action Cable connection may send, on average (a token bucket refilled at
         * this rate). Over it, the connection is told `disconnect` with reason `too_many_commands` (no reconnect) and
         * closed with code 1008, reason `command_rate`.
         */
        @WithDefault("100")
        int commandRate();

        /**
         * How many commands one Action Cable connection may send at once above `command-rate` (the bucket's size): a
         * page that subscribes to many channels on load sends them together.
         */
        @WithDefault("200")
        int commandBurst();

        /**
         * How many whispers per second one Action Cable connection may send, on average (a token bucket refilled at
         * this rate). A whisper over it is dropped and counted (`cable.limits.refusals`, reason `whisper_rate`); the
         * connection stays, as whispers are best effort (typing indicators, cursors). Every whisper is also a command
         * (`command-rate`).
         */
        @WithDefault("20")
        int whisperRate();

        /** How many whispers one Action Cable connection may send at once above `whisper-rate` (the bucket's size). */
        @WithDefault("40")
        int whisperBurst();

        /**
         * The largest whisper's data, in UTF-8 bytes of its JSON. A larger whisper is dropped and counted
         * (`cable.limits.refusals`, reason `whisper_size`); the connection stays. With `whisper-rate`, `whisper-burst`
         * and `trim.live-retention` it bounds what one connection's whispers can make the database hold: about rate x
         * size x 1.5 x live retention, 20/s x 4 KiB x 45 s = 3.6 MiB with the defaults (a typing indicator or a cursor
         * is a few dozen bytes).
         */
        @WithDefault("4K")
        MemorySize maxWhisperSize();
    }

    interface Turbo {
        /**
         * The key that signs Turbo stream names (HMAC-SHA256), at least 32 bytes in UTF-8 (a shorter one fails
         * startup); for example `openssl rand -base64 48`. Required when the application uses `TurboStreams`;
         * without it, `Turbo::StreamsChannel` subscriptions are rejected. Keep it secret and the same on every node: a
         * signed stream name is a bearer capability to its stream, and whoever holds the key can sign any name.
         */
        Optional<String> signingKey();

        /**
         * Keys that signed stream names before `signing-key` replaced them, for rotation: names signed with one of
         * them still verify, new names are signed with `signing-key` only. Remove a key from the list to revoke every
         * name signed with it. Each is at least 32 bytes, like `signing-key`.
         */
        Optional<List<String>> previousSigningKeys();
    }

    interface Writer {
        /**
         * The most broadcasts written in one transaction. Batches reach it only under load (the writer takes what is
         * queued); a larger batch spreads each commit over more broadcasts but holds the writers' lock longer (about
         * 10-20 ms for 1000 rows, see the Performance page).
         */
        @WithDefault("1000")
        int batchSize();

        /**
         * How long the writer waits for more broadcasts after the first of a batch, when fewer than `batch-size` are
         * queued. `0` writes what is queued at once; a small delay trades latency for larger batches.
         */
        @WithDefault("0ms")
        Duration batchDelay();

        /**
         * How many broadcasts may wait for the writer. A broadcast that finds the queue full fails at once with
         * `CableException.QueueFull`.
         */
        @WithDefault("10000")
        int queueCapacity();

        /**
         * How many of the queued broadcasts one channel may hold. A broadcast on a channel that already has this many
         * waiting fails at once with `CableException.QueueFull`, so a flood on one channel leaves the rest of the
         * queue to the others: it takes at least `queue-capacity / max-queued-per-channel` flooding channels to fill
         * the queue. Counted per node; `queue-capacity` (or more) turns the share off.
         */
        @ConfigDocDefault("a quarter of queue-capacity")
        Optional<Integer> maxQueuedPerChannel();

        /**
         * How many broadcasts one application transaction may make through the cable (they are held until it
         * commits). A further broadcast in that transaction fails at the call with `CableException.QueueFull` naming
         * this property, and the transaction is rolled back. Unset means `queue-capacity`, the value it had before it
         * was a setting of its own.
         */
        @ConfigDocDefault("queue-capacity")
        Optional<Integer> maxTransactionBroadcasts();

        /**
         * How long the writer retries a batch the database refused (with backoff) before failing its broadcasts
         * with `CableException.StorageFailed` (or `CableException.CommitUnknown` when the connection broke during
         * the commit and no later attempt could read whether it happened).
         */
        @WithDefault("10s")
        Duration retryTimeout();

        /**
         * How many times one batch is re-run after losing a conflict with another transaction (SQLState 40001 or
         * 40P01, MariaDB error 1213): on a Galera cluster with writers on several nodes, the shard row's lock is
         * local to each node and a conflict is only found at commit, so it is routine (the topology lab saw 78-100
         * per 120 commits with writers on 3 nodes). Each re-run starts the transaction over (new ids and offsets) after a
         * short random pause; they are counted in `cable.writer.conflicts` and do not log a warning each. Still
         * bounded by `retry-timeout`; past either bound the broadcasts fail with `CableException.StorageFailed`.
         */
        @WithDefault("50")
        int maxConflictRetries();

        /**
         * The longest a batch's COMMIT may take before the writer stops waiting: then the commit is cancelled, the
         * broadcasts of the batch fail with `CableException.CommitUnknown` (they may be stored, and delivered) and
         * the writer goes on. It bounds a commit that waits for a synchronous standby that is away (PostgreSQL's
         * `synchronous_standby_names`: `statement_timeout` does not bound that wait), and how long such a commit
         * holds the lock other nodes' writers queue on. Presence transactions (joins, leaves) are bounded by it too:
         * a join whose commit overran it is answered with the presence error frame.
         */
        @WithDefault("30s")
        Duration commitTimeout();
    }
}

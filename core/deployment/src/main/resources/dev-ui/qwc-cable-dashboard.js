import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { adapter } from 'build-time-data';
import '@vaadin/grid';
import '@vaadin/text-field';
import '@vaadin/text-area';
import '@vaadin/button';
import '@vaadin/checkbox';
import { notifier } from 'notifier';

/**
 * Quarkus Cable: the figures operators watch (poll lag, writer queue, cursor lag, trim debt), this node's
 * connections and the presence sets they are in, the channels with their subscribers on this node, the newest
 * messages, and a form to broadcast a test message.
 */
export class QwcCableDashboard extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 1em; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(12em, 1fr)); gap: 0.5em; }
        .figure { border: 1px solid var(--lumo-contrast-10pct); border-radius: var(--lumo-border-radius-m); padding: 0.5em; }
        .figure .label { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
        .figure .value { font-size: var(--lumo-font-size-xl); }
        .form { display: flex; gap: 0.5em; align-items: flex-end; }
        .form vaadin-text-area { flex: 1; }
        h3 { margin: 0.5em 0 0 0; }
    `;

    static properties = {
        _status: { state: true },
        _channels: { state: true },
        _messages: { state: true },
        _connections: { state: true },
        _presence: { state: true },
        _channel: { state: true },
        _payload: { state: true },
        _internal: { state: true }
    };

    constructor() {
        super();
        this._status = null;
        this._channels = [];
        this._messages = [];
        this._connections = [];
        this._presence = [];
        this._channel = 'devui:test';
        this._payload = 'hello from the Dev UI';
        // The cable's own channels (whispers, presence events, disconnect commands) are hidden unless asked for:
        // they are the cable's plumbing, and their rows crowded the application's out of the recent messages.
        this._internal = false;
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 2000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.getStatus().then(r => this._status = r.result);
        this.jsonRpc.getChannels().then(r => this._channels = r.result);
        this.jsonRpc.getRecentMessages({ limit: 50, internal: this._internal }).then(r => this._messages = r.result);
        this.jsonRpc.getConnections().then(r => this._connections = r.result);
        this.jsonRpc.getPresence().then(r => this._presence = r.result);
    }

    _broadcast() {
        this.jsonRpc.broadcast({ channel: this._channel, payload: this._payload }).then(r => {
            const ok = r.result === 'committed';
            notifier.showInfoMessage(ok ? 'Broadcast committed on ' + this._channel : r.result, 'bottom-start');
            this._refresh();
        });
    }

    _showInternal(show) {
        if (show !== this._internal) {
            this._internal = show;
            this._refresh();
        }
    }

    /** A name that is empty or starts or ends with spaces is shown quoted, so it cannot pass for an empty cell. */
    _channelRenderer(root, column, model) {
        const name = model.item.channel;
        root.textContent = name === '' || name.trim() !== name ? JSON.stringify(name) : name;
    }

    /** Identifiers as key=value pairs; subscriptions and presence sets one per line (cells stay one text each). */
    _identifiersRenderer(root, column, model) {
        const identifiers = model.item.identifiers || {};
        root.textContent = Object.keys(identifiers).sort().map(key => key + '=' + identifiers[key]).join(', ') || '–';
    }

    _listRenderer(path) {
        return (root, column, model) => {
            root.style.whiteSpace = 'pre-line';
            root.textContent = (model.item[path] || []).join('\n') || '–';
        };
    }

    _presenceIdRenderer(root, column, model) {
        root.textContent = model.item.id === null ? '(' + model.item.note + ')' : model.item.id;
    }

    _figure(label, value) {
        return html`<div class="figure"><div class="label">${label}</div>
            <div class="value">${value === null || value === undefined ? '–' : value}</div></div>`;
    }

    render() {
        const s = this._status || {};
        const channels = this._internal ? this._channels : this._channels.filter(row => !row.internal);
        return html`
            <div class="figures">
                ${this._figure('Adapter', s.adapter || adapter)}
                ${this._figure('Database', s.databaseReachable === undefined || s.databaseReachable === null ? null
                    : (s.databaseReachable ? 'reachable' : 'unreachable'))}
                ${this._figure('Poll lag (ms, last poll)', s.pollLagMillis)}
                ${this._figure('Last poll (ms ago)', s.lastPollAgeMillis)}
                ${this._figure('Cursor lag (ids)', s.cursorLag)}
                ${this._figure('Writer queue', s.writerQueueDepth)}
                ${this._figure('Writer busy for (ms)', s.writerOldestAgeMillis)}
                ${this._figure('Trim debt (rows)', s.trimDebt)}
                ${this._figure('Channels / subscribers', (s.channels ?? '–') + ' / ' + (s.subscribers ?? '–'))}
                ${this._figure('Broadcasts / deliveries', (s.broadcasts ?? '–') + ' / ' + (s.deliveries ?? '–'))}
            </div>
            <h3>Broadcast a test message</h3>
            <div class="form">
                <vaadin-text-field label="Channel" .value=${this._channel}
                    @value-changed=${e => this._channel = e.detail.value}></vaadin-text-field>
                <vaadin-text-area label="Payload" .value=${this._payload}
                    @value-changed=${e => this._payload = e.detail.value}></vaadin-text-area>
                <vaadin-button theme="primary" @click=${() => this._broadcast()}>Broadcast</vaadin-button>
            </div>
            <h3>Connections on this node</h3>
            <vaadin-grid id="connections" .items=${this._connections} all-rows-visible>
                <vaadin-grid-column path="id" header="Connection" auto-width></vaadin-grid-column>
                <vaadin-grid-column header="Identifiers" auto-width
                    .renderer=${this._identifiersRenderer}></vaadin-grid-column>
                <vaadin-grid-column header="Subscriptions" auto-width
                    .renderer=${this._listRenderer('subscriptions')}></vaadin-grid-column>
                <vaadin-grid-column header="Presence sets" auto-width
                    .renderer=${this._listRenderer('presenceSets')}></vaadin-grid-column>
                <vaadin-grid-column path="protocol" header="Protocol" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="openMillis" header="Open for (ms)" auto-width></vaadin-grid-column>
            </vaadin-grid>
            <h3>Presence sets of this node's connections</h3>
            <vaadin-grid id="presence" .items=${this._presence} all-rows-visible>
                <vaadin-grid-column path="channel" header="Channel" auto-width
                    .renderer=${this._channelRenderer}></vaadin-grid-column>
                <vaadin-grid-column header="Member" auto-width
                    .renderer=${this._presenceIdRenderer}></vaadin-grid-column>
                <vaadin-grid-column path="info" header="Info"></vaadin-grid-column>
            </vaadin-grid>
            <h3>Channels subscribed on this node</h3>
            <vaadin-checkbox id="show-internal" label="Show the cable's internal channels (cable:whispers, cable:presence, cable:control:disconnect)"
                .checked=${this._internal} @checked-changed=${e => this._showInternal(e.detail.value)}></vaadin-checkbox>
            <vaadin-grid id="channels" .items=${channels} all-rows-visible>
                <vaadin-grid-sort-column path="channel" header="Channel" auto-width
                    .renderer=${this._channelRenderer}></vaadin-grid-sort-column>
                <vaadin-grid-sort-column path="subscribers" header="Subscribers" auto-width></vaadin-grid-sort-column>
            </vaadin-grid>
            <h3>Recent messages</h3>
            <vaadin-grid id="recent-messages" .items=${this._messages} all-rows-visible>
                <vaadin-grid-column path="id" header="Id" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="channel" header="Channel" auto-width
                    .renderer=${this._channelRenderer}></vaadin-grid-column>
                <vaadin-grid-column path="createdAt" header="Written (UTC)" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="bytes" header="Bytes" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="payload" header="Payload"></vaadin-grid-column>
            </vaadin-grid>`;
    }
}
customElements.define('qwc-cable-dashboard', QwcCableDashboard);

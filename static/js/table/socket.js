// The table's socket (docs/protocol.md): reconnect with backoff, a heartbeat
// every 10 s, and a watchdog that drops a silent connection.

const SILENCE_BEATS = 2.5; // no frame at all (not even a pong) for this many heartbeats: reconnect
// a heartbeat's pong comes at once; no frame for one heartbeat and this much more is the
// first missed one: the others now see this player "connecting" (rooms/presence.py), and he is told.
export const STALL_GRACE_MS = 3000;
const BACKOFF_MS = [400, 1000, 2000, 4000, 8000, 12000];
const CLOSE_NO_ROOM = 4404;
const CLOSE_SIGNED_OUT = 4401; // signed out elsewhere, or deactivated by a moderator: no retry

export class TableSocket {
  constructor(url, { onFrame, onStatus, heartbeatMs = 10000 }) {
    this.url = url;
    this.heartbeatMs = heartbeatMs; // the server's, sent with the page
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.status = "connecting"; // connecting | open | closed | gone | signed_out
    this.retryAt = 0;
    this.timers = {};
    this.lastFrameAt = 0;
    this.stalled = false; // open, but the server has not answered since a heartbeat was missed
    this.sent = []; // what this tab sent (kept short; tests and debugging read it)
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.status === "closed") this.reconnectNow();
    });
  }

  connect() {
    clearTimeout(this.timers.retry);
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    this.setStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.lastFrameAt = Date.now();
      this.setStatus("open");
      this.startHeartbeat();
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      this.lastFrameAt = Date.now();
      if (this.stalled) this.setStalled(false);
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (frame && typeof frame.type === "string") this.onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.stopHeartbeat();
      this.ws = null;
      if (event.code === CLOSE_NO_ROOM) {
        this.setStatus("gone");
        return;
      }
      if (event.code === CLOSE_SIGNED_OUT) {
        this.setStatus("signed_out");
        return;
      }
      this.setStatus("closed");
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const delay = Math.round(base * (1 + Math.random() * 0.3));
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => this.connect(), delay);
    this.setStatus("closed");
  }

  reconnectNow() {
    if (this.status === "open" || this.status === "gone" || this.status === "signed_out") return;
    // A handshake started while offline may hang: start afresh.
    const stale = this.ws;
    this.ws = null;
    if (stale) {
      try {
        stale.close();
      } catch (err) {
        /* never opened */
      }
    }
    this.attempt = 0;
    this.connect();
  }

  /** Close the connection (offline, silent server); the backoff brings it back. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    // Forget it at once: a close handshake over a dead network can take long.
    this.ws = null;
    this.stopHeartbeat();
    try {
      ws.close();
    } catch (err) {
      /* already closing */
    }
    this.scheduleRetry();
  }

  /** tell the page when the server stops answering (and when it answers again). */
  setStalled(stalled) {
    if (this.stalled === stalled) return;
    this.stalled = stalled;
    this.onStatus(this.status);
  }

  startHeartbeat() {
    this.stopHeartbeat();
    this.timers.stall = setInterval(() => {
      const silent = Date.now() - this.lastFrameAt > this.heartbeatMs + STALL_GRACE_MS;
      this.setStalled(this.status === "open" && silent);
    }, 1000);
    this.timers.beat = setInterval(() => {
      if (Date.now() - this.lastFrameAt > this.heartbeatMs * SILENCE_BEATS) {
        this.drop();
        return;
      }
      this.send({ type: "ping" });
    }, this.heartbeatMs);
  }

  stopHeartbeat() {
    clearInterval(this.timers.beat);
    clearInterval(this.timers.stall);
    this.stalled = false;
  }

  setStatus(status) {
    if (this.status === status && status !== "closed") return;
    this.status = status;
    this.onStatus(status);
  }

  get open() {
    return this.status === "open" && this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send one frame; false when the socket is down (nothing is queued: the state decides). */
  send(frame) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(frame));
    if (frame.type !== "ping") {
      this.sent.push(frame);
      if (this.sent.length > 200) this.sent.splice(0, this.sent.length - 200);
    }
    return true;
  }
}

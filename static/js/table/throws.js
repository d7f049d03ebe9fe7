// Throwing things (H4-X5): pick an item and a face; everybody sees it fly and
// hit. Nobody learns who threw it: the server's `throw` frame names the item
// and the target only, and here every throw flies in from a random point of
// the felt's edge (never from the thrower's seat), the thrower's own included.
import { h, fill, prefersReducedMotion } from "./dom.js";
import { fmt, gettext, isolate, num } from "./i18n.js";

const FLY_MS = 700;
const HIT_MS = 2600;
const STILL_MS = 3600; // reduced motion: nothing moves, so the item stays a little longer

export class Throws {
  constructor(app) {
    this.app = app;
    this.items = app.cfg.constants.throw_items || {};
    this.perTrick = app.cfg.constants.throws_per_trick || 3;
    this.open = false;
    this.item = null;
    this.sent = { key: null, count: 0 }; // this page's own count for the trick (the server decides)
    this.picker = h("div.throw-picker", { "data-testid": "throw-picker", role: "dialog",
      "aria-label": gettext("Throw something"), hidden: true });
    app.root.append(this.picker);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.open) this.close();
    });
  }

  /** The rule is on, the match is being played and the viewer holds one of its seats. */
  get allowed() {
    const { app } = this;
    const frame = app.liveFrame;
    return Boolean(app.room && app.room.rules && app.room.rules.throwing && frame &&
      frame.status === "active" && frame.view.viewer);
  }

  /** The trick the throws count towards (between tricks: the next one). */
  get trickKey() {
    const view = this.app.liveFrame ? this.app.liveFrame.view : null;
    if (!view || !view.score) return "";
    return `${this.app.liveFrame.match}:${view.round}:${(view.score.tricks || []).reduce((a, b) => a + b, 0)}`;
  }

  get left() {
    if (this.sent.key !== this.trickKey) return this.perTrick;
    return Math.max(0, this.perTrick - this.sent.count);
  }

  footKey() {
    return this.allowed ? `${this.left}|${this.open}|${this.app.connected}` : "";
  }

  /** The foot's "throw" button (none when the rule is off or the viewer does not play). */
  footControls() {
    if (!this.allowed) {
      if (this.open) this.close();
      return [];
    }
    const left = this.left;
    const label = fmt(gettext("Throw something (%(n)s left in this trick)"), { n: num(left) });
    return [h("button.tool.tool-throw", {
      type: "button", "data-testid": "throw-open", "aria-expanded": this.open ? "true" : "false",
      "aria-label": label, title: label, disabled: !this.app.connected || left === 0,
      onclick: () => (this.open ? this.close() : this.show()),
    }, h("span.throw-icon", { "aria-hidden": "true" }, this.items.tomato ? this.items.tomato.emoji : "\u{1F345}"),
    h("b.throw-left", { "aria-hidden": "true" }, num(left)))];
  }

  show() {
    this.open = true;
    this.item = this.item || Object.keys(this.items)[0];
    this.renderPicker();
    this.app.renderer.footKey = null;
    this.app.renderer.renderFoot();
  }

  close() {
    this.open = false;
    this.picker.hidden = true;
    this.app.renderer.footKey = null;
    this.app.renderer.renderFoot();
  }

  renderPicker() {
    const { app } = this;
    const me = app.liveFrame ? app.liveFrame.view.viewer : null;
    const items = Object.entries(this.items).map(([key, { emoji, label }]) => h("button.throw-item", {
      type: "button", "data-item": key, "aria-pressed": this.item === key ? "true" : "false", title: label,
      "aria-label": label, onclick: () => { this.item = key; this.renderPicker(); },
    }, h("span", { "aria-hidden": "true" }, emoji)));
    const targets = [];
    for (let n = 1; n <= app.players; n += 1) {
      if (n === me) continue;
      targets.push(h("button.btn.btn-small.throw-target", { type: "button", "data-target": n,
        "data-testid": `throw-at-${n}`, onclick: () => this.throwAt(n) }, isolate(app.name(n))));
    }
    const chosen = this.items[this.item];
    fill(this.picker,
      h("p.throw-title", null, gettext("Throw something: nobody will know it was you.")),
      h("div.throw-items", { role: "group", "aria-label": gettext("What to throw") }, items),
      h("p.throw-at", null, chosen ? fmt(gettext("%(item)s: at whom?"), { item: chosen.label }) : ""),
      h("div.throw-targets", { role: "group", "aria-label": gettext("At whom") }, targets),
      h("button.btn.btn-ghost.btn-small.throw-close", { type: "button", onclick: () => this.close() }, gettext("Close")));
    this.picker.hidden = false;
  }

  throwAt(target) {
    if (!this.allowed || !this.left) return;
    if (!this.app.send({ type: "throw", item: this.item, target })) return;
    const key = this.trickKey;
    this.sent = { key, count: (this.sent.key === key ? this.sent.count : 0) + 1 };
    if (!this.left) this.close();
    else {
      this.app.renderer.footKey = null;
      this.app.renderer.renderFoot();
    }
  }

  /** A `throw` frame: the item flies to the target's face (R-5: not for a viewer who hides reactions). */
  onThrow(frame) {
    if (this.app.reactionsHidden) return;
    const item = this.items[frame.item];
    const { renderer } = this.app;
    const slot = renderer.slots[renderer.posOf(frame.target)];
    const avatar = slot && slot.slot.querySelector(".avatar");
    if (!item || !avatar) return;
    const face = avatar.getBoundingClientRect();
    const to = { x: face.left + face.width / 2, y: face.top + face.height / 2 };
    const label = fmt(gettext("%(name)s got hit: %(item)s!"), { item: item.label, name: isolate(this.app.name(frame.target)) });
    if (prefersReducedMotion()) {
      this.hit(slot, face, item, label, true);
      return;
    }
    const felt = renderer.el.felt.getBoundingClientRect();
    const from = edgePoint(felt, to);
    const el = h("span.throw-fly", { "aria-hidden": "true", "data-testid": "throw-fly" }, item.emoji);
    document.body.append(el);
    const spin = (Math.random() < 0.5 ? -1 : 1) * (360 + Math.random() * 360);
    const arc = Math.min(120, Math.hypot(to.x - from.x, to.y - from.y) / 3);
    const mid = { x: (from.x + to.x) / 2, y: Math.min(from.y, to.y) - arc };
    const at = (p, extra) => `translate(${p.x}px, ${p.y}px) translate(-50%, -50%) ${extra}`;
    const flight = el.animate([
      { transform: at(from, "rotate(0deg) scale(.7)") },
      { transform: at(mid, `rotate(${spin / 2}deg) scale(1.15)`), offset: 0.5 },
      { transform: at(to, `rotate(${spin}deg) scale(1)`) },
    ], { duration: FLY_MS, easing: "cubic-bezier(.35,.6,.55,1)", fill: "forwards" });
    flight.onfinish = () => {
      el.remove();
      this.hit(slot, avatar.isConnected ? avatar.getBoundingClientRect() : face, item, label, false);
    };
  }

  /** The item on the face, for a moment (with reduced motion: no movement, a short fade). */
  hit(slot, face, item, label, still) {
    const box = slot.pops.getBoundingClientRect();
    const el = h("span.throw-hit", { class: still ? "still" : "", role: "img", "aria-label": label,
      "data-testid": "throw-hit", style: { left: `${face.left + face.width / 2 - box.left}px`,
        top: `${face.top + face.height / 2 - box.top}px` } },
    h("span.throw-splat", { "aria-hidden": "true" }), h("span.throw-emoji", { "aria-hidden": "true" }, item.emoji));
    slot.pops.append(el);
    const seat = slot.slot.querySelector(".seat");
    if (seat && !still) {
      seat.classList.remove("hit");
      void seat.offsetWidth; // restart the wobble
      seat.classList.add("hit");
      setTimeout(() => seat.classList.remove("hit"), 700);
    }
    setTimeout(() => el.remove(), still ? STILL_MS : HIT_MS);
  }
}

/** A random point on the felt's top or side edges, not too close to the face. */
function edgePoint(felt, to) {
  for (let i = 0; i < 8; i += 1) {
    const side = Math.floor(Math.random() * 3);
    const p = side === 0 ? { x: felt.left + Math.random() * felt.width, y: felt.top }
      : { x: side === 1 ? felt.left : felt.right, y: felt.top + Math.random() * felt.height * 0.7 };
    if (Math.hypot(p.x - to.x, p.y - to.y) > Math.min(felt.width, felt.height) * 0.35) return p;
  }
  return { x: felt.left + felt.width / 2, y: felt.top };
}

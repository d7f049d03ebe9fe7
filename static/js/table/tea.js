// Tea with the narrator (H4-X4). The server keeps the tea (the state frame's
// `tea`): who asked, the ten seconds to say no, the pause and its chapter.
// Here: the "ask for tea" button, the question to the others, and the
// narrator's chapter over the felt, read aloud by the browser's speech
// synthesis where it has a voice for the page's language.
import { h, fill, prefersReducedMotion } from "./dom.js";
import { fmt, gettext, isolate, LANG, num } from "./i18n.js";
import { soundEnabled } from "./sound.js";

export class TeaTable {
  constructor(app) {
    this.app = app;
    this.story = app.cfg.constants.story || [];
    this.layer = h("div.tea-layer", { "data-testid": "tea-layer", dir: document.documentElement.dir || "rtl" });
    app.root.querySelector("[data-felt]").append(this.layer);
    this.key = null; // what the layer shows now
    this.spoken = null; // the pause (match, chapter) already read aloud
    this.speaking = false;
    this.muted = false; // the viewer stopped the narrator's voice
    if (window.speechSynthesis && window.speechSynthesis.addEventListener) {
      // Chromium loads its voices late: a chapter on screen may be read once they come.
      window.speechSynthesis.addEventListener("voiceschanged", () => this.render());
    }
  }

  /** The tea of the match on screen, when the room plays with tea. */
  get tea() {
    const frame = this.app.liveFrame;
    return frame && frame.status === "active" && frame.tea ? frame.tea : null;
  }

  get me() {
    const frame = this.app.liveFrame;
    return frame ? frame.view.viewer : null;
  }

  canAsk() {
    const tea = this.tea;
    return Boolean(tea && this.me && !tea.phase && !(tea.asked || []).includes(this.me));
  }

  footKey() {
    const tea = this.tea;
    return tea ? `${this.canAsk()}|${this.app.connected}` : "";
  }

  /** The foot's "ask for tea" button: once per match, for a player, when no tea is on its way. */
  footControls() {
    if (!this.canAsk()) return [];
    return [h("button.tool.tool-tea", { type: "button", "data-testid": "tea-ask", disabled: !this.app.connected,
      title: gettext("Ask for tea (once per match): play stops after this trick and the narrator tells a chapter"),
      onclick: () => this.say("ask") }, h("span", { "aria-hidden": "true" }, "\u{1F375}"),
    h("span.tea-ask-label", null, gettext("Tea?")))];
  }

  say(what) {
    this.app.send({ type: "tea", say: what });
  }

  /** Events of a state frame: who said no, the tea's end. */
  onState(frame, events) {
    for (const e of events || []) {
      if (e.type === "tea_refused") {
        this.app.renderer.toast(fmt(gettext("%(name)s said no to tea."), { name: isolate(this.app.name(e.seat)) }));
      }
    }
  }

  secondsLeft(tea) {
    if (!tea || !tea.until) return null;
    return Math.max(0, Math.ceil((tea.until - (Date.now() + this.app.offset)) / 1000));
  }

  tick() {
    const tea = this.tea;
    if (!tea || !tea.phase) return;
    const left = this.secondsLeft(tea);
    // Each sentence with the seconds left is worded whole (Persian puts the number elsewhere).
    for (const el of this.layer.querySelectorAll("[data-tea-fmt]")) {
      el.textContent = fmt(el.dataset.teaFmt, { n: num(left ?? 0), name: el.dataset.teaName || "" });
    }
    const bar = this.layer.querySelector("[data-tea-bar]");
    if (bar && tea.seconds) {
      const frac = Math.max(0, Math.min(1, (tea.until - (Date.now() + this.app.offset)) / (tea.seconds * 1000)));
      bar.style.inlineSize = `${(frac * 100).toFixed(1)}%`;
    }
  }

  render() {
    const tea = this.tea;
    const phase = tea ? tea.phase : null;
    this.app.root.classList.toggle("tea-time", phase === "pouring");
    if (phase !== "pouring") this.stopSpeaking();
    const key = tea && phase ? JSON.stringify([this.app.liveFrame.match, tea, this.me, this.voice() !== null,
      this.speaking, this.muted]) : null;
    if (key === this.key) return;
    this.key = key;
    if (!phase) {
      fill(this.layer);
      return;
    }
    if (phase === "asking") fill(this.layer, this.question(tea));
    else if (phase === "agreed") {
      fill(this.layer, h("div.tea-note", { role: "status", "data-testid": "tea-note" },
        h("span.tea-cup", { "aria-hidden": "true" }, "\u{1F375}"), gettext("Tea after this trick.")));
    } else fill(this.layer, this.narrator(tea));
    this.tick();
    if (phase === "pouring") this.maybeSpeak(tea);
  }

  question(tea) {
    const me = this.me;
    const asker = isolate(this.app.name(tea.seat));
    const parts = [h("span.tea-cup", { "aria-hidden": "true" }, "\u{1F375}")];
    if (me === tea.seat) {
      parts.push(h("span", { "data-tea-fmt": gettext("You asked for tea. The others have %(n)s seconds to say no.") }));
    } else {
      parts.push(h("span", { "data-tea-fmt": gettext("%(name)s asks for tea. Anyone against? (%(n)s)"), "data-tea-name": asker }));
      if (me && !(tea.yes || []).includes(me)) {
        parts.push(h("span.tea-buttons", null,
          h("button.btn.btn-small.btn-ghost", { type: "button", "data-testid": "tea-no", onclick: () => this.say("no") }, gettext("No")),
          h("button.btn.btn-small", { type: "button", "data-testid": "tea-yes", onclick: () => this.say("yes") }, gettext("Yes, tea!"))));
      }
    }
    return h("div.tea-note.tea-question", { role: "status", "data-testid": "tea-question" }, parts);
  }

  chapter(tea) {
    const n = tea.chapter || 1;
    return this.story.length ? this.story[(n - 1) % this.story.length] : { number: n, title: "", text: "" };
  }

  narrator(tea) {
    const me = this.me;
    const ch = this.chapter(tea);
    const continued = tea.continued || [];
    const humans = this.app.room ? this.app.room.seats.filter((s) => s.user).length : 0;
    const voice = this.voice() !== null;
    const foot = [];
    if (me && !continued.includes(me)) {
      foot.push(h("button.btn", { type: "button", "data-testid": "tea-continue", onclick: () => this.say("continue") },
        gettext("Continue playing")));
    } else if (me) {
      foot.push(h("span.tea-waiting", null, fmt(gettext("Waiting for the others (%(done)s of %(total)s)"),
        { done: num(continued.length), total: num(humans) })));
    }
    if (voice) {
      foot.push(h("button.btn.btn-ghost.btn-small", { type: "button", "data-testid": "tea-voice",
        "aria-pressed": this.speaking ? "true" : "false",
        onclick: () => (this.speaking ? this.stopSpeaking(true) : this.speak(ch, true)) },
      this.speaking ? gettext("Stop reading aloud") : gettext("Read aloud")));
    }
    return h("section.tea-narrator", { "data-testid": "tea-narrator", "aria-labelledby": "tea-title", role: "region" },
      h("p.tea-kicker", null, h("span.tea-cup", { "aria-hidden": "true" }, "\u{1F375}"),
        fmt(gettext("Tea time · the narrator tells chapter %(n)s"), { n: num(ch.number || tea.chapter) })),
      h("h2.tea-title", { id: "tea-title" }, ch.title),
      h("div.tea-text", { "data-testid": "tea-text", tabindex: "0" }, h("p", null, ch.text)),
      h("div.tea-track", { "aria-hidden": "true" }, h("span.tea-bar", { "data-tea-bar": "" })),
      h("p.tea-clock", { "data-tea-fmt": gettext("Play resumes in %(n)s seconds · the turn clock is stopped.") }),
      h("div.tea-foot", null, foot));
  }

  // --- the narrator's voice (window.speechSynthesis) ----------------------------------------

  voice() {
    const synth = window.speechSynthesis;
    if (!synth || typeof synth.getVoices !== "function") return null;
    const lang = LANG.slice(0, 2);
    return synth.getVoices().find((v) => (v.lang || "").toLowerCase().startsWith(lang)) || null;
  }

  maybeSpeak(tea) {
    const id = `${this.app.liveFrame.match}:${tea.chapter}:${tea.until}`;
    if (this.spoken === id || this.muted || !soundEnabled() || !this.voice()) return;
    this.spoken = id; // once per pause (before speaking: render() comes back here)
    if (this.speak(this.chapter(tea))) queueMicrotask(() => this.render());
  }

  speak(ch, asked = false) {
    const voice = this.voice();
    if (!voice) return false;
    if (asked) this.muted = false;
    const synth = window.speechSynthesis;
    synth.cancel();
    const utterance = new SpeechSynthesisUtterance(`${ch.title}. ${ch.text}`);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    utterance.rate = prefersReducedMotion() ? 0.9 : 0.95;
    utterance.onend = () => { this.speaking = false; this.render(); };
    synth.speak(utterance);
    this.speaking = true;
    this.key = null;
    return true;
  }

  stopSpeaking(byViewer = false) {
    if (byViewer) this.muted = true;
    if (this.speaking && window.speechSynthesis) window.speechSynthesis.cancel();
    if (this.speaking) {
      this.speaking = false;
      this.key = null;
      if (byViewer) this.render();
    }
  }
}

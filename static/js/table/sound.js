// Card sounds made in the browser with Web Audio (DESIGN.md), only when the
// player's "card sounds" preference is on. The context starts after the
// first gesture (browsers refuse audio before it).
let ctx = null;
let enabled = true;

export function setSoundEnabled(on) {
  enabled = Boolean(on);
}

export function soundEnabled() {
  return enabled;
}

export function unlockAudio() {
  if (!enabled) return;
  try {
    if (!ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      ctx = new Ctx();
    }
    if (ctx.state === "suspended") ctx.resume();
  } catch (err) {
    ctx = null;
  }
}

function noise(duration) {
  const length = Math.max(1, Math.floor(ctx.sampleRate * duration));
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i += 1) data[i] = Math.random() * 2 - 1;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  return src;
}

function envelope(peak, attack, decay, at) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  return gain;
}

/** "card": a soft slap; "cut": a swish and a thump; "turn": a light tick. */
export function playSound(kind) {
  if (!enabled || !ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  if (kind === "card" || kind === "cut") {
    const src = noise(0.09);
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = 1800;
    band.Q.value = 0.9;
    const gain = envelope(0.35, 0.004, 0.07, now);
    src.connect(band).connect(gain).connect(ctx.destination);
    src.start(now);
    src.stop(now + 0.1);
  }
  if (kind === "cut") {
    const swish = noise(0.22);
    const high = ctx.createBiquadFilter();
    high.type = "bandpass";
    high.Q.value = 2.5;
    high.frequency.setValueAtTime(900, now);
    high.frequency.exponentialRampToValueAtTime(5200, now + 0.2);
    const g1 = envelope(0.28, 0.02, 0.2, now);
    swish.connect(high).connect(g1).connect(ctx.destination);
    swish.start(now);
    swish.stop(now + 0.24);
    const osc = ctx.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(140, now + 0.12);
    osc.frequency.exponentialRampToValueAtTime(55, now + 0.3);
    const g2 = envelope(0.5, 0.01, 0.2, now + 0.12);
    osc.connect(g2).connect(ctx.destination);
    osc.start(now + 0.12);
    osc.stop(now + 0.36);
  }
  if (kind === "turn") {
    const osc = ctx.createOscillator();
    osc.type = "triangle";
    osc.frequency.value = 880;
    const g = envelope(0.12, 0.005, 0.12, now);
    osc.connect(g).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.14);
  }
}

/**
 * The table's mute toggle: sound on or off now, kept in the profile ("card
 * sounds") for a signed-in player, in this browser otherwise.
 */
export async function saveSoundPreference(on, root) {
  setSoundEnabled(on);
  const d = root.dataset;
  if (d.authenticated !== "true" || !d.soundUrl) {
    try {
      window.localStorage.setItem("takhteh.sounds", on ? "1" : "0");
    } catch (err) {
      /* private mode: this page only */
    }
    return true;
  }
  try {
    const body = new URLSearchParams({ on: on ? "1" : "0" });
    const response = await fetch(d.soundUrl, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": d.csrf || "", "X-Requested-With": "fetch" },
    });
    return response.ok;
  } catch (err) {
    return false;
  }
}

/** An anonymous visitor's choice from an earlier visit (signed-in players have the profile). */
export function storedSoundChoice() {
  try {
    const v = window.localStorage.getItem("takhteh.sounds");
    return v === null ? null : v === "1";
  } catch (err) {
    return null;
  }
}

// The preferences page's switch (issue 40): notifications on this device.
// Turning it on asks the browser's permission (the only place that asks),
// then subscribes this device to Web Push when the site has a VAPID key.
import { STORAGE_KEY } from "./notify.js";

const gettext = (s) => (window.gettext ? window.gettext(s) : s);
const box = document.querySelector("[data-testid=notify-settings]");
const toggle = document.getElementById("notify-toggle");
const stateLine = document.querySelector("[data-testid=notify-state]");

function say(text) {
  stateLine.textContent = text;
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function keyBytes(base64url) {
  const b64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

async function send(method, body) {
  const response = await fetch("/notify/subscription/", {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
  return response.ok;
}

async function registration() {
  if (!("serviceWorker" in navigator)) return null;
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

async function subscribePush() {
  const key = box.dataset.vapid;
  if (!key || !("PushManager" in window)) return false;
  try {
    const reg = await registration();
    if (!reg) return false;
    const existing = await reg.pushManager.getSubscription();
    const sub = existing || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
    return await send("POST", sub.toJSON());
  } catch (err) {
    console.warn("push subscription", err);
    return false;
  }
}

async function unsubscribePush() {
  try {
    const reg = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration("/") : null;
    const sub = reg && (await reg.pushManager.getSubscription());
    if (!sub) return;
    await send("DELETE", { endpoint: sub.endpoint });
    await sub.unsubscribe();
  } catch (err) {
    console.warn("push unsubscription", err);
  }
}

function isOn() {
  return localStorage.getItem(STORAGE_KEY) === "on" && Notification.permission === "granted";
}

function showState(pushed) {
  if (Notification.permission === "denied") {
    say(gettext("Your browser blocks this site's notifications; allow them in its settings first."));
  } else if (!isOn()) {
    say(gettext("Notifications are off on this device."));
  } else if (pushed === false) {
    say(gettext("On while a page of the site is open (this browser offers no push for closed tabs)."));
  } else {
    say(gettext("Notifications are on on this device."));
  }
}

async function turnOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    localStorage.setItem(STORAGE_KEY, "off");
    toggle.checked = false;
    showState();
    return;
  }
  localStorage.setItem(STORAGE_KEY, "on");
  say(gettext("Turning on…"));
  const pushed = await subscribePush();
  box.dataset.push = pushed ? "on" : "off";
  showState(pushed);
}

async function turnOff() {
  localStorage.setItem(STORAGE_KEY, "off");
  await unsubscribePush();
  box.dataset.push = "off";
  showState();
}

if (box && toggle) {
  if (!("Notification" in window)) {
    say(gettext("This browser cannot show notifications."));
  } else {
    toggle.disabled = false;
    toggle.checked = isOn();
    showState();
    toggle.addEventListener("change", () => {
      toggle.disabled = true;
      (toggle.checked ? turnOn() : turnOff()).finally(() => {
        toggle.disabled = false;
        box.dataset.ready = "1";
      });
    });
    box.dataset.ready = "0";
  }
}

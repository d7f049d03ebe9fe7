// Issue 40: the service worker (the site's static files and its offline page)
// and, for a signed-in player who turned them on, notifications while the tab is hidden.
import "./notify.js";

function register() {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker", err));
}

// After the page has loaded: the worker's first download never competes with the page's own.
if ("serviceWorker" in navigator && window.isSecureContext) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

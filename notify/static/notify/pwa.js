// Issue 40: the service worker (the site's static files and its offline page)
// and, for a signed-in player who turned them on, notifications while the tab is hidden.
import "./notify.js";

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((err) => console.warn("service worker", err));
}

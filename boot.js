// Starts the WebAssembly app. It is a file rather than an inline script so the
// Content-Security-Policy can forbid inline scripts; trunk writes the hashed
// file names into this tag's data attributes.
//
// After the first visit the site works offline: sw.js serves this build's
// files from a cache of their own. A new build (or new content) installs
// beside it and waits; the page offers a reload and never mixes the two.

function showBanner(id, role, message, button, onClick) {
  if (document.getElementById(id)) return;
  const banner = document.createElement("div");
  banner.id = id;
  banner.className = "banner";
  banner.setAttribute("role", role);
  const text = document.createElement("p");
  text.textContent = message;
  const action = document.createElement("button");
  action.type = "button";
  action.textContent = button;
  action.addEventListener("click", onClick);
  banner.append(text, action);
  document.body.prepend(banner);
  return action;
}

async function serveOffline() {
  if (!("serviceWorker" in navigator)) return;
  const container = navigator.serviceWorker;
  const controlled = Boolean(container.controller);
  const registration = await container.register(new URL("sw.js", document.baseURI), { updateViaCache: "none" });
  const offer = (worker) =>
    showBanner("update-banner", "status", "A new version of Headroom is available.", "Reload to update", () =>
      worker.postMessage("skip-waiting"),
    );
  if (registration.waiting && container.controller) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && container.controller) offer(worker);
    });
  });
  // The new build took over (here or in another tab): load it whole.
  container.addEventListener("controllerchange", () => {
    if (controlled) location.reload();
  });
  // Look for a new build when the tab is shown again, and hourly: one request for sw.js.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
  setInterval(() => registration.update().catch(() => {}), 60 * 60 * 1000);
}
serveOffline().catch((error) => console.info("Headroom works online only here:", error.message));

// A panic (or an allocation failure) in the app traps: WebAssembly aborts, and
// every later event would fail against a half-updated state. Rather than a page
// that silently stops answering, say so and offer a reload.
function showCrashBanner(message) {
  const reload = showBanner("crash-banner", "alert", message, "Reload", () => location.reload());
  reload?.focus();
}

const STOPPED = "Something went wrong and Headroom stopped. Reload the page to continue (what you pasted is not kept).";
const onCrash = (error) => {
  if (error instanceof WebAssembly.RuntimeError) showCrashBanner(STOPPED);
};
window.addEventListener("error", (event) => onCrash(event.error));
window.addEventListener("unhandledrejection", (event) => onCrash(event.reason));

const tag = document.querySelector("script[data-wasm]");
try {
  const { default: init } = await import(new URL(tag.dataset.js, document.baseURI));
  await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });
} catch (error) {
  showCrashBanner("Headroom could not start in this browser: " + error + ". Reload the page to try again.");
  throw error;
}

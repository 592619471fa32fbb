// Starts the WebAssembly app. It is a file rather than an inline script so the
// Content-Security-Policy can forbid inline scripts; trunk writes the hashed
// file names into this tag's data attributes.
const tag = document.querySelector("script[data-wasm]");
const { default: init } = await import(new URL(tag.dataset.js, document.baseURI));
await init({ module_or_path: new URL(tag.dataset.wasm, document.baseURI) });

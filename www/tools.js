//! `<tao-tools>`: the tools panel. Which tools the agent may use, where `search`/`lookup` read
//! (the offline pages, Wikipedia, or another MediaWiki), a form to add a WebAssembly tool, and
//! the tools exactly as the model is told about them.
//!
//! Like `<tao-controls>` it owns no agent; it emits bubbling events that `page-tools.js` handles:
//!
//! | event          | detail                                                   |
//! |----------------|----------------------------------------------------------|
//! | `tao:tools`    | `settings()` and `wikiChosen` (the user picked a source) |
//! | `tao:add-wasm` | `{ file, name, description, parameters }` to register    |
//! | `tao:remove`   | `{ name }` of an added tool                              |
//!
//! The markup lives in `index.html`; the tool list is drawn from `setTools()`. MCP servers are
//! `mcp-panel.js`'s, loaded at "Add an MCP server…" (it draws its form then): it sets `mcp` (the
//! `mcp` setting, tokens included: in memory only) and emits `tao:tools` when it changes.

import { t } from "./i18n.js";

export class TaoTools extends HTMLElement {
  #wired = false;
  /** Every tool the page offers: `{name, description, added}`, in display order. */
  #tools = [];
  #enabled = new Set();

  connectedCallback() {
    if (this.#wired) return;
    this.#wired = true;
    const emit = (name, detail) => this.dispatchEvent(new CustomEvent(name, { bubbles: true, detail }));
    const changed = (wikiChosen = false) => {
      this.#showWiki();
      emit("tao:tools", { ...this.settings(), wikiChosen });
    };
    this.#field('[name="wiki"]').addEventListener("change", () => changed(true));
    this.#field('[name="wikiUrl"]').addEventListener("change", () => changed(true));
    this.#field('[name="approveCode"]').addEventListener("change", () => changed(false));
    // The tools the page registered with WebMCP, where the browser has it (webmcp.js).
    this.#field("[data-webmcp]").hidden = typeof document.modelContext?.getTools !== "function";
    this.#field('[name="webmcp"]').addEventListener("change", () => changed(false));
    this.#field("[data-tools-list]").addEventListener("change", (e) => {
      const box = e.target.closest('input[type="checkbox"]');
      if (!box) return;
      if (box.checked) this.#enabled.add(box.value);
      else this.#enabled.delete(box.value);
      changed(false);
    });
    this.#field("[data-tools-list]").addEventListener("click", (e) => {
      const button = e.target.closest("[data-remove]");
      if (button) emit("tao:remove", { name: button.dataset.remove });
    });
    this.#field("[data-upload]").addEventListener("submit", async (e) => {
      e.preventDefault();
      const form = e.target;
      const file = form.elements.file.files?.[0];
      const name = form.elements.name.value.trim();
      const description = form.elements.description.value.trim();
      const schema = form.elements.schema.value.trim();
      if (!file || !name || !description) return this.setUploadStatus(t("tools.upload.missing"), false);
      let parameters;
      if (schema) {
        try {
          parameters = JSON.parse(schema);
        } catch (err) {
          return this.setUploadStatus(`${t("tools.upload.badSchema")} ${err.message}`, false);
        }
      }
      emit("tao:add-wasm", { file, name, description, parameters });
    });
    this.#field("[data-mcp-open]").addEventListener("click", () => import("./mcp-panel.js").then((m) => m.open(this)));
    this.#showWiki();
  }

  /** Connects to the MCP server at `url` (with a bearer `token`, if any) and lists its tools:
   * true, or what went wrong (the panel says it too). */
  async addServer(url, token = "") {
    const { addServer } = await import("./mcp-panel.js");
    return addServer(this, url, token);
  }

  #field(selector) {
    const node = this.querySelector(selector);
    if (!node) throw new Error(`tao-tools: missing ${selector} in the markup`);
    return node;
  }

  #showWiki() {
    this.#field('[name="wikiUrl"]').hidden = this.#field('[name="wiki"]').value !== "custom";
  }

  /** The `mcp` setting of the servers added (`mcp-panel.js` keeps it). */
  mcp = [];

  /** The panel's settings: enabled tool names, the wiki source, whether code needs approval, and the MCP servers. */
  settings() {
    const wiki = this.#field('[name="wiki"]').value;
    return {
      mcp: this.mcp,
      enabled: this.#tools.map((tool) => tool.name).filter((name) => this.#enabled.has(name)),
      wiki: wiki === "custom" ? this.#field('[name="wikiUrl"]').value.trim() : wiki,
      approveCode: this.#field('[name="approveCode"]').checked,
      webmcp: !this.#field("[data-webmcp]").hidden && this.#field('[name="webmcp"]').checked,
    };
  }

  /** Sets the wiki source: "offline", "en", "zh" or an API URL. */
  setWiki(wiki) {
    const select = this.#field('[name="wiki"]');
    if (["offline", "en", "zh"].includes(wiki)) {
      select.value = wiki;
    } else if (wiki) {
      select.value = "custom";
      this.#field('[name="wikiUrl"]').value = wiki;
    }
    this.#showWiki();
  }

  /** Which tools are ticked (a scenario's, when one is chosen). */
  enable(names) {
    this.#enabled = new Set(names);
    this.#draw();
  }

  /** The tools on offer, `{name, description, added?}`; ticks are kept by name. */
  setTools(tools) {
    this.#tools = tools;
    this.#draw();
  }

  #draw() {
    const rows = this.#tools.map((tool) => {
      const row = document.createElement("li");
      row.className = "tool-row";
      row.dataset.tool = tool.name;
      const label = document.createElement("label");
      label.className = "check";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = tool.name;
      box.checked = this.#enabled.has(tool.name);
      const name = document.createElement("code");
      name.textContent = tool.name;
      label.append(box, name);
      const text = document.createElement("span");
      text.className = "tool-description";
      text.textContent = tool.description; // the embedder's or uploader's words: text, never HTML
      row.append(label, text);
      if (tool.added) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "quiet small";
        remove.dataset.remove = tool.name;
        remove.textContent = t("tools.remove");
        row.append(remove);
      }
      return row;
    });
    this.#field("[data-tools-list]").replaceChildren(...rows);
  }

  /** Shows the result of adding a wasm tool (`ok` false: an error). */
  setUploadStatus(text, ok) {
    const node = this.#field("[data-upload-status]");
    node.textContent = text ?? "";
    if (ok === undefined) delete node.dataset.ok;
    else node.dataset.ok = String(ok);
    if (ok) this.#field("[data-upload]").reset();
  }

  /** Shows the prompt's tool descriptions: what the model is told, word for word. */
  showModelView(text) {
    this.#field("[data-model-view]").textContent = text ?? "";
  }
}

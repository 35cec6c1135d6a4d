//! The API keys this device remembers: "Remember on this device" is an explicit opt-in that copies
//! the key in the form (which otherwise lives in memory only) to localStorage, one entry per
//! provider, with the server it is for (`.for`: the Base URL as typed, "" for the provider's
//! default); unticking it deletes the entry. A remembered key is filled in only for its own
//! server: a link that names another (main.js) gets an empty key field, so Run cannot send the key
//! where the link says. Loaded by provider.js when a provider over HTTP is first chosen.

import { state, controls } from "./app.js";

export const keyStore = {
  name: (provider) => `tao.apiKey.${provider}`,
  /** `{key, base}`, or null when nothing is remembered (or storage is off). */
  load(provider) {
    try {
      const key = localStorage.getItem(this.name(provider));
      return key === null ? null : { key, base: localStorage.getItem(`${this.name(provider)}.for`) ?? "" };
    } catch {
      return null; // storage disabled: nothing remembered
    }
  },
  save(provider, key, remember, base) {
    try {
      if (remember && key) {
        localStorage.setItem(this.name(provider), key);
        localStorage.setItem(`${this.name(provider)}.for`, base);
      } else if (this.load(provider)?.base === base) {
        // Unticked, or the key emptied, for the server the entry is for (another's stays).
        localStorage.removeItem(this.name(provider));
        localStorage.removeItem(`${this.name(provider)}.for`);
      }
    } catch {
      /* storage disabled: the key stays in memory only */
    }
  },
};

/** The server a provider's request goes to: the Base URL field, else the provider's default. */
const server = (provider, baseUrl) => (baseUrl || state.providers.get(provider)?.baseUrl || "").replace(/\/+$/, "");

/** Fills in the remembered key when the form's server is the one it is for, else empties the field. */
export function fillKey(provider) {
  const saved = keyStore.load(provider);
  const { baseUrl } = controls.settings();
  const mine = saved && (!baseUrl || server(provider, baseUrl) === server(provider, saved.base));
  // An empty Base URL field takes the server the key was remembered with.
  if (mine && !baseUrl) controls.apply({ baseUrl: saved.base });
  controls.apply({ apiKey: mine ? saved.key : "", remember: Boolean(mine) });
}

//! An error as a reader of the page's language reads it. In Chinese: a sentence on what went wrong
//! and what to do, chosen by the error's `kind`, then tao's own message in brackets (the core
//! writes it in English, with the URL, the status and the server's words). In English: the
//! message alone. Test connection and Import use it (it loads with them); a run's failure comes
//! back in its trajectory without its kind, and is not explained here.

import { t, lang } from "./i18n.js";
import { messageOf } from "./app.js";

/** `error`'s message, led by a sentence in the page's language where it has one for its kind. */
export function explained(error) {
  const message = messageOf(error);
  const key = `why.${error?.kind}`;
  const lead = lang() === "en" ? key : t(key);
  return lead === key ? message : `${lead}（${message}）`;
}

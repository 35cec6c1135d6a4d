//! An answer written in Markdown, drawn as the page's own elements: paragraphs, line breaks,
//! `**bold**`, `*italic*`, `` `code` ``, fenced code blocks, lists, `# headings` (as bold lines)
//! and `[links](https://…)`. A model answers in Markdown more often than not; shown raw, its
//! stars and backticks get in the reader's way.
//!
//! The rule of the page still holds (cards.js): model text never becomes HTML. This is not a
//! Markdown-to-HTML converter followed by `innerHTML`; each piece of text goes in with
//! `textContent`, inside elements made here by name, so `<script>` or `<img onerror=…>` in an
//! answer is shown as the characters it is. A link is made only for an `http:` or `https:` URL
//! (never `javascript:` or `data:`), and it opens in a new tab without handing over the page
//! (`rel="noopener noreferrer"`). What this does not know (tables, quotes, nested lists, HTML)
//! stays text, as written.

const FENCE = /^\s{0,3}(```|~~~)/;
const ITEM = /^\s{0,3}([-*+]|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/**
 * The spans of a line, in the order they are looked for at each place: a backslash escape, a
 * code span (nothing inside it is read), a link (its URL may hold one pair of parentheses, as
 * Wikipedia's `Mobile,_Alabama_(city)` would), bold, italic. `_` marks emphasis only at a word's
 * edges, so `snake_case_name` stays as written.
 */
const INLINE =
  /\\([!-/:-@[-`{-~])|(`+)(.+?)\2(?!`)|\[([^\]]+)\]\(((?:[^\s()]|\([^\s()]*\))+)\)|\*\*(?=\S)(.+?)(?<=\S)\*\*|(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)|\*(?=[^\s*])(.+?)(?<=[^\s*])\*|(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)/g;

/** `tag` with `text` as its text (never parsed), and `className` if given. */
function node(tag, text, className) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The URL `href` if it is an absolute http(s) URL, else null. */
function webUrl(href) {
  try {
    const url = new URL(href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Appends the spans of one line of text to `parent`. */
function inline(parent, text) {
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    parent.append(text.slice(at, m.index));
    at = m.index + m[0].length;
    const [, escaped, , code, label, href, strong, strong2, em, em2] = m;
    const url = href && webUrl(href);
    if (escaped) parent.append(escaped);
    else if (code) parent.append(node("code", code.trim() || code));
    else if (label && url) {
      const a = node("a");
      a.href = url;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      inline(a, label);
      parent.append(a);
    } else if (label) parent.append(m[0]); // a link that is not http(s): its text, as written
    else {
      const box = node(strong || strong2 ? "strong" : "em");
      inline(box, strong || strong2 || em || em2);
      parent.append(box);
    }
  }
  parent.append(text.slice(at));
}

/** Appends `lines` to `parent`, one after another with a line break between each. */
function lines(parent, texts) {
  texts.forEach((text, i) => {
    if (i) parent.append(node("br"));
    inline(parent, text);
  });
}

/**
 * `text` (Markdown) as a `<div>` of block elements (`<p>`, `<ul>`, `<ol>`, `<pre>`), with
 * `className` on it.
 */
export function markdown(text, className) {
  const box = node("div", undefined, className);
  const source = String(text ?? "").replace(/\r\n?/g, "\n").split("\n");
  let paragraph = []; // the lines of the paragraph being read
  let list = null; // the list being read, and its last item
  let item = null;
  const close = () => {
    if (paragraph.length) lines(box.appendChild(node("p")), paragraph);
    paragraph = [];
    list = item = null;
  };
  for (let i = 0; i < source.length; i++) {
    const line = source[i];
    const fence = line.match(FENCE);
    const bullet = line.match(ITEM);
    const heading = line.match(HEADING);
    if (fence) {
      // A fenced block: every line up to the same fence (or the end) as it is.
      close();
      const body = [];
      while (++i < source.length && !source[i].trimStart().startsWith(fence[1])) body.push(source[i]);
      box.appendChild(node("pre")).append(node("code", body.join("\n")));
    } else if (!line.trim()) {
      close();
    } else if (bullet) {
      const ordered = bullet[2] !== undefined;
      if (paragraph.length || !list || (list.tagName === "OL") !== ordered) {
        close();
        list = box.appendChild(node(ordered ? "ol" : "ul"));
        if (ordered && bullet[2] !== "1") list.start = Number(bullet[2]);
      }
      item = list.appendChild(node("li"));
      inline(item, bullet[3]);
    } else if (heading) {
      close();
      inline(box.appendChild(node("p", undefined, "md-heading")).appendChild(node("strong")), heading[1]);
    } else if (item) {
      // An item's line that goes on without a marker belongs to the item.
      item.append(node("br"));
      inline(item, line.trim());
    } else {
      paragraph.push(line);
    }
  }
  close();
  return box;
}

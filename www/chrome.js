//! `provider: "chrome"` for the page (app.js) and the package (`Agent` in tao.js,
//! `<tao-agent provider="chrome">`): Chrome's built-in model as a model function
//! (chrome-model.js, loaded at the first call), one session for the run, held to the format
//! unless `constrained: false`.

/** The settings `config` with `provider: "chrome"` made into a model function. */
export function chromeConfig({ provider, constrained, ...config }) {
  let model = null;
  const chrome = async (messages, options) => {
    model ??= import("./chrome-model.js").then((part) => part.chromeModel());
    return (await model)(messages, options);
  };
  // Its name is the trajectory's model ("js:chrome"), whatever a bundler does to the code.
  Object.defineProperty(chrome, "name", { value: "chrome" });
  return { ...config, model: chrome, constrained: constrained ?? true };
}

//! The built-in tools whose code the core built without it (the shipped wasm) takes from the
//! tools' module (`tools_module`, `pkg/tao_tools*`): the calculator, `search`/`lookup` over a
//! live MediaWiki or over the pages loaded (`loadOfflineData({knowledge})`), and `search_docs`.
//! The core keeps what the model is told (each spec, in both languages), so prompts are the
//! same before anything is loaded; a tool's first call loads the module and makes the tool
//! there (one per agent: `search` and `lookup` share their open page in it), and every call
//! runs there. The observation, and whether a failure is the model's (a bad input) or the
//! tool's, are the module's, unchanged. The memos tao writes itself for the offline model
//! (`crate::agent::memory::extract`) are written there too.

use super::{describe, get, modules};
use crate::chat::ToolSpec;
use crate::error::Error;
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::settings::{Docs, Elsewhere};
use crate::to_json::{Object, ToJson};
use crate::tools::docs;
use crate::tools::knowledge::{self, lookup_spec};
use crate::tools::wikipedia::{search_spec, Wiki};
use crate::tools::{calculator_spec, Tool, ToolError, ToolOutput};
use js_sys::{Array, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

#[wasm_bindgen]
extern "C" {
    /// The module's `Toolbox` (`super::tools_module`): one agent's tools of one kind.
    #[derive(Clone)]
    type Toolbox;
    /// Runs the tool `name` on `input` (JSON text): the observation, or the module's error.
    #[wasm_bindgen(method, catch)]
    fn call(this: &Toolbox, name: &str, input: &str) -> Result<Promise, JsValue>;
}

/// The tools' module as the settings' [`Elsewhere`], for one run that `signal` can abort (it
/// cancels a tool's requests).
pub(crate) struct FromModule {
    pub(crate) signal: Option<AbortSignal>,
}

impl FromModule {
    /// A maker of `kind` with `config` (and the run's signal).
    fn maker(&self, kind: &'static str, config: &dyn ToJson) -> Rc<Maker> {
        Rc::new(Maker {
            kind,
            config: crate::to_json::to_string(config),
            signal: self.signal.clone(),
            made: RefCell::default(),
        })
    }
}

impl Elsewhere for FromModule {
    fn calculator(&self) -> Rc<dyn Tool> {
        let maker = self.maker("calculator", &Object(&[]));
        ModuleTool::made(calculator_spec(), maker, (false, false))
    }

    fn wiki(&self, wiki: &Wiki) -> Vec<Rc<dyn Tool>> {
        let config = Object(&[("api", &wiki.api), ("variant", &wiki.variant)]);
        let maker = self.maker("wiki", &config);
        // A search is a read, and a lookup pages through the open page: both replay.
        vec![
            ModuleTool::made(search_spec(), maker.clone(), (true, false)),
            ModuleTool::made(lookup_spec(), maker, (true, true)),
        ]
    }

    fn offline(&self, lang: &str) -> Vec<Rc<dyn Tool>> {
        // The module reads the pages' text the core checked and kept (settings refuse a run
        // without them, so `pages` is there).
        let pages = knowledge::text();
        let config = Object(&[("pages", &pages.as_deref()), ("lang", &lang)]);
        let maker = self.maker("offline", &config);
        vec![
            ModuleTool::made(knowledge::search_spec(), maker.clone(), (true, false)),
            ModuleTool::made(lookup_spec(), maker, (true, true)),
        ]
    }

    fn docs(&self, docs: &Docs) -> Rc<dyn Tool> {
        let maker = match docs {
            Docs::Given(list) => self.maker("docs", &Object(&[("docs", list)])),
            Docs::At(url) => self.maker("docs", &Object(&[("url", url)])),
        };
        ModuleTool::made(docs::spec(), maker, (false, false))
    }

    fn memo(
        &self,
        trajectory: String,
        kind: &'static str,
        covers: u32,
    ) -> LocalBoxFuture<'_, Result<String, Error>> {
        Box::pin(async move {
            let memo = modules::export("tao_tools", "the tools' module", "memo").await?;
            let (trajectory, kind) = (trajectory.into(), kind.into());
            let written = memo.call3(&JsValue::NULL, &trajectory, &kind, &covers.into());
            let written = written.map_err(|e| Error::config(describe(&e)))?;
            Ok(written.as_string().unwrap_or_default())
        })
    }
}

/// Makes the module's tools of one kind for one agent, at the first call of any of them.
struct Maker {
    kind: &'static str,
    /// Their settings, as JSON text.
    config: String,
    signal: Option<AbortSignal>,
    made: RefCell<Option<Toolbox>>,
}

impl Maker {
    /// The module's `Toolbox` for this kind and config, made once.
    async fn toolbox(&self) -> Result<Toolbox, ToolError> {
        if let Some(made) = self.made.borrow().clone() {
            return Ok(made);
        }
        let class = modules::export("tao_tools", "the tools' module", "Toolbox")
            .await
            .map_err(|e| ToolError::Failed(e.message))?;
        let (kind, config) = (self.kind.into(), self.config.as_str().into());
        let args = Array::of3(&kind, &config, &self.signal.clone().into());
        let made: Toolbox = Reflect::construct(&class, &args)
            .map_err(|e| failure(&e))?
            .unchecked_into();
        *self.made.borrow_mut() = Some(made.clone());
        Ok(made)
    }
}

/// A built-in tool run in the tools' module, behind the spec the core keeps.
struct ModuleTool {
    spec: ToolSpec,
    maker: Rc<Maker>,
    replays: bool,
    pages: bool,
}

impl ModuleTool {
    fn made(spec: ToolSpec, maker: Rc<Maker>, (replays, pages): (bool, bool)) -> Rc<dyn Tool> {
        Rc::new(ModuleTool {
            spec,
            maker,
            replays,
            pages,
        })
    }
}

impl Tool for ModuleTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call<'a>(&'a self, input: &'a Value) -> LocalBoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let toolbox = self.maker.toolbox().await?;
            let input = crate::to_json::to_string(input);
            let returned = toolbox.call(&self.spec.name, &input);
            let value = JsFuture::from(returned.map_err(|e| failure(&e))?)
                .await
                .map_err(|e| failure(&e))?;
            Ok(ToolOutput::from(value.as_string().unwrap_or_default()))
        })
    }

    fn replays(&self) -> bool {
        self.replays
    }

    fn pages(&self) -> bool {
        self.pages
    }
}

/// What the module threw: `kind: "bad_input"` is the model's mistake, anything else the tool's.
fn failure(thrown: &JsValue) -> ToolError {
    let message = describe(thrown);
    match get(thrown, "kind").as_string().as_deref() {
        Some("bad_input") => ToolError::BadInput(message),
        _ => ToolError::Failed(message),
    }
}

//! The built-in tools whose code the core built without it (the shipped wasm) takes from the
//! tools' module (`tools_module`, `pkg/tao_tools*`): the calculator, `search`/`lookup` over a
//! live MediaWiki or over the pages loaded (`loadOfflineData({knowledge})`), and `search_docs`. The core keeps what the model is told (each spec, in both
//! languages), so prompts are the same before anything is loaded; a tool's first call loads the
//! module and makes the tool there (one per agent: `search` and `lookup` share their open page
//! in it), and every call runs there. The observation, and whether a failure is the model's (a
//! bad input) or the tool's, are the module's, unchanged. The memos tao writes itself for the
//! offline model (`crate::agent::memory::extract`) are written there too.

use super::{describe, modules, to_js};
use crate::chat::ToolSpec;
use crate::error::Error;
use crate::host::LocalBoxFuture;
use crate::json::Value;
use crate::settings::{Docs, Elsewhere};
use crate::to_json::Object as JsonObject;
use crate::tools::docs;
use crate::tools::knowledge::{self, lookup_spec};
use crate::tools::wikipedia::{search_spec, Wiki};
use crate::tools::{calculator_spec, Tool, ToolError, ToolOutput};
use js_sys::{Array, Function, Object, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// The tools' module as the settings' [`Elsewhere`], for one run that `signal` can abort (it
/// cancels a tool's requests).
pub(crate) struct FromModule {
    pub(crate) signal: Option<AbortSignal>,
}

impl FromModule {
    /// A maker of `kind` with `config` (and the run's signal).
    fn maker(&self, kind: &'static str, config: JsValue) -> Rc<Maker> {
        let config = if config.is_object() {
            config
        } else {
            Object::new().into()
        };
        if let Some(signal) = &self.signal {
            let _ = Reflect::set(&config, &"signal".into(), signal);
        }
        Rc::new(Maker {
            kind,
            config,
            made: RefCell::default(),
        })
    }
}

impl Elsewhere for FromModule {
    fn calculator(&self) -> Rc<dyn Tool> {
        let maker = self.maker("calculator", JsValue::UNDEFINED);
        ModuleTool::made(calculator_spec(), maker, (false, false))
    }

    fn wiki(&self, wiki: &Wiki) -> Vec<Rc<dyn Tool>> {
        let config = Object::new();
        let _ = Reflect::set(&config, &"api".into(), &wiki.api.as_str().into());
        if let Some(variant) = wiki.variant {
            let _ = Reflect::set(&config, &"variant".into(), &variant.into());
        }
        let maker = self.maker("wiki", config.into());
        // A search is a read, and a lookup pages through the open page: both replay.
        vec![
            ModuleTool::made(search_spec(), maker.clone(), (true, false)),
            ModuleTool::made(lookup_spec(), maker, (true, true)),
        ]
    }

    fn offline(&self, lang: &str) -> Vec<Rc<dyn Tool>> {
        // The module reads the pages' text the core checked and kept (settings refuse a run
        // without them, so `pages` is there).
        let config = Object::new();
        if let Some(pages) = knowledge::text() {
            let _ = Reflect::set(&config, &"pages".into(), &pages.as_ref().into());
        }
        let _ = Reflect::set(&config, &"lang".into(), &lang.into());
        let maker = self.maker("offline", config.into());
        vec![
            ModuleTool::made(knowledge::search_spec(), maker.clone(), (true, false)),
            ModuleTool::made(lookup_spec(), maker, (true, true)),
        ]
    }

    fn docs(&self, docs: &Docs) -> Rc<dyn Tool> {
        let config = match docs {
            Docs::Given(list) => to_js(&JsonObject(&[("docs", list)])),
            Docs::At(url) => to_js(&JsonObject(&[("url", url)])),
        };
        let maker = self.maker("docs", config.unwrap_or(JsValue::UNDEFINED));
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
            let written = memo
                .call3(
                    &JsValue::NULL,
                    &trajectory.into(),
                    &kind.into(),
                    &covers.into(),
                )
                .map_err(|e| Error::config(describe(&e)))?;
            Ok(written.as_string().unwrap_or_default())
        })
    }
}

/// Makes the module's tools of one kind for one agent, at the first call of any of them.
struct Maker {
    kind: &'static str,
    config: JsValue,
    made: RefCell<Option<JsValue>>,
}

impl Maker {
    /// The module's `Toolbox` for this kind and config, made once.
    async fn toolbox(&self) -> Result<JsValue, ToolError> {
        if let Some(made) = self.made.borrow().clone() {
            return Ok(made);
        }
        let class = modules::export("tao_tools", "the tools' module", "Toolbox")
            .await
            .map_err(|e| ToolError::Failed(e.message))?;
        let args = Array::of2(&self.kind.into(), &self.config);
        let made = Reflect::construct(&class, &args).map_err(|e| failure(&e))?;
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
            let call = Reflect::get(&toolbox, &"call".into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| ToolError::Failed("the tools' module has no Toolbox.call".into()))?;
            let input = to_js(input).map_err(|_| ToolError::Failed("unreadable input".into()))?;
            let name: JsValue = self.spec.name.as_str().into();
            let returned = call
                .call2(&toolbox, &name, &input)
                .map_err(|e| failure(&e))?;
            let value = JsFuture::from(Promise::resolve(&returned))
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
    let kind = Reflect::get(thrown, &"kind".into())
        .ok()
        .and_then(|k| k.as_string());
    match kind.as_deref() {
        Some("bad_input") => ToolError::BadInput(message),
        _ => ToolError::Failed(message),
    }
}

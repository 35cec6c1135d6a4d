//! A toolbox: one agent's built-in tools of one kind, made from their settings as JSON. The
//! shipped core carries no tools' code; it asks the tools' module for a toolbox
//! (`bindings::module_tool` writes the settings, `bindings::tools_module` makes the toolbox
//! here), so what each kind reads from its settings is checked natively, and the module supplies
//! only the web's transport.

use super::{calculator, docs, knowledge, wikipedia, Tool};
use crate::error::Error;
use crate::http::Transport;
use crate::json::Value;
use std::rc::Rc;

/// The tools of `kind`, made from `config`: `calculator`; `wiki` (`search` and `lookup` over a
/// live MediaWiki, sharing their open page: `{api, variant}`); `offline` (the same two over the
/// pages of a knowledge file: `{pages, lang}`, its text); `docs` (`search_docs` over `{docs:
/// [...]}` or the file at `{url}`). `transport` makes the network the wiki and a docs file are
/// asked through.
pub fn toolbox(
    kind: &str,
    config: &Value,
    transport: impl Fn() -> Rc<dyn Transport>,
) -> Result<Vec<Rc<dyn Tool>>, Error> {
    let text = |key: &str| config[key].as_str();
    Ok(match kind {
        "calculator" => vec![calculator::tool()],
        "wiki" => {
            let api = text("api").ok_or_else(|| Error::config("wiki needs {api}"))?;
            let api = api.to_string();
            let variant = match text("variant") {
                Some("zh-cn") => Some("zh-cn"),
                _ => None,
            };
            wikipedia::tools(wikipedia::Wiki { api, variant }, transport())
        }
        "offline" => {
            let pages = text("pages").ok_or_else(|| Error::config("offline needs {pages}"))?;
            knowledge::tools_from(pages, text("lang").unwrap_or_default())?
        }
        "docs" => match text("url") {
            Some(url) => vec![docs::tool_from_url(url, transport())],
            None => {
                let list = docs::read_docs(&config["docs"])
                    .map_err(|e| Error::config(format!("docs: {e}")))?;
                vec![docs::tool(list)]
            }
        },
        other => {
            return Err(Error::config(format!(
                "no built-in tools of the kind \"{other}\""
            )))
        }
    })
}

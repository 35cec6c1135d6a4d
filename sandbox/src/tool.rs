//! A tool module, compiled and checked once at registration so every later call only runs it.
//!
//! Registration is where a bad module should fail: a page that registers a tool wants to know
//! *then* that it imports `path_open` or is not WebAssembly at all, not in the middle of an
//! agent run. So [`WasmTool::new`] does everything that does not depend on the input: it
//! validates and compiles the module, compares each import with the allow-list in
//! [`wasi`](crate::wasi) (by name *and* signature), and checks the two exports a WASI command
//! must have, `_start` and `memory`.

use wasmi::{CompilationMode, Config, EnforcedLimits, Engine, ExternType, Linker, Module, ValType};

use crate::error::SandboxError;
use crate::run::Host;
use crate::wasi;

/// Bytes in one page of WebAssembly memory.
const PAGE_BYTES: u64 = 65536;

/// What registration learned about a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleInfo {
    /// Every import, as `module.name` (all from the allow-list, or the module was refused).
    pub imports: Vec<String>,
    /// The memory the module starts with, in bytes (a run fails at once if it is over the cap).
    pub initial_memory_bytes: u64,
    /// The size of the module file, in bytes.
    pub size_bytes: usize,
}

/// A checked, compiled tool module, ready to [`run`](WasmTool::run) any number of times.
pub struct WasmTool {
    pub(crate) module: Module,
    pub(crate) linker: Linker<Host>,
    info: ModuleInfo,
}

impl WasmTool {
    /// Validates, compiles and checks a WASI preview1 command module.
    pub fn new(bytes: &[u8]) -> Result<WasmTool, SandboxError> {
        check_header(bytes)?;
        let engine = engine();
        let module = Module::new(&engine, bytes).map_err(|error| {
            SandboxError::invalid(format!("the module is not valid WebAssembly: {error}"))
        })?;
        let imports = check_imports(&module)?;
        let initial_memory_bytes = check_exports(&module)?;
        let mut linker = Linker::new(&engine);
        // Defining fourteen distinct names in a fresh linker cannot collide; if it ever did,
        // that is a bug here, reported rather than panicked on.
        wasi::define(&mut linker).map_err(|error| {
            SandboxError::refused(format!(
                "the sandbox could not set up wasi (a bug): {error}"
            ))
        })?;
        Ok(WasmTool {
            module,
            linker,
            info: ModuleInfo {
                imports,
                initial_memory_bytes,
                size_bytes: bytes.len(),
            },
        })
    }

    /// What registration learned about the module.
    pub fn info(&self) -> &ModuleInfo {
        &self.info
    }
}

/// The interpreter's configuration, the same for every tool.
fn engine() -> Engine {
    let mut config = Config::default();
    config
        // Fuel: every instruction costs fuel and a run stops when its budget is spent. This,
        // not a timer, is what ends an infinite loop, and it ends it at the same instruction
        // on every machine.
        .consume_fuel(true)
        // Compile every function up front. wasmi's default compiles each function on its first
        // call and charges fuel for that, so a second call of a cached module would cost less
        // than the first; eager compilation makes fuel a function of the input alone.
        .compilation_mode(CompilationMode::Eager)
        // Bounds on the module's shape (at most 10 000 functions, 1 000 globals, 32 params...)
        // that stop a crafted module from making compilation itself slow or huge. Ordinary
        // compiled programs are far inside them.
        .enforced_limits(EnforcedLimits::strict());
    Engine::new(&config)
}

/// Catches the commonest wrong files before the validator reports a byte offset.
fn check_header(bytes: &[u8]) -> Result<(), SandboxError> {
    if !bytes.starts_with(b"\0asm") {
        return Err(SandboxError::invalid(
            "the bytes are not a WebAssembly module (they do not start with \\0asm); \
             a tool must be a .wasm file built for wasm32-wasip1",
        ));
    }
    // Version 1 is a core module; a component (WASI preview 2) has a different layer number.
    if bytes.get(4..8) != Some(&[1, 0, 0, 0][..]) {
        return Err(SandboxError::invalid(
            "the module is not a core WebAssembly module (version 1): if it is a component \
             (wasm32-wasip2), build the tool for wasm32-wasip1 instead",
        ));
    }
    Ok(())
}

/// Refuses any import outside the allow-list, naming it; returns the list of imports.
fn check_imports(module: &Module) -> Result<Vec<String>, SandboxError> {
    let allowed = || {
        wasi::ALLOWED
            .iter()
            .map(|call| call.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut imports = Vec::new();
    for import in module.imports() {
        let full_name = format!("{}.{}", import.module(), import.name());
        let call = (import.module() == wasi::MODULE)
            .then(|| wasi::ALLOWED.iter().find(|call| call.name == import.name()))
            .flatten();
        let ExternType::Func(ty) = import.ty() else {
            let what = match import.ty() {
                ExternType::Memory(_) => "a memory",
                ExternType::Table(_) => "a table",
                _ => "a global",
            };
            return Err(SandboxError::refused(format!(
                "the module imports {what} ({full_name}), which tools may not do; a tool \
                 defines its own memory and imports only wasi functions"
            )));
        };
        let Some(call) = call else {
            let why = if import.module() == wasi::MODULE {
                wasi::refusal_reason(import.name())
                    .map(|reason| format!(" ({reason})"))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            return Err(SandboxError::refused(format!(
                "the module imports {full_name}{why}, which tools may not use; allowed: {} \
                 (from {})",
                allowed(),
                wasi::MODULE
            )));
        };
        if ty.params() != call.params || ty.results() != call.results {
            return Err(SandboxError::refused(format!(
                "the module imports {full_name} as {}, but wasi preview1 defines it as {}",
                signature(ty.params(), ty.results()),
                signature(call.params, call.results)
            )));
        }
        imports.push(full_name);
    }
    Ok(imports)
}

/// Requires `_start: () -> ()` and a 32-bit `memory`; returns the memory's initial size.
fn check_exports(module: &Module) -> Result<u64, SandboxError> {
    match module.get_export("_start") {
        Some(ExternType::Func(ty)) if ty.params().is_empty() && ty.results().is_empty() => {}
        Some(_) => {
            return Err(SandboxError::refused(
                "the module's `_start` export is not a function of no arguments and no results",
            ))
        }
        None => {
            return Err(SandboxError::refused(
                "the module has no `_start` export: a tool must be a wasi command (a program \
                 with `main`), not a library or a reactor",
            ))
        }
    }
    match module.get_export("memory") {
        Some(ExternType::Memory(ty)) => Ok(ty.minimum().saturating_mul(PAGE_BYTES)),
        _ => Err(SandboxError::refused(
            "the module exports no memory named `memory`, so the sandbox cannot pass it its \
             input; wasi commands built by standard toolchains always export one",
        )),
    }
}

/// `(i32, i64) -> (i32)`, the way a reader writes a signature.
fn signature(params: &[ValType], results: &[ValType]) -> String {
    let list = |types: &[ValType]| {
        let names: Vec<&str> = types.iter().map(|ty| type_name(*ty)).collect();
        names.join(", ")
    };
    format!("({}) -> ({})", list(params), list(results))
}

/// A value type's name in the WebAssembly text format.
fn type_name(ty: ValType) -> &'static str {
    match ty {
        ValType::I32 => "i32",
        ValType::I64 => "i64",
        ValType::F32 => "f32",
        ValType::F64 => "f64",
        ValType::V128 => "v128",
        ValType::FuncRef => "funcref",
        ValType::ExternRef => "externref",
    }
}
